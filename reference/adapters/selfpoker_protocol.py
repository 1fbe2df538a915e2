"""The protocol half of the two selfpoker targets (numpy_target.py and
selfpoker_page_target.py): reading request lines strictly, checking the
`seed` field, answering. Each target brings only its name and its ops.

`seed` is a string on the wire because a 63-bit integer does not survive a
JavaScript Number. It is checked strictly (plain decimal digits, no sign, no
leading zero, below 2^63) before numpy sees it: numpy would happily accept
"007", 2^64 or a negative number, and a target that accepts what the
protocol forbids hides bugs in the harness's invalid-input cases.
"""
import json
import re
import sys

DECIMAL = re.compile(r"0|[1-9][0-9]{0,18}")  # [0-9], not \d: \d also matches other scripts' digits


class Invalid(Exception):
    pass


def seed_of(value):
    if not isinstance(value, str):
        raise Invalid(f"seed: expected a string of decimal digits, got {type(value).__name__} {json.dumps(value)}")
    if not DECIMAL.fullmatch(value) or int(value) >= 2**63:
        raise Invalid(f"seed: expected plain decimal digits for 0 … 2^63-1, got {json.dumps(value)}")
    return int(value)


def error(rid, kind, message):
    # Keep a lone surrogate quoted from the request out of our own line.
    message = message.encode("utf-8", "backslashreplace").decode("utf-8")
    return {"id": rid, "error": {"kind": kind, "message": message}}


def parse(line):
    def pairs_hook(pairs):
        obj = dict(pairs)
        if len(obj) != len(pairs):
            # json.loads would keep the last value silently. JSON keys are
            # always strings, so the key None cannot clash with a field.
            keys = [k for k, _ in pairs]
            obj[None] = sorted({k for k in keys if keys.count(k) > 1})
        return obj

    def no_constant(name):
        raise Invalid(f"{name} is not JSON")

    return json.loads(line.decode("utf-8"), object_pairs_hook=pairs_hook, parse_constant=no_constant)


def answer(line, name, ops):
    try:
        request = parse(line)
    except UnicodeDecodeError:
        return error(None, "invalid", "not UTF-8")
    except (ValueError, RecursionError, Invalid) as e:
        return error(None, "invalid", f"not JSON: {e}")
    if not isinstance(request, dict):
        return error(None, "invalid", "the request is not a JSON object")
    twice = request.pop(None, [])
    rid = request.get("id")
    if type(rid) is not int or "id" in twice:
        return error(None, "invalid", "id: missing, repeated or not an integer")
    if twice:
        return error(rid, "invalid", f"{twice[0]}: appears twice")
    op = request.get("op")
    if not isinstance(op, str):
        return error(rid, "invalid", "op: missing or not a string")
    if op != "hello" and op not in ops:
        return error(rid, "unsupported", f"{op}: not implemented here")
    takes = "protocol" if op == "hello" else "seed"
    extra = [k for k in request if k not in ("id", "op", takes)]
    if extra:
        return error(rid, "invalid", f"{extra[0]}: not a field of {op}")
    if takes not in request:
        return error(rid, "invalid", f"{takes}: missing")
    if op == "hello":
        if type(request["protocol"]) is not int or request["protocol"] != 1:
            return error(rid, "invalid", f"protocol: only version 1 is spoken, got {json.dumps(request['protocol'])}")
        return {"id": rid, "ok": {"name": name, "ops": list(ops)}}
    try:
        seed = seed_of(request["seed"])
    except Invalid as e:
        return error(rid, "invalid", str(e))
    return {"id": rid, "ok": ops[op](seed)}


def serve(name, ops):
    """Answers protocol v1 lines on stdin until it closes; returns the exit status.

    A blank line (only spaces, tabs, CR) gets no answer; a JSON object with an
    integer id is answered with that id whatever else is wrong in it.
    """
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        if not line.strip(b" \t\r\n"):
            continue  # not a request
        out.write(json.dumps(answer(line, name, ops), separators=(",", ":")).encode("ascii") + b"\n")
        out.flush()
    return 0
