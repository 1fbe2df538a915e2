#!/usr/bin/env python3
"""Archives in the flat layout (docs/scale.md) for the Spark job's test and
benchmark, every outcome derived by `provably serve` (nothing hard-coded):

    python harness/spark/flatgen.py --kind mixed --rounds 100000 --out rows.jsonl [--proof proof.jsonl]

Kinds:
  mixed    Stake bet histories, dice games, cursor and shoe rounds, selfpoker
           hands, poker tables with seats, ladders; a few rounds tampered,
           unobserved, external or invalid, commitments wrong, absent or in
           capitals (same seed, another epoch), nonces doubled and left out.
  honest   the same games with nothing tampered, left out or doubled.
  ground   dice games whose server seed was ground on the first die (of two
           candidate seeds, the first whose die 0 shows a 6): every round
           matches, `--stats` raises the alarm (docs/statistics.md).
  history  Stake seed pairs, each cut into three epochs (the commitment in
           small letters, in capitals, absent), with doubled and missing
           nonces in different epochs of the pair.

--proof also writes the same rounds as a JSON-lines proof in the order they
were made (epochs as generated, not the canonical order): its audit must
count what the canonical proof's audit counts.
"""

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys

STAKE_GAMES = [
    ("stake.dice", {}),
    ("stake.limbo", {}),
    ("stake.roulette", {}),
    ("stake.keno", {}),
    ("stake.diamonds", {}),
    ("stake.baccarat", {}),
    ("stake.plinko", {"rows": 12, "risk": "medium"}),
    ("stake.plinko", {"rows": 8, "risk": "high"}),
    ("stake.mines", {"mines": 3}),
    ("stake.wheel", {"segments": 10, "risk": "low"}),
]


def provably_bin():
    b = os.environ.get("PROVABLY_BIN")
    if not b:
        sys.exit("set PROVABLY_BIN to the provably binary")
    return b


def serve(requests, binary):
    """The `ok` objects of `provably serve` for each request (in order)."""
    text = "".join(json.dumps(dict(r, id=i)) + "\n" for i, r in enumerate(requests))
    out = subprocess.run([binary, "serve"], input=text.encode(), capture_output=True, check=True).stdout
    answers = [None] * len(requests)
    for line in out.decode().splitlines():
        v = json.loads(line)
        if "id" in v and isinstance(v["id"], int):
            answers[v["id"]] = v.get("ok")
    missing = [i for i, a in enumerate(answers) if a is None]
    if missing:
        raise RuntimeError(f"serve answered no ok for {len(missing)} requests, e.g. {requests[missing[0]]}")
    return answers


def sha(text):
    return hashlib.sha256(text.encode()).hexdigest()


class Epoch:
    def __init__(self, commit, key, secret):
        self.commit, self.key, self.secret, self.rounds = commit, key, secret, []


class Round:
    """One round: the request fields besides the secret, and what was observed."""

    def __init__(self, op, client_seed=None, nonce=None, params=None):
        self.op, self.client_seed, self.nonce = op, client_seed, nonce
        self.params = dict(params or {})
        self.params_text = None  # a row whose params are not one JSON object
        self.observed = None  # the object written, or None (not observed)
        self.observed_text = None  # set: the column's exact text
        self.derive = True

    def request(self, epoch):
        r = {"op": self.op}
        if epoch.key:
            r[epoch.key] = epoch.secret
        if self.client_seed is not None:
            r["clientSeed"] = self.client_seed
        if self.nonce is not None:
            r["nonce"] = self.nonce
        r.update({k: v for k, v in self.params.items() if k not in ("external", "seats")})
        if "seats" in self.params:
            # The protocol's client seed of a table round (docs/proofs.md, "seats").
            seats = sorted(self.params["seats"], key=lambda s: s["player"])
            r["clientSeed"] = "".join(s["seed"] for s in seats)
        return r


