"""The schemes over any HMAC-SHA256, for Python stacks in the wild.

A Python verifier built on a crypto package calls the package's HMAC from a
few lines of scheme logic. This is those lines, written once and shared by
every Python stack target (reference/wild/*_target.py): the package brings
`hmac_sha256(key_text, message_text) -> 32 bytes` and
`sha256(text) -> 32 bytes`; everything above them is here, step by step as
docs/schemes.md states it (the same formulas as src/wild/mod.rs and
reference/js). Only the ops that go through the package are served
(MAC_OPS): poker.evaluate and selfpoker.deck compute no MAC.

`serve(name, ops)` speaks protocol v1 with the line loop and validators of
docs/templates/target.py, loaded from that file as it stands, so the wild
targets refuse exactly what the checked template refuses.
"""
import importlib.util
import math
import os
import sys

MAC_OPS = (
    "cursor.hash", "cursor.raw", "cursor.float", "cursor.int", "cursor.shuffle",
    "poker.deal", "shoe.deal", "shoe.tournament", "shoe.stream", "dice.roll",
    "selfpoker.commit", "ladder.shuffle",
)

# Request fields of each op, in protocol order (docs/protocol.md).
SEEDED = ["serverSeed", "clientSeed", "nonce"]
FIELDS = {
    "cursor.hash": ["serverSeed"],
    "cursor.raw": SEEDED + ["cursor"],
    "cursor.float": SEEDED + ["cursor"],
    "cursor.int": SEEDED + ["cursor", "range"],
    "cursor.shuffle": SEEDED + ["cursor", "count"],
    "poker.deal": SEEDED + ["players"],
    "shoe.deal": SEEDED + ["decks", "penetration"],
    "shoe.tournament": ["serverSeed", "tournamentId", "hand", "decks", "penetration"],
    "shoe.stream": SEEDED + ["count"],
    "dice.roll": ["serverSeed", "clientSeed", "n"],
    "selfpoker.commit": ["seed"],
    "ladder.shuffle": ["serverSeed", "clientSeed", "size"],
    "lucky.roll": SEEDED,
}

SUITS = "SHDC"
RANKS = "A23456789TJQK"


def js_round(x):
    """JavaScript's Math.round: halves go up (Python's round() goes to even)."""
    f = math.floor(x)
    return f + 1 if x - f >= 0.5 else f


