#!/usr/bin/env python3
"""Test oracle for the schemes that publish no code: shoe (seed 000) and
ladder (seed 004).

Written from the seeds' prose, step by step, on purpose in another language
and another shape than reference/js: Python's arbitrary-precision integers,
the hmac module, the byte stream as one growing bytes object. It is no
published source, only a second reading of the published text; the JS tests
use it where nothing published exists.

    python3 oracle.py FILE    # FILE: JSON list of requests; prints JSON list of results
"""
import hashlib
import hmac
import json
import math
import sys


def mac(server_seed, message):
    return hmac.new(server_seed.encode("utf-8"), message.encode("utf-8"), hashlib.sha256).digest()


def js_round(x):
    """JavaScript's Math.round: nearest integer, halves towards +infinity.
    (Python's round() goes to even, and floor(x + 0.5) misrounds
    0.49999999999999994.)"""
    f = math.floor(x)
    return f + 1 if x - f >= 0.5 else f


class Stream:
    """Seed 000, step 2: block c = HMAC(serverSeed, clientSeed:nonce:c); bytes in order."""

    def __init__(self, server_seed, client_seed, nonce):
        self.s, self.c, self.n = server_seed, client_seed, nonce
        self.buf = b""
        self.used = 0
        self.blocks = 0

    def take(self, k):
        while len(self.buf) - self.used < k:
            self.buf += mac(self.s, f"{self.c}:{self.n}:{self.blocks}")
            self.blocks += 1
        out = self.buf[self.used:self.used + k]
        self.used += k
        return out

    def index(self, n):
        """Seed 000, step 3."""
        k = 0
        while 256 ** k < n:
            k += 1
        top = 256 ** k
        limit = top - top % n
        while True:
            v = int.from_bytes(self.take(k), "big")
            if v < limit:
                return v % n


def shoe(server_seed, client_seed, nonce, decks, penetration):
    stack = [r + s for _ in range(decks) for s in "SHDC" for r in "A23456789TJQK"]
    total = len(stack)
    st = Stream(server_seed, client_seed, nonce)
    for i in range(total - 1, 0, -1):
        j = st.index(i + 1)
        stack[i], stack[j] = stack[j], stack[i]
    base = js_round(total * penetration)
    spread = max(1, js_round(total * 0.02))
    cut = base + st.index(2 * spread + 1) - spread
    cut = max(cut, max(20, js_round(total * 0.5)))
    cut = min(cut, total - 15)
    return {"cards": stack, "cut": cut}


def ladder(server_seed, client_seed, size):
    """Seed 004: eight big-endian u32 per block, r = v / 2^32, j = floor(r * (i + 1))."""
    words = []
    order = list(range(size))
    block = 0
    for i in range(size - 1, 0, -1):
        if not words:
            m = mac(server_seed, f"{client_seed}:{block}")
            block += 1
            words = [int.from_bytes(m[p:p + 4], "big") for p in range(0, 32, 4)]
        r = words.pop(0) / 2**32
        j = math.floor(r * (i + 1))
        order[i], order[j] = order[j], order[i]
    return {"order": order}


def run(req):
    op = req["op"]
    if op == "shoe.deal":
        return shoe(req["serverSeed"], req["clientSeed"], req["nonce"], req["decks"], req["penetration"])
    if op == "shoe.tournament":
        # Seed 000, step 6.
        t, k = req["tournamentId"], req["hand"]
        return shoe(req["serverSeed"], f"{t}:{k}", k, req["decks"], req["penetration"])
    if op == "ladder.shuffle":
        return ladder(req["serverSeed"], req["clientSeed"], req["size"])
    raise SystemExit(f"oracle.py: no oracle for {op}")


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as fh:
        print(json.dumps([run(r) for r in json.load(fh)]))
