#!/usr/bin/env bash
# The harness against `provably serve` alone, on the same requests
# (BENCHMARKS.md, "The harness: depth, cores and memory").
#
#   scripts/bench-harness.sh [CASES...]     # default: 10000 100000
#
# For each CASES (generated cases per op, seed 1, every op), captures the
# exact bytes `provably diff` sends (a `tee` in front of the target), then
# times in one hyperfine run: `serve` reading that capture alone, and
# `diff` against `serve` with --jobs 1 and --jobs 2. Peak RSS of the diff
# process tree comes from GNU time. Needs hyperfine and /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=target/bench
mkdir -p "$OUT"
cargo build --release --locked --features wild --quiet
B=$PWD/target/release/provably
for CASES in "${@:-10000 100000}"; do
  for N in $CASES; do
    C=$OUT/captured-$N.jsonl
    "$B" diff --target-cmd "tee $PWD/$C | $B serve" --cases "$N" --seed 1 --jobs 1 --quiet > /dev/null
    RUNS=$([ "$N" -ge 100000 ] && echo 2 || echo 10)
    hyperfine -w 1 -r "$RUNS" --export-markdown "$OUT/harness-$N.md" \
      -n "serve alone ($N)" "$B serve < $C > /dev/null" \
      -n "diff --jobs 1 ($N)" "$B diff --target-cmd '$B serve' --cases $N --seed 1 --jobs 1 --quiet > /dev/null" \
      -n "diff --jobs 2 ($N)" "$B diff --target-cmd '$B serve' --cases $N --seed 1 --jobs 2 --quiet > /dev/null"
    /usr/bin/time -f "peak RSS %M KiB, $N cases per op" "$B" diff --target-cmd "$B serve" --cases "$N" --seed 1 --jobs 2 --quiet > /dev/null
  done
done
