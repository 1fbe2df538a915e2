#!/usr/bin/env bash
# `provably serve` against the cost of its hashes, on a mix of every op
# (BENCHMARKS.md; the goal is withdrawn, the figure kept):
#
#   scripts/bench-mix.sh [CASES]     # generated cases per op, default 10000
#
# The requests are the exact bytes `provably diff --seed 1` sends for every
# op (vectors, generated cases, every eighth a negative one), captured by a
# `tee` in front of the target, then split by op. A build with
# `--features count-compressions` counts the SHA-256 compressions `serve`
# does on each file (keying included); the limit of a file is that count
# times one compression's time from `openssl speed -evp sha256` (16 KiB
# blocks: its rate in bytes / 64). One hyperfine run times `serve` on the
# whole mix and on each op's file. Needs hyperfine, jq, openssl.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-10000}
OUT=target/bench/mix
mkdir -p "$OUT"
cargo build --release --locked --features wild,count-compressions --quiet
cp target/release/provably "$OUT/provably-count"
cargo build --release --locked --features wild --quiet
B=$PWD/target/release/provably
"$B" diff --target-cmd "tee $PWD/$OUT/all.jsonl | $B serve" --cases "$N" --seed 1 --jobs 1 --quiet > /dev/null || true
python3 - "$OUT" <<'PY'
import json, os, sys
out = sys.argv[1]
files = {}
for line in open(os.path.join(out, "all.jsonl"), "rb"):
    try:
        op = json.loads(line).get("op")
    except ValueError:
        op = None
    name = op if isinstance(op, str) and op.replace(".", "").isalnum() else "_no_op"
    if name not in files:
        files[name] = open(os.path.join(out, f"op-{name}.jsonl"), "wb")
    files[name].write(line)
PY
count() { "$OUT/provably-count" serve < "$1" 2>&1 > /dev/null | sed -n 's/^sha-256 compressions: //p'; }
RATE=$(openssl speed -evp sha256 -bytes 16384 -seconds 3 2>/dev/null | awk '/^sha256/ {sub("k", "", $2); print $2 * 1000}')
NS=$(awk -v r="$RATE" 'BEGIN { printf "%.2f", 64e9 / r }')
echo "openssl sha256 16 KiB: $RATE B/s, $NS ns a compression; nproc $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg)"
args=(-n "every op" "$B serve < $OUT/all.jsonl > /dev/null")
for f in "$OUT"/op-*.jsonl; do
  op=${f#"$OUT"/op-}
  args+=(-n "${op%.jsonl}" "$B serve < $f > /dev/null")
done
hyperfine --warmup 1 --runs "${RUNS:-5}" --export-json "$OUT/mix.json" "${args[@]}" > /dev/null
printf '| %s | %s | %s | %s | %s | %s |\n|---|---:|---:|---:|---:|---:|\n' op requests compressions "limit ms" "serve ms" "x limit"
jq -r '.results[] | "\(.command)\t\(.mean * 1000)"' "$OUT/mix.json" | while IFS=$'\t' read -r name ms; do
  f=$OUT/all.jsonl
  [ "$name" = "every op" ] || f=$OUT/op-$name.jsonl
  c=$(count "$f")
  awk -v n="$name" -v r="$(wc -l < "$f")" -v c="$c" -v ns="$NS" -v ms="$ms" 'BEGIN {
    lim = c * ns / 1e6
    printf "| `%s` | %d | %d | %.1f | %.1f | %s |\n", n, r, c, lim, ms, (c > 0 ? sprintf("%.2f", ms / lim) : "no hash")
  }'
done
echo "load after $(cut -d' ' -f1-3 /proc/loadavg)"