def derive(epochs, binary):
    todo = [(e, r) for e in epochs for r in e.rounds if r.derive]
    for (e, r), ok in zip(todo, serve([r.request(e) for e, r in todo], binary)):
        r.observed = ok


def commitments(seeds, binary):
    """Each server seed's commitment as serve's own cursor.hash gives it."""
    return [a["hash"] for a in serve([{"op": "cursor.hash", "serverSeed": s} for s in seeds], binary)]


# ------------------------------------------------------------------ kinds


def stake_pair(rng, server, client, bets, start=0):
    rounds = []
    for k in range(bets):
        op, params = STAKE_GAMES[rng.randrange(len(STAKE_GAMES))]
        rounds.append(Round(op, client, start + k, params))
    return rounds


def mixed(rounds_wanted, rng, binary, findings=True):
    epochs = []
    share = rounds_wanted // 100  # rounds per percent

    # Stake histories: 60 %, 100 bets per seed pair.
    pairs = max(1, 60 * share // 100)
    seeds = [sha(f"stake server {i}") for i in range(pairs)]
    for i, (s, h) in enumerate(zip(seeds, commitments(seeds, binary))):
        e = Epoch(h, "serverSeed", s)
        client = rng.choice(["lucky-7f3a", "mein-neuer-seed", f"client {i}", "seed \"quoted\" \\ ü"])
        e.rounds = stake_pair(rng, s, client, 100)
        epochs.append(e)

    # Dice games: 12 %, 40 dice each.
    games = max(1, 12 * share // 40)
    seeds = [sha(f"dice game {i}") for i in range(games)]
    for i, (s, h) in enumerate(zip(seeds, commitments(seeds, binary))):
        e = Epoch(h, "serverSeed", s)
        e.rounds = [Round("dice.roll", f"{i:016x}:d4f28bac6efd1b6e", None, {"n": n}) for n in range(40)]
        epochs.append(e)

    # Cursor ints and floats: 25 %, 100 per seed.
    n_int = max(1, 20 * share // 100)
    n_float = max(1, 5 * share // 100)
    seeds = [sha(f"cursor seed {i}") for i in range(n_int + n_float)]
    for i, (s, h) in enumerate(zip(seeds, commitments(seeds, binary))):
        e = Epoch(h, "serverSeed", s)
        if i < n_int:
            rng_range = rng.choice([2, 6, 37, 52, 10000, 2 ** 32 + 1])
            e.rounds = [Round("cursor.int", "player", n, {"cursor": n % 3, "range": rng_range}) for n in range(100)]
        else:
            e.rounds = [Round("cursor.float", "player", n, {"cursor": 0}) for n in range(100)]
        epochs.append(e)

    # Six-deck shoes (two hands each), ladders, poker tables, selfpoker hands: the rest.
    seeds = [sha(f"shoe {i}") for i in range(100)]
    for i, (s, h) in enumerate(zip(seeds, commitments(seeds, binary))):
        e = Epoch(h, "serverSeed", s)
        e.rounds = [Round("shoe.deal", "tisch", n, {"decks": 6, "penetration": 0.75}) for n in (1, 2)]
        epochs.append(e)
    seeds = [sha(f"ladder {i}") for i in range(100)]
    for s, h in zip(seeds, commitments(seeds, binary)):
        e = Epoch(h, "serverSeed", s)
        e.rounds = [Round("ladder.shuffle", "mein-eigener-seed", None, {"size": 25})]
        epochs.append(e)
    seeds = [sha(f"poker table {i}") for i in range(10)]
    for s, h in zip(seeds, commitments(seeds, binary)):
        e = Epoch(h, "serverSeed", s)
        for n in range(20):
            players = rng.randrange(2, 6)
            ids = rng.sample(range(1, 10), players)
            seats = [{"player": p, "seed": f"{rng.getrandbits(64):016x}"} for p in ids]
            e.rounds.append(Round("poker.deal", None, n, {"seats": seats, "players": players}))
        epochs.append(e)
    hands = [str(rng.getrandbits(63)) for _ in range(200)]
    commits = serve([{"op": "selfpoker.commit", "seed": s} for s in hands], binary)
    for s, c in zip(hands, commits):
        e = Epoch(c["commit"], "seed", s)
        e.rounds = [Round("selfpoker.deck")]
        epochs.append(e)

    if not findings:
        derive(epochs, binary)
        return epochs
    # The findings an audit must keep across partitions.
    for e in epochs:
        for r in e.rounds:
            if r.op.startswith("stake.") and rng.random() < 0.002:
                r.params = dict(r.params, external="telegram")
            elif rng.random() < 0.0005:
                r.derive = False
                r.params_text = '{"range": oops}'
            elif rng.random() < 0.0005:
                r.derive = False
                r.params = dict(r.params, cursor=-1)
    derive(epochs, binary)
    by_op = {}
    for e in epochs:
        for r in e.rounds:
            if r.observed is None:
                continue
            x = rng.random()
            same = by_op.setdefault((r.op, json.dumps(r.params, sort_keys=True)), [])
            if x < 0.002 and same:
                r.observed = same[-1]  # another round's outcome: a mismatch unless equal by chance
            elif x < 0.003:
                r.observed = None  # not observed
            elif x < 0.004:
                r.observed_text = "{}"
            elif x < 0.0045:
                r.observed_text = '{"roll": '  # not JSON: an invalid observation
            else:
                same.append(r.observed)
    for e in epochs:
        x = rng.random()
        if x < 0.01:
            e.commit = None
        elif x < 0.015:
            e.commit = sha("not the seed " + e.secret)
        elif x < 0.02:
            e.commit = e.commit.upper()
    # Stake bets shown twice and bets left out.
    for e in epochs[:pairs]:
        if rng.random() < 0.1:
            e.rounds.append(e.rounds[rng.randrange(len(e.rounds))])
        if rng.random() < 0.1:
            del e.rounds[rng.randrange(1, len(e.rounds) - 1)]
    # Rounds with no secret at all: an epoch of its own (invalid: the op needs one).
    e = Epoch(None, None, None)
    e.rounds = [Round("stake.dice", "orphan", n) for n in range(5)]
    for r in e.rounds:
        r.derive = False
        r.observed = {"roll": 1.0}
    epochs.append(e)
    return epochs


def ground(games, rng, binary):
    """Dice games ground on die 0 (tests/stats.rs builds its ground archive so)."""
    candidates = [[sha(f"dice operator {g} candidate {c}") for c in range(2)] for g in range(games)]
    client = "a26460084a0ef89b:d4f28bac6efd1b6e"
    firsts = serve([{"op": "dice.roll", "serverSeed": s, "clientSeed": client, "n": 0}
                    for pair in candidates for s in pair], binary)
    picks = []
    for g, pair in enumerate(candidates):
        faces = firsts[2 * g: 2 * g + 2]
        picks.append(pair[0] if faces[0]["face"] == 6 else pair[1])
    epochs = []
    for s, h in zip(picks, commitments(picks, binary)):
        e = Epoch(h, "serverSeed", s)
        e.rounds = [Round("dice.roll", client, None, {"n": n}) for n in range(10)]
        epochs.append(e)
    derive(epochs, binary)
    return epochs


def history(pairs, rng, binary):
    """Seed pairs each cut into three epochs; every pair has a doubled nonce
    and a gap, each in another epoch of the pair than its neighbours."""
    seeds = [sha(f"rotation {i}") for i in range(pairs)]
    epochs = []
    for i, (s, h) in enumerate(zip(seeds, commitments(seeds, binary))):
        client = f"client-{i % 7}"
        bets = stake_pair(rng, s, client, 60)
        gap = rng.randrange(5, 55)
        del bets[gap: gap + rng.randrange(1, 4)]
        double = bets[rng.randrange(len(bets))]
        op, params = STAKE_GAMES[rng.randrange(len(STAKE_GAMES))]
        twin = Round(op, client, double.nonce, params)
        variants = [Epoch(h, "serverSeed", s), Epoch(h.upper(), "serverSeed", s), Epoch(None, "serverSeed", s)]
        # The bets before the gap in one epoch, those after it in the two others:
        # the gap lies between epochs (and so, where a boundary falls there, between partitions).
        after = [r for r in bets if r.nonce > gap]
        for r in bets:
            if r.nonce < gap:
                variants[0].rounds.append(r)
            else:
                variants[1 if after.index(r) < len(after) // 2 else 2].rounds.append(r)
        # The doubled nonce goes to an epoch other than its first bet's.
        home = next(v for v in variants if double in v.rounds)
        [v for v in variants if v is not home][rng.randrange(2)].rounds.append(twin)
        epochs.extend(v for v in variants if v.rounds)
    derive(epochs, binary)
    return epochs


# ------------------------------------------------------------------ output


def flat_rows(epochs):
    for e in epochs:
        for r in e.rounds:
            row = {"commit": e.commit, "op": r.op}
            if e.key:
                row[e.key] = e.secret
            if r.client_seed is not None:
                row["clientSeed"] = r.client_seed
            if r.nonce is not None:
                row["nonce"] = r.nonce
            if r.params_text is not None:
                row["params"] = r.params_text
            elif r.params:
                row["params"] = json.dumps(r.params, ensure_ascii=False)
            if r.observed_text is not None:
                row["observed"] = r.observed_text
            elif r.observed is not None:
                row["observed"] = json.dumps(r.observed)
            yield row


def proof_line(e):
    """The epoch as a proof's JSON line, written by json.dumps (not by the job's splicing)."""
    rounds = []
    for r in e.rounds:
        d = {"op": r.op}
        if r.client_seed is not None:
            d["clientSeed"] = r.client_seed
        if r.nonce is not None:
            d["nonce"] = r.nonce
        if r.params_text is not None:
            d["params"] = r.params_text
        else:
            d.update(r.params)
        if r.observed_text is not None:
            d["observed"] = json.loads(r.observed_text) if r.observed_text == "{}" else r.observed_text
        elif r.observed is not None:
            d["observed"] = r.observed
        rounds.append(d)
    line = {"commit": e.commit}
    if e.key:
        line[e.key] = e.secret
    line["rounds"] = rounds
    return json.dumps(line, ensure_ascii=False)


def write(epochs, out, proof=None, shuffle_seed=1, files=1):
    rows = list(flat_rows(epochs))
    random.Random(shuffle_seed).shuffle(rows)
    outs = [out] if files == 1 else [f"{out}.{k}" for k in range(files)]
    handles = [open(p, "w", encoding="utf-8") for p in outs]
    try:
        for k, row in enumerate(rows):
            handles[k % files].write(json.dumps(row, ensure_ascii=False) + "\n")
    finally:
        for h in handles:
            h.close()
    if proof:
        with open(proof, "w", encoding="utf-8") as f:
            for e in epochs:
                f.write(proof_line(e) + "\n")
    return outs, len(rows)


def generate(kind, size, seed, binary):
    rng = random.Random(seed)
    if kind in ("mixed", "honest"):
        return mixed(size, rng, binary, findings=kind == "mixed")
    if kind == "ground":
        return ground(size, rng, binary)
    return history(size, rng, binary)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--kind", choices=["mixed", "honest", "ground", "history"], default="mixed")
    p.add_argument("--size", type=int, default=100000,
                   help="mixed: about this many rounds; ground: games (10 dice each); history: seed pairs")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--files", type=int, default=1, help="split the rows over this many files (OUT.0, OUT.1, …)")
    p.add_argument("--out", required=True)
    p.add_argument("--proof")
    a = p.parse_args()
    outs, n = write(generate(a.kind, a.size, a.seed, provably_bin()), a.out, a.proof, a.seed, a.files)
    print(f"{n} rounds in {', '.join(outs)}", file=sys.stderr)


if __name__ == "__main__":
    main()