class Scheme:
    """The ops of MAC_OPS over one package's primitives."""

    def __init__(self, hmac_sha256, sha256):
        self.mac = hmac_sha256
        self.sha256 = sha256

    # cursor (seed 003): one MAC per draw, raw = HMAC(serverSeed, "clientSeed:nonce:cursor")
    def raw(self, s, c, n, cursor):
        return self.mac(s, f"{c}:{n}:{cursor}")

    def int(self, s, c, n, rng, cursor):
        if rng == 1:
            return 0, cursor + 1  # no MAC, the cursor still moves
        k = max(1, ((rng - 1).bit_length() + 7) // 8)
        limit = 256**k - 256**k % rng
        while True:
            v = int.from_bytes(self.raw(s, c, n, cursor)[:k], "big")
            cursor += 1
            if v < limit:
                return v % rng, cursor

    def shuffle(self, s, c, n, cursor, count):
        order = list(range(count))
        for i in range(count - 1, 0, -1):
            j, cursor = self.int(s, c, n, i + 1, cursor)
            order[i], order[j] = order[j], order[i]
        return order, cursor

    # shoe (seed 000): one byte stream, block b = HMAC(serverSeed, "clientSeed:nonce:b")
    def stream(self, s, c, n):
        block = 0
        while True:
            yield from self.mac(s, f"{c}:{n}:{block}")
            block += 1

    @staticmethod
    def index(stream, m):
        k = 1
        while 256**k < m:
            k += 1
        limit = 256**k - 256**k % m
        while True:
            v = int.from_bytes(bytes(next(stream) for _ in range(k)), "big")
            if v < limit:
                return v % m

    def shoe(self, s, c, n, decks, penetration):
        cards = [r + u for _ in range(decks) for u in SUITS for r in RANKS]
        stream = self.stream(s, c, n)
        for i in range(len(cards) - 1, 0, -1):
            j = self.index(stream, i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        total = len(cards)
        spread = max(1, js_round(total * 0.02))
        cut = js_round(total * penetration) + self.index(stream, 2 * spread + 1) - spread
        cut = min(max(cut, max(20, js_round(total * 0.5))), total - 15)
        return {"cards": cards, "cut": cut}

    # dice (seed 001): the first byte below 252 in HMAC(serverSeed, "clientSeed:n:round"), 16 rounds
    def dice(self, s, c, n):
        for rnd in range(16):
            for b in self.mac(s, f"{c}:{n}:{rnd}"):
                if b < 252:
                    return b % 6 + 1
        return None

    # ladder (seed 004): eight big-endian u32 per HMAC(serverSeed, "clientSeed:b"), j = floor(v / 2^32 * (i + 1))
    def ladder(self, s, c, size):
        order = list(range(size))
        words = (int.from_bytes(blk[4 * w:4 * w + 4], "big")
                 for b in range(size) for blk in [self.mac(s, f"{c}:{b}")] for w in range(8))
        for i in range(size - 1, 0, -1):
            j = (next(words) * (i + 1)) >> 32
            order[i], order[j] = order[j], order[i]
        return order

    def ops(self):
        """op -> function(request) -> ok object, for every op of MAC_OPS."""
        seeds = lambda r: (r["serverSeed"], r["clientSeed"], r["nonce"])  # noqa: E731

        def cursor_float(r):
            b = self.raw(*seeds(r), r["cursor"])
            return {"float": b[0] / 256 + b[1] / 256**2 + b[2] / 256**3 + b[3] / 256**4}

        def cursor_int(r):
            value, nxt = self.int(*seeds(r), r["range"], r["cursor"])
            return {"value": value, "cursorNext": nxt}

        def cursor_shuffle(r):
            order, nxt = self.shuffle(*seeds(r), r["cursor"], r["count"])
            return {"order": order, "cursorNext": nxt}

        def poker_deal(r):
            deck, _ = self.shuffle(*seeds(r), 0, 52)
            p = r["players"]
            return {"hole": [[deck[i], deck[p + i]] for i in range(p)],
                    "board": [deck[2 * p + k] for k in (1, 2, 3, 5, 7)]}

        def shoe_stream(r):
            stream = self.stream(*seeds(r))
            return {"bytes": bytes(next(stream) for _ in range(r["count"])).hex()}

        def tournament(r):
            k = r["hand"]
            return self.shoe(r["serverSeed"], f"{r['tournamentId']}:{k}", k, r["decks"], r["penetration"])

        def dice_roll(r):
            face = self.dice(r["serverSeed"], r["clientSeed"], r["n"])
            if face is None:
                raise Exhausted(f"die {r['n']}: no byte below 252 in 16 rounds")
            return {"face": face}

        return {
            "cursor.hash": lambda r: {"hash": self.sha256(r["serverSeed"]).hex()},
            "cursor.raw": lambda r: {"raw": self.raw(*seeds(r), r["cursor"]).hex()},
            "cursor.float": cursor_float,
            "cursor.int": cursor_int,
            "cursor.shuffle": cursor_shuffle,
            "poker.deal": poker_deal,
            "shoe.deal": lambda r: self.shoe(*seeds(r), r["decks"], r["penetration"]),
            "shoe.tournament": tournament,
            "shoe.stream": shoe_stream,
            "dice.roll": dice_roll,
            "selfpoker.commit": lambda r: {"commit": self.sha256(f"selfpoker:{r['seed']}").hex()},
            "ladder.shuffle": lambda r: {"order": self.ladder(r["serverSeed"], r["clientSeed"], r["size"])},
        }


class Exhausted(Exception):
    """dice.roll ran out of rounds: answered with kind `exhausted`."""


class Declined(Exception):
    """The package has no answer of its own for this request (it would make
    one up): answered with kind `declined`, which the harness counts as
    skipped with the reason, never as agreement."""


def template():
    """docs/templates/target.py as a module: its reading, validating and answering."""
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "docs", "templates", "target.py")
    spec = importlib.util.spec_from_file_location("provably_template", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def serve(name, ops):
    """Serves `ops` ({op: function(request) -> ok}) as protocol v1 on stdin/stdout."""
    t = template()
    t.NAME = name
    t.OPS = {op: (FIELDS[op], fn) for op, fn in ops.items()}
    answer = t.answer

    def answer_exhausted(line):
        try:
            return answer(line)
        except Exhausted as e:
            return t.error(t.parse(line).get("id"), "exhausted", str(e))
        except Declined as e:
            return t.error(t.parse(line).get("id"), "declined", str(e))

    t.answer = answer_exhausted
    return t.main()


if __name__ == "__main__":
    sys.exit("scheme.py is a library: run one of reference/wild/*_target.py")
