#!/usr/bin/env python3
"""The proof audit on Apache Spark (docs/scale.md).

    spark-submit --files provably harness/spark/audit.py --provably provably [options] INPUT...
    python harness/spark/audit.py --master local[2] --provably PATH [options] INPUT...

Reads rounds in the flat layout of docs/scale.md (JSON lines or Parquet, one
round per row), builds the canonical proof (one epoch per commit and secret,
its rounds in a fixed order, the epochs sorted), cuts it into range partitions
of whole epochs, audits each partition with `provably audit --partial` on the
executors, and merges the partials on the driver with `provably merge`, whose
report and exit code are the job's: the same as one `provably audit` over the
canonical file (written with --canonical).

Only the standard library and pyspark: under spark-submit the driver may be
any python3, with pyspark on its path from spark-submit itself.
"""

import argparse
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time

# The flat layout (docs/scale.md, "The flat layout"): the column, its Spark type.
COLUMNS = [
    ("commit", "string"),
    ("serverSeed", "string"),
    ("seed", "string"),
    ("clientSeed", "string"),
    ("nonce", "bigint"),
    ("op", "string"),
    ("params", "string"),
    ("observed", "string"),
]
TYPES = dict(COLUMNS)
EPOCH_KEY = ["serverSeed", "seed", "commit"]
# Within an epoch: the nonce, the client seed, then the rest of the row, so the
# order is total (rows equal in all of these give the same round text).
ROUND_KEY = ["nonce", "clientSeed", "op", "params", "observed"]

# The codes of `provably` (README.md, "Exit codes") that the job gives itself.
USAGE = 2
OUTPUT_FAILED = 5


class JobError(Exception):
    """A failure before the merge: the message, and the exit code."""

    def __init__(self, message, code=USAGE):
        super().__init__(message)
        self.code = code


# ------------------------------------------------------------ reading the rows

# JSON's white space (RFC 8259): the only characters a row may hold around
# its tokens, and all a blank line holds (docs/proofs.md's blank lines).
JSON_SPACE = " \t\r\n"
# A surrogate code point left in a decoded string: Python pairs the halves
# of an escaped pair, so only a lone one is left ("\ud800", which no UTF-8
# text can hold and the audit refuses).
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
INT64 = (-(1 << 63), (1 << 63) - 1)


class RowError(RuntimeError):
    """A JSON-lines row that does not fit the flat layout: the job stops (exit 2)."""


def _no_constants(name):
    # Python's json takes NaN and Infinity; a proof does not, so such text is not JSON here either.
    raise ValueError(f"{name} is no JSON number")


def _twice(pairs):
    seen = set()
    for key, _ in pairs:
        if key in seen:
            raise ValueError(f"the key {key!r} is given twice")
        seen.add(key)
    return dict(pairs)


def strict_decoder():
    """Strict JSON: a key given twice at any depth, NaN and Infinity are
    refused (Spark's reader keeps the last of two keys and takes NaN). Made
    where it reads (a decoder does not pickle)."""
    return json.JSONDecoder(object_pairs_hook=_twice, parse_constant=_no_constants)


def _space(text, at):
    while at < len(text) and text[at] in JSON_SPACE:
        at += 1
    return at


def _members(text, decoder):
    """The members of the JSON object `text`, in order: (key, value, the value's text)."""
    at = _space(text, 0)
    if text[at:at + 1] != "{":
        raise ValueError("it is not a JSON object")
    at = _space(text, at + 1)
    end = at + 1
    if text[at:at + 1] != "}":
        while True:
            if text[at:at + 1] != '"':
                raise ValueError(f"a key (a string in double quotes) was expected at character {at}")
            key, at = json.decoder.scanstring(text, at + 1)
            at = _space(text, at)
            if text[at:at + 1] != ":":
                raise ValueError(f"':' was expected at character {at}")
            start = _space(text, at + 1)
            value, end = decoder.raw_decode(text, start)
            yield key, value, text[start:end]
            at = _space(text, end)
            if text[at:at + 1] == ",":
                at = _space(text, at + 1)
                continue
            if text[at:at + 1] != "}":
                raise ValueError(f"',' or '}}' was expected at character {at}")
            end = at + 1
            break
    if _space(text, end) != len(text):
        raise ValueError(f"text follows the object at character {end}")


