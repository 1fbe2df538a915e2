#!/usr/bin/env python3
"""An auditor's own target: four ops, written from docs/schemes.md and
docs/protocol.md alone, with one bug planted at a time.

    python3 tests/auditor/target.py [BUG]      (or AUDITOR_BUG=BUG)

It claims only `cursor.int`, `shoe.deal`, `dice.roll` and `ladder.shuffle`:
no `cursor.raw`, no `shoe.stream`, so the harness cannot ask a lower op
where the two sides part. Without BUG it is correct. The bugs, each one an
auditor could plausibly make:

  latin1-key        the server seed (the HMAC key) encoded as ISO-8859-1
                    (`encode("latin-1", "replace")`: "?" for what it lacks)
  nonce-g15         the nonce (the die's n) written into the message with
                    "%.15g", which turns 10^15 into "1e+15"
  reject-gt         the rejection tests `v > limit` where the scheme says
                    `v >= limit` (cursor.int, the shoe's index, the die's 252)
  cut-python-round  Python's round() (halves to even) for the cut card,
                    where the scheme says JavaScript's Math.round (halves up)
  cut-no-clamp      the cut card without its upper clamp (total - 15)
  ladder-le         the ladder's draw takes words while `w <= 8`, not
                    `w < 8`: a ninth word past the MAC's end, read as 0
  dice-byte0        the die reads byte 0 of each round only (the page's
                    formula), not the whole MAC
"""
import hashlib
import hmac
import json
import math
import os
import sys

BUGS = ("latin1-key", "nonce-g15", "reject-gt", "cut-python-round", "cut-no-clamp", "ladder-le", "dice-byte0")
BUG = ""
MAX_INT = 2**53 - 1


# --- the schemes ----------------------------------------------------------------

def key_of(server_seed):
    if BUG == "latin1-key":
        return server_seed.encode("latin-1", "replace")
    return server_seed.encode("utf-8")


def number(n):
    """An integer as the message holds it: plain decimal (schemes.md, conventions)."""
    return "%.15g" % n if BUG == "nonce-g15" else str(n)


def mac(server_seed, message):
    return hmac.new(key_of(server_seed), message.encode("utf-8"), hashlib.sha256).digest()


def rejected(v, limit):
    return v > limit if BUG == "reject-gt" else v >= limit


