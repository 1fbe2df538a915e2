#!/usr/bin/env bash
# The audit figures in BENCHMARKS.md ("Whole proofs"):
#
#   scripts/bench-audit.sh          # build, inputs, check, hyperfine (audit vs serve), peak RSS
#   scripts/bench-audit.sh inputs   # only (re)generate the inputs
#   scripts/bench-audit.sh small    # only the N shoes (OUT=dir puts them elsewhere; scripts/bench-ratios.sh)
#   scripts/bench-audit.sh check    # only check the inputs (audit clean, serve agrees)
#   scripts/bench-audit.sh speed    # only the hyperfine comparison
#   scripts/bench-audit.sh memory   # only the peak-RSS runs
#   scripts/bench-audit.sh others   # only: the document as Python's json.dumps writes it (and keys reversed), hyperfine against serve (OLD=binary: another build beside it)
#   scripts/bench-audit.sh hostile  # only: hostile documents (big unobserved shuffles, a 2 GiB string, 40,000 keys), RSS and time
#   scripts/bench-audit.sh shapes   # only: the shoe archive (200 epochs x 100 six-deck shoes) in four shapes, wall and CPU against serve (OUT=dir)
#
# Inputs (target/bench-audit/, deterministic): N six-deck `shoe.deal`
# requests, one server seed per shoe (seed 000 reveals a shoe's seed when
# the shoe is done), as protocol lines for `provably serve`; the same
# rounds as a JSON-lines proof and as a document (one epoch per shoe, its
# commitment, every card and the cut observed) written by `provably proof`. For memory, 10^6
# such rounds as JSON lines and as one document holding a single epoch of
# 10^6 rounds (rounds stream inside an epoch too), and that epoch under
# another server seed (every round mismatches: findings stream to disk).
# For `others`: the same document with every round (and its observation)
# written again by Python's `json.dumps` defaults (", " and ": ", non-ASCII
# escaped), once in the key order of `provably proof` and once with every
# round's and observation's keys reversed (`observed` first, `cut` before
# `cards`).
#
# Needs: cargo, python3, hyperfine, /usr/bin/time (GNU time).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-target/bench-audit}
P=${P:-target/release/provably}
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

# The N shoes alone, as requests, JSON lines and a document (what `others` reads).
small_inputs() {
  requests "$N" "$OUT/requests.jsonl" 0
  "$P" proof --requests "$OUT/requests.jsonl" --commit --lines --out "$OUT/shoes.jsonl"
  "$P" proof --requests "$OUT/requests.jsonl" --commit --out "$OUT/shoes.json"
  rm -f "$OUT/shoes-dumps.json" "$OUT/shoes-dumps-reversed.json"
}

inputs() {
  small_inputs
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

# Rewrites the rounds of a document written by `provably proof` (one round
# per line) as json.dumps writes them; $1 = 1 reverses the keys.
dumps() {
  # The script as -c: stdin is the document.
  python3 -c "$(cat <<'PY'
import json, sys
reverse = sys.argv[1] == "1"
turn = (lambda d: dict(reversed(list(d.items())))) if reverse else (lambda d: d)
out = sys.stdout
for line in sys.stdin:
    body = line.rstrip("\n")
    comma = body.endswith(",")
    text = body[:-1] if comma else body
    if text.startswith('{"op"'):
        r = json.loads(text)
        if isinstance(r.get("observed"), dict):
            r["observed"] = turn(r["observed"])
        out.write(json.dumps(turn(r)) + ("," if comma else "") + "\n")
    else:
        out.write(line)
PY
)" "$@"
}

others() {
  [ -s "$OUT/shoes-dumps.json" ] || dumps 0 < "$OUT/shoes.json" > "$OUT/shoes-dumps.json"
  [ -s "$OUT/shoes-dumps-reversed.json" ] || dumps 1 < "$OUT/shoes.json" > "$OUT/shoes-dumps-reversed.json"
  sed -n 3p "$OUT/shoes-dumps-reversed.json" | cut -c1-160
  for f in shoes-dumps.json shoes-dumps-reversed.json; do "$P" audit --quiet "$OUT/$f" | tail -1; done
  echo "nproc $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg)"
  # OLD=another build's binary adds its audits, side by side in the same run.
  local old=()
  if [ -n "${OLD:-}" ]; then
    old=(-n "audit, document by provably proof (OLD)" "$OLD audit --quiet $OUT/shoes.json"
         -n "audit, document by json.dumps (OLD)" "$OLD audit --quiet $OUT/shoes-dumps.json")
  fi
  hyperfine --warmup 2 --runs "$RUNS" --export-markdown "$OUT/others.md" \
    -n "serve" "$P serve < $OUT/requests.jsonl" \
    -n "audit, document by provably proof" "$P audit --quiet $OUT/shoes.json" \
    -n "audit, document by json.dumps" "$P audit --quiet $OUT/shoes-dumps.json" \
    -n "audit, document by json.dumps, keys reversed" "$P audit --quiet $OUT/shoes-dumps-reversed.json" \
    "${old[@]}"
  echo "load after $(cut -d' ' -f1-3 /proc/loadavg)"
}

