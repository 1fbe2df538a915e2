"""The Spark job against one `provably audit` (make test-spark).

Each archive is made with `provably serve` (harness/spark/flatgen.py), run
through the job in Spark local[2] cut into at least 8 partitions, and the
merged report, JUnit and exit code must be those of `provably audit` over
the job's canonical file, byte for byte after removing timing keys. The
canonical file itself is held to a second builder written here from
docs/scale.md, and its audit to the audit of the same rounds as generated
(another order, the same counts and findings).

    make test-spark        # or: PROVABLY_BIN=target/debug/provably .venv/bin/python harness/spark/test_spark.py
"""

import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import flatgen  # noqa: E402

BIN = os.path.realpath(os.environ.get("PROVABLY_BIN") or os.path.join(ROOT, "target/debug/provably"))
VENV_BIN = os.path.dirname(sys.executable)
# A hang guard only: the whole stage takes about a minute on two cores.
TIMEOUT = 900
TIMING_KEYS = {"seconds", "elapsed", "elapsedSeconds", "durationMs", "time", "timestamp", "roundsPerSecond"}
COUNTS = ["epochs", "rounds", "match", "mismatch", "skipped", "invalid", "unobserved", "commitOk",
          "commitMismatch", "commitAbsent", "invalidOther", "gaps", "verdict"]


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT, **kw)


# ------------------------------------------------------- the canonical proof, a second time