def cursor_int(server_seed, client_seed, nonce, cursor, rng):
    if rng == 1:
        return {"value": 0, "cursorNext": cursor + 1}
    k = max(1, ((rng - 1).bit_length() + 7) // 8)
    limit = 256**k - 256**k % rng
    while True:
        raw = mac(server_seed, f"{client_seed}:{number(nonce)}:{cursor}")
        cursor += 1
        v = int.from_bytes(raw[:k], "big")
        if not rejected(v, limit):
            return {"value": v % rng, "cursorNext": cursor}


class Stream:
    """The shoe's byte stream: block b = HMAC(serverSeed, "clientSeed:nonce:b")."""

    def __init__(self, server_seed, client_seed, nonce):
        self.args = (server_seed, client_seed, nonce)
        self.block, self.at, self.number = b"", 0, 0

    def byte(self):
        if self.at == len(self.block):
            s, c, n = self.args
            self.block, self.at = mac(s, f"{c}:{number(n)}:{self.number}"), 0
            self.number += 1
        self.at += 1
        return self.block[self.at - 1]

    def index(self, m):
        k = 0
        while 256**k < m:
            k += 1
        limit = 256**k - 256**k % m
        while True:
            v = 0
            for _ in range(k):
                v = v * 256 + self.byte()
            if not rejected(v, limit):
                return v % m


def js_round(x):
    """JavaScript's Math.round for x >= 0: the nearest integer, halves up."""
    f = math.floor(x)
    return f + 1 if x - f >= 0.5 else f


def shoe_deal(server_seed, client_seed, nonce, decks, penetration):
    cards = [r + s for _ in range(decks) for s in "SHDC" for r in "A23456789TJQK"]
    total = len(cards)
    stream = Stream(server_seed, client_seed, nonce)
    for i in range(total - 1, 0, -1):
        j = stream.index(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    rnd = round if BUG == "cut-python-round" else js_round
    base = rnd(total * penetration)
    spread = max(1, rnd(total * 0.02))
    cut = base + stream.index(2 * spread + 1) - spread
    cut = max(cut, max(20, rnd(total * 0.5)))
    if BUG != "cut-no-clamp":
        cut = min(cut, total - 15)
    return {"cards": cards, "cut": cut}


def dice_roll(server_seed, client_seed, n):
    for rnd in range(16):
        m = mac(server_seed, f"{client_seed}:{number(n)}:{rnd}")
        for b in (m[:1] if BUG == "dice-byte0" else m):
            if not rejected(b, 252):
                return {"face": b % 6 + 1}
    raise Exhausted(f"n {n}: no byte below 252 in 16 rounds")


def ladder_words(server_seed, client_seed):
    block = 0
    while True:
        m = mac(server_seed, f"{client_seed}:{block}")
        w = 0
        while (w <= 8) if BUG == "ladder-le" else (w < 8):
            yield int.from_bytes(m[4 * w:4 * w + 4], "big")
            w += 1
        block += 1


def ladder_shuffle(server_seed, client_seed, size):
    order = list(range(size))
    words = ladder_words(server_seed, client_seed)
    for i in range(size - 1, 0, -1):
        j = next(words) * (i + 1) >> 32
        order[i], order[j] = order[j], order[i]
    return {"order": order}


# --- the protocol (docs/protocol.md) --------------------------------------------

class Invalid(Exception):
    pass


class Exhausted(Exception):
    pass


def text(name, v):
    if not isinstance(v, str):
        raise Invalid(f"{name}: not a string")
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:
        raise Invalid(f"{name}: a lone surrogate") from None
    return v


def integer(lo, hi):
    def check(name, v):
        if type(v) is not int:
            raise Invalid(f"{name}: not an integer")
        if not lo <= v <= hi:
            raise Invalid(f"{name}: {v} is outside {lo} ... {hi}")
        return v
    return check


def fraction(name, v):
    if type(v) not in (int, float) or not 0 < v < 1:
        raise Invalid(f"{name}: not a number strictly between 0 and 1")
    return float(v)


SEED = integer(0, MAX_INT)
OPS = {
    "cursor.int": (cursor_int, [("serverSeed", text), ("clientSeed", text), ("nonce", SEED), ("cursor", SEED),
                                ("range", integer(1, MAX_INT))]),
    "shoe.deal": (shoe_deal, [("serverSeed", text), ("clientSeed", text), ("nonce", SEED), ("decks", integer(1, 8)),
                              ("penetration", fraction)]),
    "dice.roll": (dice_roll, [("serverSeed", text), ("clientSeed", text), ("n", SEED)]),
    "ladder.shuffle": (ladder_shuffle, [("serverSeed", text), ("clientSeed", text), ("size", integer(1, 100000))]),
}


def pairs(items):
    keys = [k for k, _ in items]
    if len(set(keys)) != len(keys):
        raise Invalid("a key given twice")
    return dict(items)


def no_constant(name):
    raise Invalid(f"not JSON: {name}")


def request_id(line):
    """The id to answer with: an integer id of a JSON object, else None."""
    try:
        obj = json.loads(line, object_pairs_hook=lambda items: items, parse_constant=no_constant)
    except (ValueError, RecursionError, Invalid):
        return None
    if not isinstance(obj, list):
        return None
    ids = [v for k, v in obj if k == "id"]
    if len(ids) != 1 or type(ids[0]) is not int or not -2**63 <= ids[0] < 2**63:
        return None
    return ids[0]


def answer(raw):
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError:
        return {"id": None, "error": {"kind": "invalid", "message": "not UTF-8"}}
    rid = request_id(line)
    try:
        if rid is None:
            raise Invalid("not a JSON object with an integer id")
        req = json.loads(line, object_pairs_hook=pairs, parse_constant=no_constant)
        op = req.get("op")
        if op == "hello":
            if set(req) != {"id", "op", "protocol"} or type(req["protocol"]) is not int or req["protocol"] != 1:
                raise Invalid("hello: protocol 1 only")
            return {"id": rid, "ok": {"name": f"auditor {BUG or 'correct'}", "ops": list(OPS)}}
        if op not in OPS:
            if isinstance(op, str):
                return {"id": rid, "error": {"kind": "unsupported", "message": f"{op}: not here"}}
            raise Invalid("op: missing or not a string")
        run, fields = OPS[op]
        names = [n for n, _ in fields]
        extra = [k for k in req if k not in ("id", "op") and k not in names]
        if extra:
            raise Invalid(f"{extra[0]}: not a field of {op}")
        args = []
        for name, check in fields:
            if name not in req:
                raise Invalid(f"{name}: missing")
            args.append(check(name, req[name]))
        return {"id": rid, "ok": run(*args)}
    except Invalid as e:
        return {"id": rid, "error": {"kind": "invalid", "message": str(e)}}
    except (ValueError, RecursionError) as e:
        return {"id": rid, "error": {"kind": "invalid", "message": f"not JSON: {e}"}}
    except Exhausted as e:
        return {"id": rid, "error": {"kind": "exhausted", "message": str(e)}}


def main(argv):
    global BUG
    BUG = argv[1] if len(argv) > 1 else os.environ.get("AUDITOR_BUG", "")
    if BUG and BUG not in BUGS:
        sys.stderr.write(f"usage: target.py [BUG], BUG one of: {' '.join(BUGS)}\n")
        return 2
    for raw in sys.stdin.buffer:
        raw = raw.rstrip(b"\n").rstrip(b"\r")
        if not raw.strip(b" \t"):
            continue
        out = json.dumps(answer(raw), separators=(",", ":"), ensure_ascii=False)
        sys.stdout.buffer.write(out.encode("utf-8") + b"\n")
        sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