hostile() {
  python3 - "$OUT" <<'PY'
import sys
out = sys.argv[1]
rounds = ",".join('{"op":"cursor.shuffle","clientSeed":"c","nonce":%d,"cursor":0,"count":100000}' % n for n in range(200))
open(out + "/shuffles-200.json", "w").write('{"proof":1,"epochs":[{"commit":null,"serverSeed":"s","rounds":[%s]}]}' % rounds)
keys = ",".join('"k%d":0' % i for i in range(40000))
open(out + "/keys-40k.json", "w").write('{"proof":1,"epochs":[{"serverSeed":"s",%s,"rounds":[]}]}' % keys)
with open(out + "/string-2g.json", "w") as f:
    f.write('{"proof":1,"title":"')
    chunk = "x" * (1 << 20)
    for _ in range(2048):
        f.write(chunk)
    f.write('","epochs":[]}')
PY
  ls -l "$OUT"/shuffles-200.json "$OUT"/keys-40k.json "$OUT"/string-2g.json
  for f in shuffles-200.json keys-40k.json string-2g.json; do
    echo "== $f"
    /usr/bin/time -v "$P" audit "$OUT/$f" --report "$OUT/report-$f" --junit "$OUT/junit-$f.xml" \
      > "$OUT/stdout-$f.txt" 2> "$OUT/time-$f.txt" || echo "exit $?"
    tail -1 "$OUT/stdout-$f.txt"
    echo "stdout $(wc -c < "$OUT/stdout-$f.txt") B, report $(wc -c < "$OUT/report-$f") B, junit $(wc -c < "$OUT/junit-$f.xml") B"
    grep -E "Maximum resident set size|Elapsed \(wall clock\)" "$OUT/time-$f.txt"
  done
  rm "$OUT/string-2g.json"
  hyperfine --warmup 1 --runs "$RUNS" -i -n "audit, 40,000 distinct keys" "$P audit --quiet $OUT/keys-40k.json"
}

# The shoe archive: 200 server seeds, 100 six-deck shoes each (nonces
# 0..99), in four shapes, each one document:
#   proof    as `provably proof --group --commit` writes it: every field
#            observed, compact, one round a line;
#   cards    the cards alone observed (no cut), as an operator's history
#            records what the table showed, by Python's json.dumps;
#   reversed every object's keys in reverse order (the document's "proof"
#            stays first, as the format wants): rounds before the epoch's
#            secret, `observed` before the request, `cut` before `cards`;
#            by json.dumps;
#   indent   json.dumps(indent=2).
# Each audit against `serve` on the same 20,000 requests (its output to
# /dev/null), side by side in one hyperfine run: wall time and CPU (user +
# system), and their ratios (goals: 1.0 and 1.6).
shapes() {
  local d=$OUT/shapes
  mkdir -p "$d"
  python3 - "$d" <<'PY'
import hashlib, json, sys
d = sys.argv[1]
with open(d + "/requests.jsonl", "w") as f:
    i = 0
    for e in range(200):
        seed = hashlib.sha256(f"bench epoch {e}".encode()).hexdigest()
        for n in range(100):
            i += 1
            f.write(json.dumps({"id": i, "op": "shoe.deal", "serverSeed": seed, "clientSeed": f"player-{e % 97}",
                                "nonce": n, "decks": 6, "penetration": 0.75}, separators=(",", ":")) + "\n")
PY
  "$P" proof --requests "$d/requests.jsonl" --commit --group --out "$d/proof.json"
  python3 - "$d" <<'PY'
import json, sys
d = sys.argv[1]
doc = json.load(open(d + "/proof.json"))
def cards(doc):
    for e in doc["epochs"]:
        for r in e["rounds"]:
            r["observed"] = {"cards": r["observed"]["cards"]}
    return doc
def reverse(v, top=False):
    if isinstance(v, dict):
        items = [(k, reverse(x)) for k, x in reversed(list(v.items()))]
        if top:
            items.sort(key=lambda kv: kv[0] != "proof")
        return dict(items)
    if isinstance(v, list):
        return [reverse(x) for x in v]
    return v
open(d + "/reversed.json", "w").write(json.dumps(reverse(doc, top=True)))
open(d + "/indent.json", "w").write(json.dumps(doc, indent=2))
open(d + "/cards.json", "w").write(json.dumps(cards(doc)))
PY
  for f in proof cards reversed indent; do
    printf '%s: ' "$f"; "$P" audit --quiet "$d/$f.json" | tail -1
  done
  echo "nproc $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg)"
  # OLD=another build's binary adds its audits of the four shapes, side by side in the same run.
  local old=()
  if [ -n "${OLD:-}" ]; then
    for f in proof cards reversed indent; do old+=(-n "OLD audit, $f" "$OLD audit --quiet $d/$f.json"); done
  fi
  hyperfine --warmup 2 --runs "$RUNS" --export-json "$d/shapes.json" \
    -n "serve" "$P serve < $d/requests.jsonl > /dev/null" \
    -n "audit, every field observed (provably proof)" "$P audit --quiet $d/proof.json" \
    -n "audit, the cards alone (json.dumps)" "$P audit --quiet $d/cards.json" \
    -n "audit, keys in reverse order (json.dumps)" "$P audit --quiet $d/reversed.json" \
    -n "audit, indent=2 (json.dumps)" "$P audit --quiet $d/indent.json" \
    "${old[@]}" > /dev/null
  jq -r '.results[0] as $s | .results[] | "\(.command): \(.mean * 1000 | round) ms wall, \((.user + .system) * 1000 | round) ms CPU; \(.mean / $s.mean * 100 | round / 100)x serve wall, \((.user + .system) / ($s.user + $s.system) * 100 | round / 100)x its CPU"' "$d/shapes.json"
  echo "load after $(cut -d' ' -f1-3 /proc/loadavg)"
}

case "${1:-all}" in
  inputs) cargo build --release --locked --features wild; inputs ;;
  small) small_inputs ;;
  check) check ;;
  speed) speed ;;
  memory) memory ;;
  others) others ;;
  hostile) hostile ;;
  shapes) shapes ;;
  all) cargo build --release --locked --features wild; inputs; check; speed; memory; others; hostile; shapes ;;
  *) echo "usage: $0 [inputs|small|check|speed|memory|others|hostile|shapes]" >&2; exit 2 ;;
esac
