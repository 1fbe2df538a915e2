#!/usr/bin/env bash
# Reproduces the whole-process figures in BENCHMARKS.md (and, with
# `criterion`, the per-op figures).
#
#   scripts/bench.sh              # build, generate inputs, check outputs agree, run hyperfine a-e
#   scripts/bench.sh inputs       # only (re)generate and check the inputs in target/bench/
#   scripts/bench.sh startup      # only the start-up comparison (e), then all ratios
#   scripts/bench.sh criterion    # cargo bench --bench schemes, then a median table
#   scripts/bench.sh limit        # every op as a multiple of its HMAC limit (2 compressions per HMAC)
#   BEFORE=/path/to/older/provably scripts/bench.sh before-after
#                                 # (f) an older build's `serve` and this one's side by side
#
# Needs: cargo, hyperfine (apt-get install hyperfine), node, python3, and
# .venv/bin/python with numpy (for the selfpoker deck comparison).
# Everything is written under target/bench/; inputs are deterministic
# (fixed random seed), so every run measures the same work.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=target/bench
mkdir -p "$OUT"
WARMUP=${WARMUP:-2}
RUNS=${RUNS:-10}

# `python3` may be a pyenv shim (a bash script costing tens of ms per start);
# call the interpreter it resolves to so Python is not charged for the shim.
PY=$(python3 -c 'import sys; print(sys.executable)')
VENV_PY=.venv/bin/python
PROVABLY=target/release/provably

generate() {
  "$PY" - "$OUT" <<'EOF'
"""Writes the benchmark inputs: one seeded RNG, so every run is identical."""
import json, random, sys

out = sys.argv[1]
rng = random.Random(20240611)
RANGES = [2, 6, 37, 52, 200, 312, 10_000, 2**32 + 1, 2**53 - 1]
CLIENTS = ["spieler-1", "", "MarcTestet", "a-b_c", "spieler-\u00fc"]

def hexseed():
    return "%064x" % rng.getrandbits(256)

# (b) 2,000 cursor cases: raw + float always, int for every case, a shuffle
# of 52 for every second case. referenz.py `pruefe` reads the list; the same
# cases as protocol v1 lines, in the same order, go to `provably serve`.
cases, lines = [], []
for i in range(2000):
    c = {"serverSeed": hexseed(), "clientSeed": rng.choice(CLIENTS),
         "nonce": rng.randrange(1_000_000), "cursor": rng.randrange(1000),
         "range": rng.choice(RANGES)}
    if i % 2 == 0:
        c["shuffleCount"] = 52
    cases.append(c)
    base = {k: c[k] for k in ("serverSeed", "clientSeed", "nonce", "cursor")}
    lines.append({"op": "cursor.raw", **base})
    lines.append({"op": "cursor.float", **base})
    lines.append({"op": "cursor.int", **base, "range": c["range"]})
    if "shuffleCount" in c:
        lines.append({"op": "cursor.shuffle", **base, "count": 52})
with open(f"{out}/cursor_cases.json", "w", encoding="utf-8") as f:
    json.dump(cases, f)
with open(f"{out}/cursor_requests.jsonl", "w", encoding="utf-8") as f:
    for n, req in enumerate(lines, 1):
        f.write(json.dumps({"id": n, **req}, separators=(",", ":")) + "\n")

HELLO = '{"id":0,"op":"hello","protocol":1}\n'

# (c) 2,000 selfpoker.deck requests over spread 63-bit seeds.
with open(f"{out}/deck_requests.jsonl", "w") as f:
    f.write(HELLO)
    for n in range(1, 2001):
        seed = (n * 0x9E3779B97F4A7C15) % 2**63
        f.write(json.dumps({"id": n, "op": "selfpoker.deck", "seed": str(seed)},
                           separators=(",", ":")) + "\n")

# (d) 2,000 mixed requests: shoe.deal (6 decks), cursor.shuffle 52, dice.roll in turn.
with open(f"{out}/mixed_requests.jsonl", "w", encoding="utf-8") as f:
    f.write(HELLO)
    for n in range(1, 2001):
        s, cs = hexseed(), rng.choice(CLIENTS)
        if n % 3 == 1:
            req = {"op": "shoe.deal", "serverSeed": s, "clientSeed": cs,
                   "nonce": rng.randrange(1_000_000), "decks": 6,
                   "penetration": rng.choice([0.5, 0.65, 0.75, 0.8])}
        elif n % 3 == 2:
            req = {"op": "cursor.shuffle", "serverSeed": s, "clientSeed": cs,
                   "nonce": rng.randrange(1_000_000), "cursor": 0, "count": 52}
        else:
            req = {"op": "dice.roll", "serverSeed": s, "clientSeed": cs,
                   "n": rng.randrange(1_000_000)}
        f.write(json.dumps({"id": n, **req}, separators=(",", ":")) + "\n")

# (f) before/after: 2,000 shoe.deal (6 decks) and 2,000 cursor.shuffle (52),
# from their own RNG so the inputs above stay as they were.
rng = random.Random(20261130)
with open(f"{out}/shoe_requests.jsonl", "w", encoding="utf-8") as f_shoe, \
     open(f"{out}/shuffle_requests.jsonl", "w", encoding="utf-8") as f_shuf:
    f_shoe.write(HELLO)
    f_shuf.write(HELLO)
    for n in range(1, 2001):
        f_shoe.write(json.dumps({"id": n, "op": "shoe.deal", "serverSeed": hexseed(),
                                 "clientSeed": rng.choice(CLIENTS), "nonce": rng.randrange(1_000_000),
                                 "decks": 6, "penetration": rng.choice([0.5, 0.65, 0.75, 0.8])},
                                separators=(",", ":")) + "\n")
        f_shuf.write(json.dumps({"id": n, "op": "cursor.shuffle", "serverSeed": hexseed(),
                                 "clientSeed": rng.choice(CLIENTS), "nonce": rng.randrange(1_000_000),
                                 "cursor": 0, "count": 52}, separators=(",", ":")) + "\n")
EOF
}

