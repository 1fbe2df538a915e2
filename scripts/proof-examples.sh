#!/usr/bin/env bash
# The example proofs in examples/proofs/, one per seed system, written by
# `provably proof` from the rounds in examples/proofs/*.requests.jsonl.
# Their titles are German: players open them on the page (docs/proof-page.md).
#
#   scripts/proof-examples.sh            # write the proofs from the committed rounds
#   scripts/proof-examples.sh check      # write them to a temporary directory and diff (the tests run this)
#   scripts/proof-examples.sh requests   # regenerate the rounds themselves (python3), then the proofs
#
# PROVABLY names the binary (default target/debug/provably).
set -euo pipefail
cd "$(dirname "$0")/.."
P=${PROVABLY:-target/debug/provably}
DIR=examples/proofs

requests() {
  python3 - "$DIR" <<'PY'
"""The rounds behind the examples: fixed seeds (SHA-256 of a label), so every run writes the same files."""
import hashlib, json, sys

out = sys.argv[1]
def seed(label):
    return hashlib.sha256(f"provably example: {label}".encode()).hexdigest()
def write(name, rows):
    with open(f"{out}/{name}.requests.jsonl", "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n")

# Seed 001: one game, one commitment, both players' seeds joined by a colon,
# every die numbered n; die 5 was rolled with Telegram's animation.
s = seed("dice game")
client = "a26460084a0ef89b:d4f28bac6efd1b6e"
rows = [{"op": "dice.roll", "serverSeed": s, "clientSeed": client, "n": n} for n in range(12)]
rows[5] = {**rows[5], "external": "telegram", "observed": {"face": 4}}
write("dice-game", rows)

# Seed 000: a tournament from one seed; hand k is client seed T:k, nonce k.
s = seed("tournament")
write("tournament", [{"op": "shoe.tournament", "serverSeed": s, "tournamentId": "T-2026-11-30",
                      "hand": k, "decks": 6, "penetration": 0.75} for k in range(10)])

# Seed 003: a poker table's 100 hands under one table seed until rotation;
# the client seed of a hand is its seat seeds by ascending player number.
s = seed("table rotation")
players = {p: hashlib.sha256(f"seat seed {p}".encode()).hexdigest()[:16] for p in range(1, 10)}
rows = []
for nonce in range(100):
    seated = sorted({1 + (nonce * 7 + 3 * k) % 9 for k in range(2 + nonce % 5)}, key=lambda p: (p * 5) % 9)
    if nonce % 10 == 9:  # a player changed their seat seed
        players[seated[0]] = hashlib.sha256(f"seat seed {seated[0]} after {nonce}".encode()).hexdigest()[:16]
    rows.append({"op": "poker.deal", "serverSeed": s, "seats": [{"player": p, "seed": players[p]} for p in seated],
                 "nonce": nonce, "players": len(seated)})
write("table-rotation", rows)

# Seed 002: five hands, each with its own 63-bit seed (one epoch per hand).
write("selfpoker-hands", [{"op": "selfpoker.deck",
                           "seed": str(int(hashlib.sha256(f"hand {h}".encode()).hexdigest(), 16) % 2**63)}
                          for h in range(5)])

# Seed 004: one Deal-or-No-Deal round, the player's own client seed, 25 cases.
write("ladder", [{"op": "ladder.shuffle", "serverSeed": seed("ladder"), "clientSeed": "mein-eigener-seed", "size": 25}])

# Stake: a player's bet history over one seed rotation. Each seed pair
# counts its bets from nonce 0 across games; the player set a new client
# seed at the rotation.
games = [("stake.dice", {}), ("stake.limbo", {}), ("stake.mines", {"mines": 3}), ("stake.plinko", {"rows": 12, "risk": "medium"}),
         ("stake.keno", {}), ("stake.roulette", {}), ("stake.diamonds", {}), ("stake.baccarat", {})]
rows = []
for pair, (client, bets) in enumerate([("lucky-7f3a", 24), ("mein-neuer-seed", 16)]):
    s = seed(f"stake seed pair {pair}")
    for nonce in range(bets):
        op, extra = games[(nonce * 3 + pair) % len(games)]
        rows.append({"op": op, "serverSeed": s, "clientSeed": client, "nonce": nonce, **extra})
write("stake-history", rows)
PY
}

proofs() { # output directory
  local o=$1
  "$P" proof --requests $DIR/dice-game.requests.jsonl --group --commit \
    --title "Ein Würfelspiel (Seed 001): ein Commitment, zwölf Würfe, Wurf Nummer 5 mit Telegram gewürfelt" --out "$o/dice-game.json"
  "$P" proof --requests $DIR/tournament.requests.jsonl --group --commit --prefix 20 \
    --title "Ein Turnier mit 10 Händen aus einem Seed (Seed 000): von jedem Schuh die ersten 20 Karten und die Cut-Card" \
    --out "$o/tournament.json"
  "$P" proof --requests $DIR/table-rotation.requests.jsonl --group --commit \
    --title "100 Hände an einem Pokertisch bis zum neuen Seed (Seed 003): Plätze nach Spielernummer, jede Hand gezeigt" \
    --out "$o/table-rotation.json"
  "$P" proof --requests $DIR/selfpoker-hands.requests.jsonl --group --commit --prefix 13 \
    --title "Fünf Selfpoker-Hände mit je eigenem Seed (Seed 002): die Handkarten von vier Spielern und das Board" \
    --out "$o/selfpoker-hands.json"
  "$P" proof --requests $DIR/ladder.requests.jsonl --group --commit \
    --title "Eine Deal-or-No-Deal-Runde (Seed 004): alle 25 Koffer geöffnet" --out "$o/ladder.json"
  "$P" proof --requests $DIR/stake-history.requests.jsonl --group --commit \
    --title "Eine Stake-Wett-Historie über einen Seed-Wechsel: 40 Wetten in acht Spielen, jede Nonce einmal" \
    --out "$o/stake-history.json"
}

case "${1:-write}" in
  requests) requests; proofs $DIR ;;
  write) proofs $DIR ;;
  check)
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    proofs "$tmp"
    for f in "$tmp"/*.json; do
      diff -u "$DIR/$(basename "$f")" "$f" || { echo "examples/proofs differ from what provably proof writes: run $0" >&2; exit 1; }
    done
    echo "examples/proofs are what provably proof writes"
    ;;
  *) echo "usage: $0 [write|check|requests]" >&2; exit 2 ;;
esac
