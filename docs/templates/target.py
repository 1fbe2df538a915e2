#!/usr/bin/env python3
"""A minimal `provably` target, protocol v1, standard library only.

It implements the five `cursor` operations (seed 003) and passes the harness
as it is:

    provably diff --target-cmd 'python3 docs/templates/target.py'

To check your own implementation, copy this file, replace the bodies of the
`op_*` functions with calls into your code, and list in OPS only what you
implement. Leave the reading, validating and answering below alone: it is
what the protocol asks for (docs/protocol.md), and every line of it has
been checked against the harness.

The shape of the program: read one line, answer one line, flush, repeat;
exit 0 when stdin closes. A malformed line is answered with kind `invalid`
and the target keeps serving. Two rules every target follows:

- A blank line (empty, or only spaces, tabs and CR) is not a request and
  gets no answer at all.
- A JSON object with an integer `id` is always answered with that id, even
  when the rest is wrong: a lone surrogate such as "\ud800" (json.loads lets
  it through), a repeated key, an unknown op. Only a line that is not a JSON
  object, or has no integer id, is answered with "id": null.
"""
import hashlib
import hmac
import json
import re
import sys

NAME = "template-python 1"

# --------------------------------------------------------------------------
# The operations. Replace these bodies with calls into your implementation.
# Each receives the validated request and returns the `ok` object.


def hmac_raw(server_seed, client_seed, nonce, cursor):
    # The key is the server seed as UTF-8 text, never hex-decoded.
    message = f"{client_seed}:{nonce}:{cursor}".encode("utf-8")
    return hmac.new(server_seed.encode("utf-8"), message, hashlib.sha256).digest()