# Each comparison is only meaningful if both sides computed the same answers.
check() {
  echo "checking that the compared programs agree ..."
  diff -q <("$PY" reference/published/referenz.py vektoren) <("$PROVABLY" vektoren) >/dev/null \
    || { echo "a: vektoren outputs differ" >&2; exit 1; }

  "$PY" reference/published/referenz.py pruefe "$OUT/cursor_cases.json" >"$OUT/out_pruefe.json"
  "$PROVABLY" serve <"$OUT/cursor_requests.jsonl" >"$OUT/out_serve_cursor.jsonl"
  "$PY" - "$OUT" <<'EOF' || { echo "b: pruefe and serve disagree" >&2; exit 1; }
import json, sys
out = sys.argv[1]
pruefe = json.load(open(f"{out}/out_pruefe.json", encoding="utf-8"))
replies = [json.loads(l)["ok"] for l in open(f"{out}/out_serve_cursor.jsonl", encoding="utf-8")]
it = iter(replies)
for e in pruefe:
    assert next(it)["raw"] == e["raw"]
    assert repr(next(it)["float"]) == e["float"]
    r = next(it)
    assert (r["value"], r["cursorNext"]) == (e["int"], e["cursorNext"])
    if "shuffle" in e:
        r = next(it)
        assert (r["order"], r["cursorNext"]) == (e["shuffle"], e["shuffleCursorNext"])
assert next(it, None) is None
print(f"b: {len(pruefe)} cases, {len(replies)} protocol replies agree")
EOF

  "$PROVABLY" serve <"$OUT/deck_requests.jsonl" | tail -n +2 >"$OUT/out_deck_rust.jsonl"
  "$VENV_PY" reference/adapters/numpy_target.py <"$OUT/deck_requests.jsonl" | tail -n +2 >"$OUT/out_deck_numpy.jsonl"
  node reference/js/target.mjs <"$OUT/deck_requests.jsonl" | tail -n +2 >"$OUT/out_deck_js.jsonl"
  cmp -s "$OUT/out_deck_rust.jsonl" "$OUT/out_deck_numpy.jsonl" \
    && cmp -s "$OUT/out_deck_rust.jsonl" "$OUT/out_deck_js.jsonl" \
    || { echo "c: deck outputs differ" >&2; exit 1; }
  grep -c '"ok"' "$OUT/out_deck_rust.jsonl" | sed 's/^/c: identical ok replies: /'

  "$PROVABLY" serve <"$OUT/mixed_requests.jsonl" | tail -n +2 >"$OUT/out_mixed_rust.jsonl"
  node reference/js/target.mjs <"$OUT/mixed_requests.jsonl" | tail -n +2 >"$OUT/out_mixed_js.jsonl"
  cmp -s "$OUT/out_mixed_rust.jsonl" "$OUT/out_mixed_js.jsonl" \
    || { echo "d: mixed outputs differ" >&2; exit 1; }
  grep -c '"ok"' "$OUT/out_mixed_rust.jsonl" | sed 's/^/d: identical ok replies: /'
}