def _column(name, kind, value, text):
    """A member's value as its column holds it, or ValueError naming the column."""
    if value is None:
        return None
    if kind == "bigint":
        # bool is an int to Python; `-0` is no integer (docs/protocol.md), `1.0` neither.
        if type(value) is int and text != "-0" and INT64[0] <= value <= INT64[1]:
            return value
        raise ValueError(f"{name} must be an integer (64-bit) or null, not {text[:40]}")
    if isinstance(value, str):
        if LONE_SURROGATE.search(value):
            raise ValueError(f"{name} holds a lone surrogate escape: no Unicode text")
        return value
    if name in ("params", "observed") and isinstance(value, (dict, list)):
        # JSON given itself instead of as a string: its text as written.
        return text
    raise ValueError(f"{name} must be a string or null, not {text[:40]}")


def flat_row(source, raw, decoder):
    """One JSON line (bytes) as a row of the flat layout, in COLUMNS order;
    None for a blank line; RowError for a row that does not fit."""
    def refuse(why, text):
        excerpt = text[:80] + ("…" if len(text) > 80 else "")
        return RowError(f"{source}: a row that does not fit the flat layout (docs/scale.md): {why}: {excerpt!r}")

    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise refuse(f"it is not UTF-8 ({e.reason} at byte {e.start})", raw.decode("utf-8", "replace")) from None
    if not text.strip(JSON_SPACE):
        return None
    row, seen = {}, set()
    try:
        for key, value, text_of in _members(text, decoder):
            if key in seen:
                raise ValueError(f"the key {key!r} is given twice")
            seen.add(key)
            kind = TYPES.get(key)
            if kind is not None:
                row[key] = _column(key, kind, value, text_of)
    except (ValueError, RecursionError) as e:
        raise refuse(str(e) or type(e).__name__, text) from None
    return tuple(row.get(c) for c, _ in COLUMNS)


def flat_rows(source, lines):
    """The rows of a partition's JSON lines (`source` the input they come from)."""
    decoder = strict_decoder()
    for raw in lines:
        row = flat_row(source, raw, decoder)
        if row is not None:
            yield row


# ------------------------------------------------------------ the canonical text


def jstr(value):
    return json.dumps(value, ensure_ascii=False)


def json_text(text):
    """The value of `text` if it is one JSON value, with its line breaks made
    spaces (valid JSON has them only between tokens, where any white space
    means the same), else None."""
    try:
        value = json.loads(text, parse_constant=_no_constants)
    except (ValueError, RecursionError):
        return None, None
    return value, text.replace("\r", " ").replace("\n", " ").strip()


def round_text(op, client_seed, nonce, params, observed):
    """One round of the canonical proof from one row of the flat layout.

    `params` holds the op's other request fields as the text of one JSON
    object; its members are written as they are (numbers keep their text),
    so a field given twice stays twice and the audit says so. Text that is
    not one JSON object is kept as the string `params`, a key no op takes: an
    invalid round, never a broken line. `observed` likewise: one JSON value
    as written, else its text as a string (an invalid observation)."""
    parts = ['"op":' + jstr(op)]
    if client_seed is not None:
        parts.append('"clientSeed":' + jstr(client_seed))
    if nonce is not None:
        parts.append('"nonce":' + str(int(nonce)))
    if params is not None:
        value, text = json_text(params)
        if isinstance(value, dict):
            inner = text[1:-1].strip()
            if inner:
                parts.append(inner)
        else:
            parts.append('"params":' + jstr(params))
    if observed is not None:
        value, text = json_text(observed)
        parts.append('"observed":' + (text if text is not None else jstr(observed)))
    return "{" + ",".join(parts) + "}"


def epoch_text(commit, server_seed, seed, rounds):
    head = '{"commit":' + (jstr(commit) if commit is not None else "null")
    if server_seed is not None:
        head += ',"serverSeed":' + jstr(server_seed)
    if seed is not None:
        head += ',"seed":' + jstr(seed)
    return head + ',"rounds":[' + ",".join(rounds) + "]}"


def sort_key(server_seed, seed, commit):
    """The epoch order as Python compares it: nulls first, then the text
    (code points compare as UTF-8 bytes do, Spark's order)."""
    return tuple((v is not None, v or "") for v in (server_seed, seed, commit))


