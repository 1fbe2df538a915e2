#!/usr/bin/env bash
# The audit figures in BENCHMARKS.md ("Whole proofs"):
#
#   scripts/bench-audit.sh          # build, inputs, check, hyperfine (audit vs serve), peak RSS
#   scripts/bench-audit.sh inputs   # only (re)generate the inputs
#   scripts/bench-audit.sh check    # only check the inputs (audit clean, serve agrees)
#   scripts/bench-audit.sh speed    # only the hyperfine comparison
#   scripts/bench-audit.sh memory   # only the peak-RSS runs
#
# Inputs (target/bench-audit/, deterministic): N six-deck `shoe.deal`
# requests, one server seed per shoe (seed 000 reveals a shoe's seed when
# the shoe is done), as protocol lines for `provably serve`; the same
# rounds as a JSON-lines proof and as a document (one epoch per shoe, its
# commitment, every card and the cut observed) written by `provably proof`. For memory, 10^6
# such rounds as JSON lines and as one document holding a single epoch of
# 10^6 rounds (rounds stream inside an epoch too), and that epoch under
# another server seed (every round mismatches: findings stream to disk).
#
# Needs: cargo, python3, hyperfine, /usr/bin/time (GNU time).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=target/bench-audit
P=target/release/provably
N=${N:-100000}
BIG=${BIG:-1000000}
RUNS=${RUNS:-5}
mkdir -p "$OUT"

requests() { # count, file, one seed for all (1) or one per shoe (0)
  python3 - "$@" <<'PY'
import hashlib, json, sys
n, path, shared = int(sys.argv[1]), sys.argv[2], sys.argv[3] == "1"
with open(path, "w", encoding="utf-8") as f:
    for i in range(n):
        seed = hashlib.sha256(f"bench shoe {0 if shared else i}".encode()).hexdigest()
        req = {"id": i + 1, "op": "shoe.deal", "serverSeed": seed, "clientSeed": f"player-{i % 97}",
               "nonce": i, "decks": 6, "penetration": 0.75}
        f.write(json.dumps(req, separators=(",", ":")) + "\n")
PY
}

inputs() {
  requests "$N" "$OUT/requests.jsonl" 0
  "$P" proof --requests "$OUT/requests.jsonl" --commit --lines --out "$OUT/shoes.jsonl"
  "$P" proof --requests "$OUT/requests.jsonl" --commit --out "$OUT/shoes.json"
  requests "$BIG" "$OUT/requests-big.jsonl" 0
  "$P" proof --requests "$OUT/requests-big.jsonl" --commit --lines --out "$OUT/shoes-big.jsonl"
  requests "$BIG" "$OUT/requests-one-seed.jsonl" 1
  "$P" proof --requests "$OUT/requests-one-seed.jsonl" --commit --group --out "$OUT/one-epoch-big.json"
  # The same epoch under another server seed: every round and the commitment
  # mismatch, so 2,000,001 findings go through the spool.
  sed '2s/"serverSeed":"./"serverSeed":"X/' "$OUT/one-epoch-big.json" > "$OUT/one-epoch-big-tampered.json"
  rm "$OUT/requests-big.jsonl" "$OUT/requests-one-seed.jsonl"
  ls -l "$OUT"
}

check() {
  # The proof audits clean, and serve answers every request with the cards the proof holds.
  "$P" audit --quiet "$OUT/shoes.jsonl" | tail -1
  "$P" serve < "$OUT/requests.jsonl" | head -1000 | python3 -c '
import json, sys
proof = [json.loads(l) for l, _ in zip(open(sys.argv[1]), range(1000))]
for line, epoch in zip(sys.stdin, proof):
    assert json.loads(line)["ok"] == epoch["rounds"][0]["observed"], line[:80]
print("serve and the proof agree on the first 1000 shoes")' "$OUT/shoes.jsonl"
}

speed() {
  echo "nproc $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg)"
  hyperfine --warmup 1 --runs "$RUNS" --export-markdown "$OUT/speed.md" \
    -n "audit, JSON lines" "$P audit --quiet $OUT/shoes.jsonl" \
    -n "serve" "$P serve < $OUT/requests.jsonl" \
    -n "audit, document" "$P audit --quiet $OUT/shoes.json" \
    -n "audit, JSON lines, --jobs 1" "$P audit --quiet --jobs 1 $OUT/shoes.jsonl"
  echo "load after $(cut -d' ' -f1-3 /proc/loadavg)"
}

memory() {
  for f in shoes-big.jsonl one-epoch-big.json one-epoch-big-tampered.json; do
    echo "== $f ($(du -h "$OUT/$f" | cut -f1))"
    /usr/bin/time -v "$P" audit --quiet --report "$OUT/report-$f" "$OUT/$f" 2> "$OUT/time-$f.txt" | tail -1 || true
    grep -E "Maximum resident set size|Elapsed \(wall clock\)|Percent of CPU" "$OUT/time-$f.txt"
  done
}

case "${1:-all}" in
  inputs) cargo build --release --locked --features wild; inputs ;;
  check) check ;;
  speed) speed ;;
  memory) memory ;;
  all) cargo build --release --locked --features wild; inputs; check; speed; memory ;;
  *) echo "usage: $0 [inputs|check|speed|memory]" >&2; exit 2 ;;
esac