machine() {
  {
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "nproc: $(nproc)"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
    echo "loadavg before: $(cat /proc/loadavg)"
    echo "rustc: $(rustc --version)"
    echo "python: $("$PY" --version 2>&1) ($PY); numpy $("$VENV_PY" -c 'import numpy; print(numpy.__version__)')"
    echo "node: $(node --version)"
    echo "hyperfine: $(hyperfine --version)"
  } | tee "$OUT/machine.txt"
}

hf() { # name, then hyperfine options and commands
  local name=$1
  shift
  hyperfine --warmup "$WARMUP" --runs "$RUNS" \
    --export-markdown "$OUT/$name.md" --export-json "$OUT/$name.json" "$@"
}

whole_process() {
  # No redirection here, so no shell: provably's run is under hyperfine's
  # 5 ms shell-calibration floor.
  hf a_vektoren -N \
    -n "python referenz.py vektoren" "$PY reference/published/referenz.py vektoren" \
    -n "provably vektoren" "$PROVABLY vektoren"
  hf b_cursor_2000 \
    -n "python referenz.py pruefe" "$PY reference/published/referenz.py pruefe $OUT/cursor_cases.json" \
    -n "provably serve" "$PROVABLY serve < $OUT/cursor_requests.jsonl"
  hf c_deck_2000 \
    -n "numpy target" "$VENV_PY reference/adapters/numpy_target.py < $OUT/deck_requests.jsonl" \
    -n "provably serve" "$PROVABLY serve < $OUT/deck_requests.jsonl" \
    -n "node target.mjs" "node reference/js/target.mjs < $OUT/deck_requests.jsonl"
  hf d_mixed_2000 \
    -n "node target.mjs" "node reference/js/target.mjs < $OUT/mixed_requests.jsonl" \
    -n "provably serve" "$PROVABLY serve < $OUT/mixed_requests.jsonl"
  startup
  echo "loadavg after: $(cat /proc/loadavg)" | tee -a "$OUT/machine.txt"
  ratios
}

# Start-up cost alone (one hello line), to split (c) into start-up and per-request time.
startup() {
  printf '%s\n' '{"id":0,"op":"hello","protocol":1}' >"$OUT/hello.jsonl"
  hf e_startup_hello \
    -n "numpy target" "$VENV_PY reference/adapters/numpy_target.py < $OUT/hello.jsonl" \
    -n "provably serve" "$PROVABLY serve < $OUT/hello.jsonl" \
    -n "node target.mjs" "node reference/js/target.mjs < $OUT/hello.jsonl"
}

# (f) The same `serve` inputs through an older build ($BEFORE) and this one,
# in one hyperfine invocation. The two must answer byte for byte alike.
before_after() {
  [ -x "${BEFORE:-}" ] || { echo "set BEFORE=/path/to/older/provably" >&2; exit 2; }
  for input in shoe shuffle; do
    cmp -s <("$BEFORE" serve <"$OUT/${input}_requests.jsonl") <("$PROVABLY" serve <"$OUT/${input}_requests.jsonl") \
      || { echo "f: $input replies differ between the builds" >&2; exit 1; }
    echo "f: $input: identical replies from both builds"
  done
  echo "loadavg before: $(cat /proc/loadavg)"
  hyperfine --warmup "$WARMUP" --runs "${RUNS_F:-20}" \
    --export-markdown "$OUT/f_before_after.md" --export-json "$OUT/f_before_after.json" \
    -n "before: shoe.deal x2000" "$BEFORE serve < $OUT/shoe_requests.jsonl" \
    -n "after: shoe.deal x2000" "$PROVABLY serve < $OUT/shoe_requests.jsonl" \
    -n "before: cursor.shuffle x2000" "$BEFORE serve < $OUT/shuffle_requests.jsonl" \
    -n "after: cursor.shuffle x2000" "$PROVABLY serve < $OUT/shuffle_requests.jsonl"
  echo "loadavg after: $(cat /proc/loadavg)"
  # Before/after ratio per input: of mean wall time and of mean CPU (user + system).
  jq -r '.results as $r | (0, 2) as $i
    | "\($r[$i + 1].command | sub("after: "; "")): before \($r[$i].mean * 100000 | round / 100) ms, after \($r[$i + 1].mean * 100000 | round / 100) ms; wall \($r[$i].mean / $r[$i + 1].mean * 100 | round / 100)x, cpu \(($r[$i].user + $r[$i].system) / ($r[$i + 1].user + $r[$i + 1].system) * 100 | round / 100)x"' \
    "$OUT/f_before_after.json" | tee "$OUT/f_ratios.txt"
}