def _value(text):
    try:
        json.loads(text, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
    except (ValueError, RecursionError):
        return None
    return text.replace("\r", " ").replace("\n", " ").strip()


def reference_canonical(paths):
    """docs/scale.md's canonical proof of the rows in `paths`, built in plain Python."""
    rows = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            rows.extend(json.loads(line) for line in f if line.strip())

    def nf(v):  # nulls first
        return (v is not None, v if v is not None else "")

    cols = ["commit", "serverSeed", "seed", "clientSeed", "nonce", "op", "params", "observed"]
    rows = [{c: r.get(c) for c in cols} for r in rows]
    rows.sort(key=lambda r: tuple(nf(r[c]) for c in
                                  ["serverSeed", "seed", "commit", "nonce", "clientSeed", "op", "params", "observed"]))
    lines, key, rounds = [], None, []

    def close():
        commit, server, seed = key[2], key[0], key[1]
        head = "{\"commit\":" + ("null" if commit is None else json.dumps(commit, ensure_ascii=False))
        if server is not None:
            head += ",\"serverSeed\":" + json.dumps(server, ensure_ascii=False)
        if seed is not None:
            head += ",\"seed\":" + json.dumps(seed, ensure_ascii=False)
        lines.append(head + ",\"rounds\":[" + ",".join(rounds) + "]}")

    for r in rows:
        k = (r["serverSeed"], r["seed"], r["commit"])
        if k != key:
            if key is not None:
                close()
            key, rounds = k, []
        members = ["\"op\":" + json.dumps(r["op"], ensure_ascii=False)]
        if r["clientSeed"] is not None:
            members.append("\"clientSeed\":" + json.dumps(r["clientSeed"], ensure_ascii=False))
        if r["nonce"] is not None:
            members.append("\"nonce\":%d" % r["nonce"])
        if r["params"] is not None:
            t = _value(r["params"])
            if t is not None and isinstance(json.loads(t), dict):
                if t[1:-1].strip():
                    members.append(t[1:-1].strip())
            else:
                members.append("\"params\":" + json.dumps(r["params"], ensure_ascii=False))
        if r["observed"] is not None:
            t = _value(r["observed"])
            members.append("\"observed\":" + (t if t is not None else json.dumps(r["observed"], ensure_ascii=False)))
        rounds.append("{" + ",".join(members) + "}")
    if key is not None:
        close()
    return "".join(line + "\n" for line in lines).encode("utf-8")


# ------------------------------------------------------------- comparison


def strip_timing(v):
    found = False
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            if k in TIMING_KEYS:
                found = True
                continue
            out[k], f = strip_timing(x)
            found = found or f
        return out, found
    if isinstance(v, list):
        items = [strip_timing(x) for x in v]
        return [x for x, _ in items], any(f for _, f in items)
    return v, False


def same_report(a, b):
    """Byte for byte; where a timing key is present, byte for byte without it."""
    if a == b:
        return True
    (x, fx), (y, fy) = strip_timing(json.loads(a)), strip_timing(json.loads(b))
    return (fx or fy) and json.dumps(x) == json.dumps(y)


def strip_junit_timing(text):
    return re.sub(r' (time|timestamp)="[^"]*"', "", text)


def findings_without_place(report):
    keep = ["kind", "field", "index", "derived", "observed", "differences"]
    return collections.Counter(json.dumps([f[k] for k in keep]) for f in report["findings"])


class SparkAudit(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(BIN, os.X_OK):
            raise unittest.SkipTest(f"no provably binary at {BIN}")
        cls.dir = tempfile.mkdtemp(prefix="provably-spark-test-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def make(self, kind, size, files=1):
        epochs = flatgen.generate(kind, size, 1, BIN)
        outs, n = flatgen.write(epochs, self.path(f"{kind}.jsonl"), self.path(f"{kind}.proof.jsonl"), 1, files)
        return outs, n

    def job(self, name, inputs, *options, submit=False, partitions=8):
        canonical = self.path(f"{name}.canonical.jsonl")
        out = {"canonical": canonical, "report": self.path(f"{name}.job.json"),
               "junit": self.path(f"{name}.job.xml"), "manifest": self.path(f"{name}.manifest.json")}
        args = ["--quiet", "--provably", BIN, "--partitions", str(partitions), "--canonical", canonical,
                "--report", out["report"], "--junit", out["junit"], "--manifest", out["manifest"], *options, *inputs]
        script = os.path.join(HERE, "audit.py")
        if submit:
            cmd = [os.path.join(VENV_BIN, "spark-submit"), "--master", "local[2]", "--files", BIN,
                   "--driver-java-options", f"-Dlog4j2.configurationFile=file:{HERE}/log4j2.properties",
                   "--conf", "spark.ui.enabled=false", script, *args]
        else:
            cmd = [sys.executable, script, "--master", "local[2]", *args]
        env = dict(os.environ, SPARK_LOCAL_IP="127.0.0.1")
        if submit:
            # pip's pyspark is its own Spark home; its spark-submit finds it only through a python that has pyspark.
            import pyspark
            env.setdefault("SPARK_HOME", os.path.dirname(pyspark.__file__))
        p = run(cmd, env=env)
        out["code"], out["stdout"], out["stderr"] = p.returncode, p.stdout, p.stderr
        self.assertTrue(os.path.exists(out["report"]), f"the job wrote no report (exit {p.returncode}):\n{p.stderr[-3000:]}")
        with open(out["manifest"]) as f:
            out["parts"] = json.load(f)
        return out

    def refused(self, name, lines):
        """The job over one JSON-lines file of `lines` (bytes each) that it must refuse: (exit code, stderr)."""
        source = self.path(f"{name}.jsonl")
        with open(source, "wb") as f:
            f.write(b"".join(line + b"\n" for line in lines))
        report = self.path(f"{name}.job.json")
        p = run([sys.executable, os.path.join(HERE, "audit.py"), "--master", "local[2]", "--quiet",
                 "--provably", BIN, "--partitions", "2", "--report", report, source],
                env=dict(os.environ, SPARK_LOCAL_IP="127.0.0.1"))
        self.assertFalse(os.path.exists(report), f"a report for a refused input:\n{p.stdout}\n{p.stderr[-2000:]}")
        return p.returncode, p.stderr

    def dice_row(self, **over):
        """A dice round as a row of the flat layout, observed with its own face (derived by `provably serve`)."""
        request = {"op": "dice.roll", "serverSeed": "strict rows", "clientSeed": "c", "n": 1}
        face = flatgen.serve([request], BIN)[0]["face"]
        row = {"commit": None, "serverSeed": "strict rows", "clientSeed": "c", "op": "dice.roll",
               "params": '{"n":1}', "observed": json.dumps({"face": face})}
        row.update(over)
        return row, face

    def audit(self, name, path, *options):
        report, junit = self.path(f"{name}.audit.json"), self.path(f"{name}.audit.xml")
        p = run([BIN, "audit", "--quiet", "--report", report, "--junit", junit, *options, path])
        return {"code": p.returncode, "report": report, "junit": junit, "stdout": p.stdout}

    def assert_one_audit(self, job, audit):
        """The job's report, JUnit and exit code are one audit's over its canonical file."""
        with open(job["report"], "rb") as f:
            a = f.read()
        with open(audit["report"], "rb") as f:
            b = f.read()
        self.assertTrue(same_report(a, b), f"the merged report differs from one audit's:\n{a[:600]}\n{b[:600]}")
        with open(job["junit"]) as f:
            ja = strip_junit_timing(f.read())
        with open(audit["junit"]) as f:
            jb = strip_junit_timing(f.read())
        self.assertEqual(ja, jb, "the merged JUnit differs from one audit's")
        self.assertEqual(job["code"], audit["code"], job["stderr"][-2000:])
        # merge's text is audit's text: the same table and verdict (spark-submit
        # hands the driver's stderr on as stdout: the job's own summary line).
        text = "".join(line for line in job["stdout"].splitlines(True) if not line.startswith("spark: "))
        self.assertEqual(text, audit["stdout"])

    def assert_canonical(self, job, sources):
        with open(job["canonical"], "rb") as f:
            got = f.read()
        self.assertEqual(got, reference_canonical(sources), "the canonical file is not docs/scale.md's")

    def assert_same_rounds(self, canonical_report, proof_report):
        """The canonical proof holds the rounds generated, in another order."""
        with open(canonical_report) as f:
            c = json.load(f)
        with open(proof_report) as f:
            g = json.load(f)
        self.assertEqual({k: c[k] for k in COUNTS}, {k: g[k] for k in COUNTS})
        self.assertEqual(findings_without_place(c), findings_without_place(g))

    # ------------------------------------------------------------- the tests

    def test_mixed_archive_of_1e5_rounds_in_8_partitions_is_one_audit(self):
        sources, n = self.make("mixed", 104000, files=3)
        self.assertGreaterEqual(n, 100000)
        job = self.job("mixed", sources)
        parts = job["parts"]["partitions"]
        self.assertGreaterEqual(len(parts), 8)
        self.assertEqual(sum(p["rounds"] for p in parts), n)
        self.assert_canonical(job, sources)
        audit = self.audit("mixed", job["canonical"])
        self.assert_one_audit(job, audit)
        with open(audit["report"]) as f:
            r = json.load(f)
        # The archive holds every kind of finding, so the comparison compares them.
        kinds = {f["kind"] for f in r["findings"]}
        self.assertEqual(kinds, {"mismatch", "commit", "invalid", "skipped", "unobserved", "gap"})
        self.assertEqual(job["code"], 2)
        proof = self.audit("mixed-proof", self.path("mixed.proof.jsonl"))
        self.assert_same_rounds(audit["report"], proof["report"])

    def test_ground_dice_raise_the_alarm_after_partitioning(self):
        sources, n = self.make("ground", 1000)
        job = self.job("ground", sources, "--stats")
        self.assertGreaterEqual(len(job["parts"]["partitions"]), 8)
        self.assert_canonical(job, sources)
        audit = self.audit("ground", job["canonical"], "--stats")
        self.assert_one_audit(job, audit)
        with open(job["report"]) as f:
            r = json.load(f)
        self.assertEqual((job["code"], r["verdict"], r["statistics"]["alarm"]), (6, "match", True))
        rejected = [t["name"] for t in r["statistics"]["tests"] if t["rejected"]]
        self.assertIn("face of die n=0", rejected)
        # The same rounds in the order generated raise it too.
        proof = self.audit("ground-proof", self.path("ground.proof.jsonl"), "--stats")
        self.assertEqual(proof["code"], 6)
        self.assert_same_rounds(audit["report"], proof["report"])

    def test_bet_history_with_gaps_and_doubles_across_partitions_via_spark_submit_and_parquet(self):
        sources, n = self.make("history", 200)
        parquet = self.path("history.parquet")
        convert = ("import sys; from pyspark.sql import SparkSession; "
                   "s = SparkSession.builder.master('local[1]').config('spark.ui.enabled', 'false').getOrCreate(); "
                   "s.sparkContext.setLogLevel('ERROR'); "
                   "s.read.schema(sys.argv[1]).option('mode', 'FAILFAST').json(sys.argv[2]).repartition(3)"
                   ".write.parquet(sys.argv[3]); s.stop()")
        schema = "commit string, serverSeed string, clientSeed string, nonce bigint, op string, params string, observed string"
        p = run([sys.executable, "-c", convert, schema, sources[0], parquet])
        self.assertEqual(p.returncode, 0, p.stderr[-2000:])
        job = self.job("history", [parquet], submit=True, partitions=16)
        parts = job["parts"]["partitions"]
        self.assertGreaterEqual(len(parts), 8)
        self.assert_canonical(job, sources)
        audit = self.audit("history", job["canonical"])
        self.assert_one_audit(job, audit)
        with open(audit["report"]) as f:
            r = json.load(f)
        self.assertEqual(job["code"], 1, "a nonce bet twice is a mismatch")
        self.assertGreaterEqual(r["gaps"], 200)
        self.assertGreaterEqual(sum(f["kind"] == "mismatch" and f["field"] == "nonce" for f in r["findings"]), 200)

        # The test tests the straddling: a pair whose doubled nonce and whose
        # gap lie on both sides of a partition boundary.
        with open(job["canonical"]) as f:
            epochs = [json.loads(line) for line in f]
        doubled = gapped = 0
        for before, after in zip(parts, parts[1:]):
            seed = after["first"][0]
            if before["last"][0] != seed:
                continue
            b = after["firstEpoch"]
            left = [x["nonce"] for e in epochs[:b] if e.get("serverSeed") == seed for x in e["rounds"]]
            right = [x["nonce"] for e in epochs[b:] if e.get("serverSeed") == seed for x in e["rounds"]]
            doubled += bool(set(left) & set(right))
            every = set(left) | set(right)
            holes = [k for k in range(min(every), max(every)) if k not in every]

            def sides(k):
                return {s for s, ns in (("L", left), ("R", right)) if k in ns}

            # A run of missing nonces whose neighbours are bet on different sides.
            gapped += any(sides(h - 1) | sides(h + 1) == {"L", "R"} for h in holes)
        self.assertGreater(doubled, 0, "no doubled nonce straddles a partition boundary")
        self.assertGreater(gapped, 0, "no gap straddles a partition boundary")
        proof = self.audit("history-proof", self.path("history.proof.jsonl"))
        self.assert_same_rounds(audit["report"], proof["report"])

    def test_a_row_spark_would_read_otherwise_than_the_audit_stops_the_job(self):
        # Spark's JSON reader keeps the last of two equal keys: the wrong
        # face first and the right one last was a match, where the audit
        # calls a round with a key given twice invalid.
        row, face = self.dice_row()
        good = json.dumps(row).encode()
        head = json.dumps({k: v for k, v in row.items() if k != "observed"})[:-1]
        wrong = json.dumps({"face": face % 6 + 1})
        twice = f'{head}, "observed": {json.dumps(wrong)}, "observed": {json.dumps(row["observed"])}}}'.encode()
        # Spark's reader also takes single quotes and a number in a string
        # column (as its text), which docs/scale.md says stop the job.
        single = good.replace(b'"', b"'").replace(b"\\'", b'"')
        number = json.dumps(dict(row, clientSeed=5)).encode()
        for name, bad, why in [("twice", twice, "the key 'observed' is given twice"),
                               ("single", single, "a key (a string in double quotes) was expected"),
                               ("number", number, "clientSeed must be a string or null, not 5")]:
            code, stderr = self.refused(f"strict-{name}", [good, bad])
            self.assertEqual(code, 2, f"{name}: {stderr[-2000:]}")
            said = [line for line in stderr.splitlines() if line.startswith("error: ")]
            self.assertEqual(len(said), 1, f"{name}: {stderr[-2000:]}")
            self.assertIn("strict-" + name + ".jsonl: a row that does not fit the flat layout", said[0])
            self.assertIn(why, said[0])

    def test_a_value_past_jacksons_cap_of_20_million_characters_is_audited(self):
        # The audit takes one value up to 64 MiB (docs/proofs.md); Spark's
        # reader stopped at 20,000,000 characters. Not an observation: the
        # round is invalid, and the job says so as the audit does.
        row, _ = self.dice_row(observed=json.dumps("x" * 20_000_001))
        source = self.path("long.jsonl")
        with open(source, "w") as f:
            f.write(json.dumps(row) + "\n")
            f.write(json.dumps(self.dice_row()[0]) + "\n")
        job = self.job("long", [source], partitions=2)
        audit = self.audit("long", job["canonical"])
        self.assert_one_audit(job, audit)
        with open(audit["report"]) as f:
            r = json.load(f)
        self.assertEqual((r["rounds"], r["match"], r["invalid"]), (2, 1, 1))
        self.assertEqual([f["field"] for f in r["findings"]], ["observed"])


if __name__ == "__main__":
    result = unittest.main(verbosity=2, exit=False).result
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    passed = result.testsRun - failed - len(result.skipped)
    # The closing line CI and scripts/stage read.
    print(f"spark: {passed} passed, {failed} failed" + (f", {len(result.skipped)} skipped" if result.skipped else ""))
    sys.exit(1 if failed or not result.testsRun else 0)