def epochs_of(rows):
    """A partition's sorted rows as epochs: (server seed, seed, commit, rounds, line)."""
    key, rounds = None, []
    for r in rows:
        k = (r["serverSeed"], r["seed"], r["commit"])
        if k != key:
            if key is not None:
                yield key + (len(rounds), epoch_text(key[2], key[0], key[1], rounds))
            key, rounds = k, []
        rounds.append(round_text(r["op"], r["clientSeed"], r["nonce"], r["params"], r["observed"]))
    if key is not None:
        yield key + (len(rounds), epoch_text(key[2], key[0], key[1], rounds))


# ------------------------------------------------------------ executors


def executable(name):
    """The binary shipped with addFile/--files, as an executable path."""
    from pyspark import SparkFiles

    path = SparkFiles.get(name)
    if not os.access(path, os.X_OK):
        # Some file systems drop the mode: a private copy with it.
        copy = os.path.join(tempfile.mkdtemp(prefix="provably-bin-"), name)
        shutil.copyfile(path, copy)
        os.chmod(copy, os.stat(copy).st_mode | stat.S_IXUSR)
        path = copy
    return path


def audit_partition(bin_name, options, name, offsets, index, epochs):
    """Pipes one partition's epochs through `provably audit --partial`."""
    if index not in offsets:
        # No epochs in pass 1: nothing to audit (an empty part would claim an offset).
        for _ in epochs:
            raise RuntimeError(f"partition {index}: epochs appeared after the count")
        return
    first, expected = offsets[index]
    binary = executable(bin_name)
    work = tempfile.mkdtemp(prefix=f"provably-part-{index}-")
    partial = os.path.join(work, "partial")
    cmd = [binary, "audit", *options, "--partial", partial, "--part-of", name,
           "--first-epoch", str(first), "--first-line", str(first), "-"]
    started = time.monotonic()
    try:
        with open(os.path.join(work, "out"), "wb") as out, open(os.path.join(work, "err"), "wb") as err:
            proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=out, stderr=err)
            count = 0
            try:
                for e in epochs:
                    proc.stdin.write(e[4].encode("utf-8"))
                    proc.stdin.write(b"\n")
                    count += 1
                proc.stdin.close()
            except BrokenPipeError:
                pass
            code = proc.wait()
        with open(os.path.join(work, "err"), "rb") as f:
            stderr = f.read().decode("utf-8", "replace")
        if code != 0:
            raise RuntimeError(f"partition {index}: {' '.join(cmd)} exited {code}: {stderr.strip()}")
        if count != expected:
            raise RuntimeError(f"partition {index}: {count} epochs, the count said {expected}")
        with open(partial, "rb") as f:
            data = f.read()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    yield index, data, time.monotonic() - started


def count_partition(index, epochs):
    n = rounds = 0
    first = last = None
    for e in epochs:
        if first is None:
            first = e[:3]
        last = e[:3]
        n += 1
        rounds += e[3]
    yield index, n, rounds, first, last


# ------------------------------------------------------------ driver


def read_rows(spark, inputs, fmt):
    from pyspark.sql import functions as F

    schema = ", ".join(f"`{c}` {t}" for c, t in COLUMNS)
    if fmt == "json":
        # Each line read strictly here, not by Spark's JSON reader, which
        # keeps the last of two equal keys, takes single quotes, NaN and a
        # number for a string column, and refuses a value longer than
        # 20,000,000 characters (Jackson's cap) that the audit takes: a
        # row that does not fit the layout stops the job (exit 2) instead
        # of becoming another round. The lines come as bytes, so text that
        # is not UTF-8 is refused, not replaced.
        sc = spark.sparkContext
        rows = sc.union([sc.textFile(p, use_unicode=False).mapPartitions(lambda lines, p=p: flat_rows(p, lines))
                         for p in inputs])
        return spark.createDataFrame(rows, schema)
    df = spark.read.parquet(*inputs)
    types = dict(df.dtypes)
    cols = []
    for c, t in COLUMNS:
        if c not in types:
            cols.append(F.lit(None).cast(t).alias(c))
            continue
        have = types[c]
        ok = have in ("bigint", "int", "smallint", "tinyint") if t == "bigint" else have == "string"
        if not ok:
            raise JobError(f"column {c} is {have}; the flat layout has it as {t} (docs/scale.md)")
        cols.append(F.col(c).cast(t).alias(c))
    return df.select(*cols)


def detect_format(inputs):
    for p in inputs:
        if p.endswith(".parquet") or (os.path.isdir(p) and any(n.endswith(".parquet") for n in os.listdir(p))):
            return "parquet"
    return "json"


