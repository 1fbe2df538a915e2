#!/usr/bin/env bash
# The four ratios ("near the limit"), measured in one run on
# this machine (make bench ends with them; BENCHMARKS.md, "Today's figures against
# their goals"):
#
#   scripts/bench-ratios.sh            # all four
#   RUNS=10 scripts/bench-ratios.sh    # hyperfine runs per command (default 5)
#
# 1. `serve` on 20,000 `cursor.shuffle` of 312 against the HMAC limit: two
#    SHA-256 compressions per MAC (the MACs are the answers' cursorNext),
#    at the compression rate `openssl speed -evp sha256` gives for 16 KiB
#    blocks (64 bytes a compression), measured just before; then `serve`
#    on a mix of every op (the requests of part 2) against the compressions
#    a counting build does on them (scripts/bench-mix.sh, table per op in
#    target/bench-ratios/mix.log).
# 2. `diff --jobs 2` against `serve` over `serve` alone on the same requests
#    (CASES generated cases per op, seed 1, every op; default 10,000).
# 3. `audit` of the shoe archive (200 epochs x 100 six-deck shoes) in four
#    shapes (as `provably proof` writes it, the cards alone, keys in reverse
#    order, json.dumps(indent=2)) over `serve` on the same rounds, wall time
#    and CPU (scripts/bench-audit.sh shapes).
# 4. The page at 4x CPU throttle, a 10,000-round proof from a link and from
#    a file (scripts/bench-stall.mjs): the longest main-thread task over the
#    100 ms goal.
#
# Needs what the scripts it calls need: cargo, hyperfine, jq, openssl,
# python3, node with the npm packages, chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=target/bench-ratios
mkdir -p "$OUT"
RUNS=${RUNS:-5}
CASES=${CASES:-10000}
cargo build --release --locked --features wild --quiet
B=$PWD/target/release/provably
echo "nproc $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg), commit $(git rev-parse --short HEAD)"

mean() { jq '.results[0].mean' "$1"; }

# 1. serve against the HMAC limit.
python3 - "$OUT/shuffle312.jsonl" <<'PY'
import random, sys
rng = random.Random(1)
with open(sys.argv[1], "w") as f:
    f.write('{"id":0,"op":"hello","protocol":1}\n')
    for i in range(1, 20001):
        f.write('{"id":%d,"op":"cursor.shuffle","serverSeed":"%064x","clientSeed":"spieler-1","nonce":%d,"cursor":0,"count":312}\n'
                % (i, rng.getrandbits(256), rng.randrange(10**6)))
PY
macs=$("$B" serve < "$OUT/shuffle312.jsonl" | grep -o '"cursorNext":[0-9]*' | awk -F: '{s += $2} END {print s}')
bytes=$(openssl speed -evp sha256 -bytes 16384 -seconds 3 2>/dev/null | awk '/^sha256/ {sub(/k$/, "", $2); print $2 * 1000}')
hyperfine --warmup 2 --runs "$RUNS" --export-json "$OUT/serve.json" "$B serve < $OUT/shuffle312.jsonl > /dev/null" >/dev/null
serve=$(mean "$OUT/serve.json")
awk -v s="$serve" -v m="$macs" -v b="$bytes" 'BEGIN {
  c = 64 / b; limit = 2 * m * c
  printf "1. serve, 20,000 cursor.shuffle of 312: %.1f ms; %d MACs x 2 compressions x %.1f ns (openssl) = %.1f ms: %.2fx the limit (goal 1.25)\n", s * 1000, m, c * 1e9, limit * 1000, s / limit }'

RUNS=$RUNS scripts/bench-mix.sh "$CASES" > "$OUT/mix.log" 2>&1
awk -F' *[|] *' '$2 == "`every op`" { printf "1. serve, every op (%s requests of diff --seed 1 --cases %s): %s ms; %s compressions = %s ms: %sx the limit (a measurement: its goal is withdrawn)\n", $3, "'"$CASES"'", $6, $4, $5, $7 }' "$OUT/mix.log"

# 2. the harness over its target.
C=$OUT/captured-$CASES.jsonl
"$B" diff --target-cmd "tee $PWD/$C | $B serve" --cases "$CASES" --seed 1 --jobs 1 --quiet > /dev/null
hyperfine --warmup 1 --runs "$RUNS" --export-json "$OUT/harness.json" \
  -n serve "$B serve < $C > /dev/null" \
  -n diff "$B diff --target-cmd '$B serve' --cases $CASES --seed 1 --jobs 2 --quiet > /dev/null" >/dev/null
jq -r '.results as $r | "2. diff --jobs 2 against serve, \($r[1].mean * 1000 | floor) ms, over serve alone, \($r[0].mean * 1000 | floor) ms: \($r[1].mean / $r[0].mean * 100 | round / 100)x (a measurement: its goal is withdrawn)"' "$OUT/harness.json"
#    What the harness must do per case in process, phase by phase, against
#    serve's whole answer to the same request lines (benches/harness.rs): on
#    two cores the diff's wall time is about (target + harness CPU) / 2, so
#    1.15x needs the harness's CPU at most 1.3x its target's.
cargo bench --locked --bench harness --quiet > "$OUT/phases.log" 2>&1
phase() { jq '.median.point_estimate / 1e6' "target/criterion/harness-phase/$1/new/estimates.json"; }
awk -v g="$(phase generate)" -v e="$(phase 'expected answers')" -v l="$(phase 'expected lines')" \
    -v q="$(phase 'request lines')" -v s="$(phase "serve's answers to the request lines")" 'BEGIN {
  printf "2. the harness in process, 3,000 cases: generate %.2f + expected answers %.2f + their lines %.2f + request lines %.2f = %.2f ms, %.2fx serve'"'"'s answers to the same lines (%.2f ms)\n", g, e, l, q, g + e + l + q, (g + e + l + q) / s, s }'

# 3. the audit over serve: the shoe archive of 200 epochs x 100 six-deck
#    shoes in its four shapes (scripts/bench-audit.sh shapes), wall and CPU.
OUT=$OUT/audit RUNS=$RUNS scripts/bench-audit.sh shapes > "$OUT/audit.log" 2>&1
grep '^audit, ' "$OUT/audit.log" | sed 's/^/3. /; s/$/ (goals 1.0 and 1.6)/'

# 4. the page.
node scripts/bench-stall.mjs --runs 3 --warmup 1 --json > "$OUT/page.jsonl" 2>&1
node -e '
const rows = require("fs").readFileSync(process.argv[1], "utf8").split("\n").filter((l) => l.startsWith("{")).map(JSON.parse);
for (const mode of ["link", "file"]) {
  const r = rows.filter((x) => x.mode === mode);
  const longest = Math.max(...r.map((x) => x.longest)), gap = Math.max(...r.map((x) => x.checkMaxGap));
  console.log(`4. the page at 4x, ${mode}: longest task ${Math.round(longest)} ms, ${(longest / 100).toFixed(2)}x the 100 ms goal; largest timer gap after the self-test ${Math.round(gap)} ms (goal 200)`);
}' "$OUT/page.jsonl"