def draw_int(rng, server_seed, client_seed, nonce, cursor):
    """Returns (value, next cursor): uniform in 0 .. rng-1, by rejection."""
    if rng == 1:
        return 0, cursor + 1
    k = max(1, ((rng - 1).bit_length() + 7) // 8)
    limit = 256**k - (256**k % rng)
    while True:
        v = int.from_bytes(hmac_raw(server_seed, client_seed, nonce, cursor)[:k], "big")
        cursor += 1
        if v < limit:
            return v % rng, cursor


def op_hash(r):
    return {"hash": hashlib.sha256(r["serverSeed"].encode("utf-8")).hexdigest()}


def op_raw(r):
    mac = hmac_raw(r["serverSeed"], r["clientSeed"], r["nonce"], r["cursor"])
    return {"raw": mac.hex()}


def op_float(r):
    b = hmac_raw(r["serverSeed"], r["clientSeed"], r["nonce"], r["cursor"])
    return {"float": b[0] / 256 + b[1] / 256**2 + b[2] / 256**3 + b[3] / 256**4}


def op_int(r):
    value, cursor = draw_int(r["range"], r["serverSeed"], r["clientSeed"], r["nonce"], r["cursor"])
    return {"value": value, "cursorNext": cursor}


def op_shuffle(r):
    order = list(range(r["count"]))
    cursor = r["cursor"]
    for i in range(r["count"] - 1, 0, -1):
        j, cursor = draw_int(i + 1, r["serverSeed"], r["clientSeed"], r["nonce"], cursor)
        order[i], order[j] = order[j], order[i]
    return {"order": order, "cursorNext": cursor}


# op -> (the request fields it takes, the function that answers it).
# The hello answer claims exactly these keys.
OPS = {
    "cursor.hash": (["serverSeed"], op_hash),
    "cursor.raw": (["serverSeed", "clientSeed", "nonce", "cursor"], op_raw),
    "cursor.float": (["serverSeed", "clientSeed", "nonce", "cursor"], op_float),
    "cursor.int": (["serverSeed", "clientSeed", "nonce", "cursor", "range"], op_int),
    "cursor.shuffle": (["serverSeed", "clientSeed", "nonce", "cursor", "count"], op_shuffle),
}

# --------------------------------------------------------------------------
# Validation. Each check raises Invalid with a message that names the field.

MAX_INT = 2**53 - 1  # the largest integer every JSON reader keeps exactly


class Invalid(Exception):
    pass


def string(name, v):
    if not isinstance(v, str):
        raise Invalid(f"{name}: expected a string, got {kind_of(v)}")
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:
        # json.loads lets "\ud800" through; it is not a Unicode scalar value.
        raise Invalid(f"{name}: contains a lone surrogate") from None


def integer(lo, hi):
    def check(name, v):
        # bool is a subclass of int in Python, and 1.0 is not a JSON integer.
        if type(v) is not int:
            raise Invalid(f"{name}: expected an integer, got {kind_of(v)}")
        if v < lo:
            raise Invalid(f"{name}: {v} is below the limit {lo}")
        if v > hi:
            raise Invalid(f"{name}: {v} is above the limit {hi}")
    return check


def penetration(name, v):
    if type(v) not in (int, float) or not 0 < v < 1:
        raise Invalid(f"{name}: expected a number strictly between 0 and 1, got {json.dumps(v)}")


def cards(name, v):
    if not isinstance(v, list) or not 5 <= len(v) <= 7:
        raise Invalid(f"{name}: expected a list of 5 to 7 cards")
    for c in v:
        integer(0, 51)(name, c)
    if len(set(v)) != len(v):
        raise Invalid(f"{name}: cards repeat")


DECIMAL = re.compile(r"0|[1-9][0-9]{0,18}")  # [0-9], not \d: \d matches other scripts' digits


def seed(name, v):
    string(name, v)
    if not DECIMAL.fullmatch(v) or int(v) >= 2**63:
        raise Invalid(f"{name}: expected plain decimal digits for 0 … 2^63-1, got {json.dumps(v)}")


# Every field of protocol v1, so that ops you add are validated too.
FIELDS = {
    "serverSeed": string,
    "clientSeed": string,
    "tournamentId": string,
    "nonce": integer(0, MAX_INT),
    "cursor": integer(0, MAX_INT),
    "n": integer(0, MAX_INT),
    "hand": integer(0, MAX_INT),
    "range": integer(1, MAX_INT),
    "count": integer(0, 100000),
    "players": integer(2, 22),
    "decks": integer(1, 8),
    "size": integer(1, 100000),
    "penetration": penetration,
    "cards": cards,
    "seed": seed,
}


def kind_of(v):
    # Objects come from parse() as Object, a dict subclass.
    return {Object: "an object", dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            int: "an integer", float: "a number", type(None): "null"}[type(v)]


class Object(dict):
    """A JSON object that remembers the keys it had twice (json.loads keeps the last)."""
    twice = ()


def parse(line):
    def keep_duplicates(pairs):
        obj = Object(pairs)
        if len(obj) != len(pairs):
            keys = [k for k, _ in pairs]
            obj.twice = sorted({k for k in keys if keys.count(k) > 1})
        return obj

    def reject_constant(name):
        raise Invalid(f"not JSON: {name} is not a JSON number")

    try:
        text = line.decode("utf-8")
        return json.loads(text, object_pairs_hook=keep_duplicates, parse_constant=reject_constant)
    except UnicodeDecodeError:
        raise Invalid("not UTF-8") from None
    except (ValueError, RecursionError) as e:
        # ValueError covers JSONDecodeError and Python's 4300-digit limit on integers.
        raise Invalid(f"not JSON: {e}") from None


def error(rid, kind, message):
    # A message may quote the request, and a lone surrogate from it would make
    # our own line unreadable; spell such characters out as \udxxx text.
    message = message.encode("utf-8", "backslashreplace").decode("utf-8")
    return {"id": rid, "error": {"kind": kind, "message": message}}


def answer(line):
    """The response object for one request line."""
    try:
        request = parse(line)
    except Invalid as e:
        return error(None, "invalid", str(e))
    if not isinstance(request, dict):
        return error(None, "invalid", "the request is not a JSON object")
    rid = request.get("id")
    if "id" in request.twice:
        return error(None, "invalid", "id: appears twice")
    if type(rid) is not int:
        return error(None, "invalid", "id: missing or not an integer")

    op = request.get("op")
    try:
        if request.twice:
            raise Invalid(f"{request.twice[0]}: appears twice")
        if not isinstance(op, str):
            raise Invalid("op: missing or not a string")
        if op == "hello":
            takes, run = ["protocol"], None
        elif op in OPS:
            takes, run = OPS[op]
        else:
            return error(rid, "unsupported", f"{op}: not implemented here")
        for name in request:
            if name not in ("id", "op") and name not in takes:
                raise Invalid(f"{name}: not a field of {op}")
        for name in takes:
            if name not in request:
                raise Invalid(f"{name}: missing")
        if op == "hello":
            if type(request["protocol"]) is not int or request["protocol"] != 1:
                raise Invalid(f"protocol: only version 1 is spoken, got {json.dumps(request['protocol'])}")
            return {"id": rid, "ok": {"name": NAME, "ops": list(OPS)}}
        for name in takes:
            FIELDS[name](name, request[name])
    except Invalid as e:
        return error(rid, "invalid", str(e))
    return {"id": rid, "ok": run(request)}


def main():
    out = sys.stdout.buffer
    # Bytes, not text: a line that is not UTF-8 must be answered, not crash the loop.
    for line in sys.stdin.buffer:
        if not line.strip(b" \t\r\n"):
            continue  # a blank line is not a request: no answer
        response = json.dumps(answer(line), separators=(",", ":"))
        out.write(response.encode("ascii") + b"\n")
        # The harness waits for this line before it sends the next request.
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