def build(spark, args):
    """The canonical epochs, range-partitioned and sorted: an RDD of
    (server seed, seed, commit, rounds, line), persisted."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    rows = read_rows(spark, args.inputs, args.format or detect_format(args.inputs))
    epoch_order = [F.col(c).asc_nulls_first() for c in EPOCH_KEY]
    sorted_rows = rows.repartitionByRange(args.partitions, *epoch_order).sortWithinPartitions(
        *epoch_order, *[F.col(c).asc_nulls_first() for c in ROUND_KEY]
    )
    epochs = sorted_rows.rdd.mapPartitions(epochs_of, preservesPartitioning=True)
    return epochs.persist(StorageLevel.MEMORY_AND_DISK)


def plan(counts):
    """Offsets from the count pass: partition → (first epoch, epochs); checks
    that the partitions are ranges in the epoch order."""
    offsets, parts, total, previous = {}, [], 0, None
    for index, n, rounds, first, last in sorted(counts):
        if n == 0:
            continue
        if previous is not None and not sort_key(*previous) < sort_key(*first):
            raise JobError(f"partition {index} does not follow the one before it in epoch order")
        offsets[index] = (total, n)
        parts.append({"partition": index, "firstEpoch": total, "epochs": n, "rounds": rounds,
                      "first": list(first), "last": list(last)})
        total += n
        previous = last
    return offsets, parts, total


def write_canonical(epochs, path):
    """The canonical JSON lines, partition after partition (for comparison runs:
    the whole proof passes through the driver)."""
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "wb") as f:
        for e in epochs.toLocalIterator():
            f.write(e[4].encode("utf-8"))
            f.write(b"\n")
    os.replace(tmp, path)


def run(spark, args):
    """The job on an existing session; returns the exit code (merge's)."""
    sc = spark.sparkContext
    # Spark ships a symlink under its target's name: ship and call the target.
    binary = os.path.realpath(args.provably)
    if not os.access(binary, os.X_OK):
        raise JobError(f"--provably {args.provably}: no such executable")
    bin_name = os.path.basename(binary)
    shipped = [os.path.basename(os.path.realpath(f.removeprefix("file:")))
               for f in (sc.getConf().get("spark.files", "") or "").split(",") if f]
    if bin_name not in shipped:
        sc.addFile(binary)
    name = args.name or args.canonical or ",".join(args.inputs)
    options = ["--quiet", "--jobs", sc.getConf().get("spark.task.cpus", "1")]
    merge_options = []
    if args.stats:
        options.append("--stats")
        merge_options.append("--stats")
    if args.stats_level is not None:
        options += ["--stats-level", args.stats_level]
        merge_options += ["--stats-level", args.stats_level]

    timings = {}
    started = time.monotonic()
    epochs = build(spark, args)
    offsets, parts, total = plan(epochs.mapPartitionsWithIndex(count_partition).collect())
    timings["readSortCount"] = time.monotonic() - started
    if not parts:
        raise JobError("no rounds in the input")

    started = time.monotonic()
    results = epochs.mapPartitionsWithIndex(
        lambda i, it: audit_partition(bin_name, options, name, offsets, i, it)
    ).collect()
    timings["audit"] = time.monotonic() - started
    if sorted(r[0] for r in results) != sorted(offsets):
        raise JobError("a partition's partial is missing")

    code = 0
    if args.canonical:
        started = time.monotonic()
        try:
            write_canonical(epochs, args.canonical)
        except OSError as e:
            print(f"--canonical {args.canonical}: {e}", file=sys.stderr)
            code = OUTPUT_FAILED
        timings["canonical"] = time.monotonic() - started
    epochs.unpersist()

    keep = args.partials
    work = keep or tempfile.mkdtemp(prefix="provably-partials-")
    os.makedirs(work, exist_ok=True)
    try:
        files = []
        seconds = {}
        for index, data, took in results:
            path = os.path.join(work, f"part-{index:05d}.partial")
            with open(path, "wb") as f:
                f.write(data)
            files.append(path)
            seconds[index] = took
        for p in parts:
            p["auditSeconds"] = round(seconds[p["partition"]], 3)
            p["partial"] = os.path.join(work, f"part-{p['partition']:05d}.partial")
        cmd = [binary, "merge", *merge_options]
        if args.quiet:
            cmd.append("--quiet")
        if args.report:
            cmd += ["--report", args.report]
        if args.junit:
            cmd += ["--junit", args.junit]
        started = time.monotonic()
        sys.stdout.flush()
        merged = subprocess.run(cmd + sorted(files)).returncode
        timings["merge"] = time.monotonic() - started
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)

    if args.manifest:
        with open(args.manifest, "w") as f:
            json.dump({"name": name, "epochs": total, "rounds": sum(p["rounds"] for p in parts),
                       "partitions": parts, "seconds": {k: round(v, 3) for k, v in timings.items()},
                       "merge": merged}, f, indent=1)
            f.write("\n")
    rounds = sum(p["rounds"] for p in parts)
    print(f"spark: {rounds} rounds, {total} epochs in {len(parts)} partitions; "
          + ", ".join(f"{k} {v:.1f} s" for k, v in timings.items()), file=sys.stderr)
    # A mismatch or invalid input (1, 2) comes before an output that failed (5).
    return merged if merged not in (0, 6) or code == 0 else code


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="provably audit on Spark: the flat layout's rounds, audited in partitions and merged "
        "(docs/scale.md); the exit code is `provably merge`'s")
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="JSON lines or Parquet in the flat layout")
    p.add_argument("--master", help="the Spark master when not run by spark-submit (e.g. local[2])")
    p.add_argument("--format", choices=["json", "parquet"], help="default: Parquet for *.parquet or a directory of them")
    p.add_argument("--provably", default=os.environ.get("PROVABLY_BIN") or shutil.which("provably"),
                   help="the provably binary, shipped to the executors (default: $PROVABLY_BIN, else on PATH)")
    p.add_argument("--partitions", type=int, default=None,
                   help="range partitions of the sorted epochs (default: 8, or 4 per core when more)")
    p.add_argument("--stats", action="store_true", help="the seed-grinding statistics (docs/statistics.md)")
    p.add_argument("--stats-level", help="their family-wise level (default: provably's)")
    p.add_argument("--report", help="the merged report (JSON)")
    p.add_argument("--junit", help="the merged JUnit XML")
    p.add_argument("--quiet", action="store_true", help="merge's table and verdict only")
    p.add_argument("--name", help="the source's name in the report (default: --canonical, else the inputs)")
    p.add_argument("--canonical", help="also write the canonical JSON-lines proof to this file (through the driver)")
    p.add_argument("--partials", help="keep the partials in this directory")
    p.add_argument("--manifest", help="write the partitions (offsets, epoch ranges, timings) as JSON")
    args = p.parse_args(argv)
    if not args.provably:
        p.error("no provably binary: give --provably or set PROVABLY_BIN")
    if args.partitions is not None and args.partitions < 1:
        p.error("--partitions must be at least 1")
    return args


