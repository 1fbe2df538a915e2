#!/usr/bin/env python3
"""The figures of docs/scale.md and BENCHMARKS.md ("Spark"):

    PROVABLY_BIN=... .venv/bin/python harness/spark/bench.py ops   [--out DIR]
    PROVABLY_BIN=... .venv/bin/python harness/spark/bench.py spark [--rounds N] [--out DIR]

ops    rounds per second on one core of `provably audit --jobs 1` for a few
       ops: one JSON-lines proof per op, every outcome observed as serve
       derives it (json.dumps text, so the audit parses what it compares).
spark  the Spark job in local[2] (whole process, JVM start included) against
       `provably audit --jobs 2` over the job's canonical file: the same rounds,
       the same report (checked before any figure is printed).

Each command is run RUNS times (default 3); the table gives the median and
the range. Inputs are made from fixed seeds by flatgen.py and provably serve.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import flatgen  # noqa: E402

RUNS = int(os.environ.get("RUNS", "3"))


def timed(cmd, **kw):
    t = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, **kw)
    return time.monotonic() - t, p


def median_range(xs):
    return statistics.median(xs), min(xs), max(xs)


def load():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


OPS = [
    ("stake.dice", {}, 200000, 1000),
    ("stake.keno", {}, 100000, 1000),
    ("stake.plinko", {"rows": 16, "risk": "high"}, 100000, 1000),
    ("dice.roll", None, 200000, 40),
    ("cursor.int", {"cursor": 0, "range": 37}, 200000, 1000),
    ("selfpoker.deck", None, 50000, 1),
    ("shoe.deal", {"decks": 6, "penetration": 0.75}, 20000, 1),
]


def op_archive(binary, op, params, rounds, per_epoch, path):
    epochs = []
    for k in range(rounds // per_epoch):
        if op == "selfpoker.deck":
            e = flatgen.Epoch(None, "seed", str((k * 0x9E3779B97F4A7C15) % 2 ** 63))
            e.rounds = [flatgen.Round(op)]
        else:
            e = flatgen.Epoch(None, "serverSeed", flatgen.sha(f"bench {op} {k}"))
            if op == "dice.roll":
                e.rounds = [flatgen.Round(op, "c", None, {"n": n}) for n in range(per_epoch)]
            else:
                e.rounds = [flatgen.Round(op, "c", n, params) for n in range(per_epoch)]
        epochs.append(e)
    flatgen.derive(epochs, binary)
    if op != "selfpoker.deck":
        for e, h in zip(epochs, flatgen.commitments([e.secret for e in epochs], binary)):
            e.commit = h
    with open(path, "w") as f:
        for e in epochs:
            f.write(flatgen.proof_line(e) + "\n")
    return sum(len(e.rounds) for e in epochs)


def ops(binary, out):
    rows = []
    for op, params, rounds, per_epoch in OPS:
        path = os.path.join(out, f"{op}.jsonl")
        n = op_archive(binary, op, params, rounds, per_epoch, path)
        code = subprocess.run([binary, "audit", "--quiet", path], capture_output=True).returncode
        if code != 0:
            sys.exit(f"{path}: audit exited {code}, not a clean archive")
        times = [timed([binary, "audit", "--quiet", "--jobs", "1", path])[0] for _ in range(RUNS)]
        m, lo, hi = median_range(times)
        rows.append((op, n, os.path.getsize(path), m, lo, hi))
        print(f"{op}: {n} rounds, {m:.3f} s", file=sys.stderr)
    print(f"load before/after: see below; runs {RUNS}, binary {binary}")
    print("| op | rounds | file | `audit --jobs 1` (median, range) | rounds/s per core |")
    print("|:--|--:|--:|--:|--:|")
    for op, n, size, m, lo, hi in rows:
        print(f"| `{op}` | {n:,} | {size / 1e6:.1f} MB | {m:.3f} s ({lo:.3f}–{hi:.3f}) | {n / m:,.0f} |")


def spark(binary, out, rounds):
    flat = os.path.join(out, "honest.jsonl")
    epochs = flatgen.generate("honest", rounds, 1, binary)
    _, n = flatgen.write(epochs, flat)
    canonical = os.path.join(out, "honest.canonical.jsonl")
    job = [sys.executable, os.path.join(HERE, "audit.py"), "--master", "local[2]", "--quiet", "--provably", binary,
           "--partitions", "8"]
    env = dict(os.environ, SPARK_LOCAL_IP="127.0.0.1")
    # The check first: the job's report is one audit's.
    manifest = os.path.join(out, "manifest.json")
    subprocess.run(job + ["--canonical", canonical, "--report", os.path.join(out, "job.json"), "--manifest", manifest,
                          flat], capture_output=True, env=env)
    subprocess.run([binary, "audit", "--quiet", "--report", os.path.join(out, "audit.json"), canonical],
                   capture_output=True)
    with open(os.path.join(out, "job.json"), "rb") as a, open(os.path.join(out, "audit.json"), "rb") as b:
        if a.read() != b.read():
            sys.exit("the job's report is not the audit's: no figures")
    load0 = load()
    spark_t, phases = [], []
    for _ in range(RUNS):
        t, _p = timed(job + ["--manifest", manifest, "--name", canonical, flat], env=env)
        spark_t.append(t)
        with open(manifest) as f:
            phases.append(json.load(f)["seconds"])
    audit_t = [timed([binary, "audit", "--quiet", "--jobs", "2", canonical])[0] for _ in range(RUNS)]
    load1 = load()
    s, slo, shi = median_range(spark_t)
    a, alo, ahi = median_range(audit_t)
    print(f"{n:,} rounds ({os.path.getsize(flat) / 1e6:.1f} MB flat JSON lines, "
          f"{os.path.getsize(canonical) / 1e6:.1f} MB canonical); runs {RUNS}; load {load0} → {load1}")
    print("| | wall (median, range) | rounds/s |")
    print("|:--|--:|--:|")
    print(f"| Spark job, local[2], 8 partitions (whole process) | {s:.2f} s ({slo:.2f}–{shi:.2f}) | {n / s:,.0f} |")
    print(f"| `provably audit --jobs 2` on its canonical file | {a:.2f} s ({alo:.2f}–{ahi:.2f}) | {n / a:,.0f} |")
    for k in phases[0]:
        xs = [p[k] for p in phases]
        print(f"|   job phase `{k}` | {statistics.median(xs):.2f} s ({min(xs):.2f}–{max(xs):.2f}) | |")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("what", choices=["ops", "spark"])
    p.add_argument("--rounds", type=int, default=300000)
    p.add_argument("--out", default="target/bench-spark")
    a = p.parse_args()
    binary = os.path.realpath(flatgen.provably_bin())
    os.makedirs(a.out, exist_ok=True)
    if a.what == "ops":
        ops(binary, a.out)
    else:
        spark(binary, a.out, a.rounds)


if __name__ == "__main__":
    main()