ratios() {
  # Ratios to the fastest command of each comparison: of mean wall time, and
  # of mean CPU time (user + system), which other load on a shared machine
  # disturbs less than wall time.
  for f in "$OUT"/[a-e]_*.json; do
    echo "== $(basename "$f" .json)"
    jq -r '(.results | map(.mean) | min) as $m | (.results | map(.user + .system) | min) as $c
      | .results[]
      | "\(.command): wall mean \(.mean * 100000 | round / 100) ms (median \(.median * 100000 | round / 100)), \(.mean / $m * 100 | round / 100)x; cpu \((.user + .system) * 100000 | round / 100) ms, \((.user + .system) / $c * 100 | round / 100)x"' "$f"
  done | tee "$OUT/ratios.txt"
}

criterion_table() {
  touch "$OUT/criterion.start"
  echo "loadavg before: $(cat /proc/loadavg)"
  cargo bench --bench schemes 2>&1 | tee "$OUT/criterion.txt" | grep -E 'time:' -B1 | grep -v -- '--' || true
  echo "loadavg after: $(cat /proc/loadavg)"
  # Median and mean point estimates of every benchmark of this run, in ns.
  find target/criterion -path '*/new/estimates.json' -newer "$OUT/criterion.start" | sort | while read -r f; do
    id=$(jq -r '.full_id // empty' "${f%estimates.json}benchmark.json" 2>/dev/null || true)
    [ -n "$id" ] || id=${f#target/criterion/}
    jq -r --arg id "$id" '"\($id)\tmedian_ns=\(.median.point_estimate | . * 10 | round / 10)\tmean_ns=\(.mean.point_estimate | . * 10 | round / 10)"' "$f"
  done | tee "$OUT/criterion_medians.tsv"
}

# Every op against the physical limit: `cargo bench --bench schemes -- limit`
# times one SHA-256 compression (sha2::compress256) and each op through the
# op table with its key state cached; an op's limit is 2 compressions per
# HMAC it needs (the name carries the count). OpenSSL's rate is printed
# beside it as the outside yardstick.
limit_table() {
  openssl speed -evp sha256 -seconds 3 -bytes 8192 2>/dev/null | tail -1 | tee "$OUT/openssl_sha256.txt"
  cargo bench --locked --bench schemes -- limit
  local c
  c=$(jq '.median.point_estimate' target/criterion/limit/sha256_compress/new/estimates.json)
  printf 'op\tmedian_ns\thmacs\tlimit_ns\tratio\n' | tee "$OUT/limit.tsv"
  for d in target/criterion/limit/*_hmacs; do
    local name=${d##*/} m h
    h=${name%_hmacs}; h=${h##*/}; h=${h##*_}
    m=$(jq '.median.point_estimate' "$d/new/estimates.json")
    awk -v n="${name%_*_hmacs}" -v m="$m" -v h="$h" -v c="$c" \
      'BEGIN { printf "%s\t%.1f\t%d\t%.1f\t%.2f\n", n, m, h, 2*h*c, m/(2*h*c) }'
  done | tee -a "$OUT/limit.tsv"
  echo "one compression (sha2::compress256): $c ns"
}

case "${1:-all}" in
  inputs)
    cargo build --release
    generate
    check
    ;;
  criterion)
    criterion_table
    ;;
  limit)
    limit_table
    ;;
  before-after)
    cargo build --release
    generate
    before_after
    ;;
  startup)
    cargo build --release
    startup
    ratios
    ;;
  all)
    command -v hyperfine >/dev/null || { echo "hyperfine missing: apt-get install -y hyperfine" >&2; exit 1; }
    cargo build --release
    generate
    check
    machine
    whole_process
    ;;
  *)
    echo "usage: $0 [all|inputs|startup|criterion|limit|before-after]" >&2
    exit 2
    ;;
esac