def session(args):
    from pyspark.sql import SparkSession

    # The executors' Python is this one unless told otherwise (a plain
    # `python audit.py` run has pyspark only in its own environment).
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = SparkSession.builder.appName("provably-audit")
    if args.master:
        builder = builder.master(args.master)
        if args.master.startswith("local"):
            # One machine: nothing to reach but itself.
            os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
        # The JVM starts here (not under spark-submit): quiet from its first line.
        log4j = os.path.join(os.path.dirname(os.path.abspath(__file__)), "log4j2.properties")
        builder = builder.config("spark.driver.extraJavaOptions", f"-Dlog4j2.configurationFile=file:{log4j}")
    builder = (builder.config("spark.ui.enabled", "false")
               .config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", str(args.partitions or 8)))
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    return spark


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    spark = session(args)
    try:
        if args.partitions is None:
            args.partitions = max(8, 4 * spark.sparkContext.defaultParallelism)
        return run(spark, args)
    except JobError as e:
        print(f"error: {e}", file=sys.stderr)
        return e.code
    except Exception as e:  # a Spark failure: the input unreadable, a row refused, a partition's audit failed
        text = str(e).strip().splitlines()
        # A row refused on an executor (RowError) is the whole story: say it alone.
        refused = [line.split("RowError: ", 1)[1] for line in text if "RowError: " in line]
        if refused:
            print(f"error: {refused[0]}", file=sys.stderr)
            return USAGE
        print("error: the Spark job failed: " + (text[0] if text else type(e).__name__), file=sys.stderr)
        for line in text[1:40]:
            if "RuntimeError" in line or "Exception:" in line:
                print("  " + line.strip(), file=sys.stderr)
        return USAGE
    finally:
        spark.stop()


if __name__ == "__main__":
    sys.exit(main())
