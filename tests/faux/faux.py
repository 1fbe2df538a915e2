#!/usr/bin/env python3
"""faux.py MODE — a deliberately broken protocol-v1 target ("fauxmplementation").

The harness is only as good as the faults it notices. This one program,
started as `python3 tests/faux/faux.py MODE`, misbehaves in exactly one way
chosen by MODE, so each of the harness's fault classes can be provoked on
purpose. Apart from its fault it is a correct target for the five `cursor`
operations (seed 003), written here from the scheme with hmac/hashlib, and
it claims those five ops in hello (or those of them the comma-separated
environment variable FAUX_OPS names: empty, none).

Requests are counted by input line: hello is request 0, the first request
after it is request 1, and so on; blank lines (spaces and tabs only) get no
answer and are not counted. Every answered line is flushed at once.

Modes:

  correct           No fault. Must pass every cursor vector and property.
  crash             Answers requests 0-5, then writes a Python-traceback-like
                    message to stderr and exits with status 3 without reading
                    further.
  hang              Answers hello, then never answers again: sleeps forever
                    without reading stdin (so it also ignores EOF).
  slow-start        Sleeps 60 s before it reads hello, then behaves correctly.
  garbage           Answers request 3 with the line `not json at all`.
  wrong-id          Answers request 3 with the right body under id + 1.
  too-few           Reads request 3 and silently answers nothing for it; the
                    answers to later requests come one line "early".
  too-many          Answers request 3 twice (two identical lines).
  huge-line         Answers request 3 with one line of 100 MiB of valid JSON
                    (`{"id":3,"ok":{"raw":"000…"}}`), written in 1 MiB chunks.
  stderr-flood      While handling request 2 writes 50 MiB to stderr, then
                    answers it correctly.
  bad-utf8          Answers request 3 with a line that holds the bytes
                    0xff 0xfe inside a JSON string (not UTF-8).
  lies-unsupported  Claims cursor.int in hello, answers every cursor.int with
                    kind `unsupported`.
  subtle            cursor.int rejects only v > limit instead of v >= limit,
                    so it accepts v == limit (and answers 0 there). Only rare
                    inputs diverge: a range that is not a power of two, and a
                    raw value that hits the limit exactly (about 1 in 256^k).
                    cursor.shuffle still uses the correct draw.
  subtle-shuffle    cursor.shuffle draws j = int(i) instead of int(i + 1), but
                    only when count > 100; a shrinker should find count = 101.
  exit-nonzero      Answers everything correctly, exits with status 1 at EOF.

Hostile modes: a target that tries to make the harness lie or run out of
memory, or to outlive it.

  terminal-escapes  Its hello name, its stderr and a wrong answer to request 3
                    hold a screen clear (ESC [2J), a carriage return, a forged
                    "ALL TARGETS AGREE" summary and a right-to-left override.
  noncharacters     Answers request 3 wrongly with U+FFFE and U+FFFF in a value
                    and writes them to stderr (XML 1.0 cannot carry them).
  invisible         Answers request 3 wrongly with one character of every
                    class a human cannot see (controls, bidi, zero-width,
                    private use, noncharacters) in a value and in stderr.
  huge-answers      Pads each of the first 64 answers with whitespace to just
                    under 16 MiB (still valid JSON, still the right value).
  huge-wrong        Answers every request with an extra field of 15 MiB:
                    every answer diverges, each just under the line cap.
  partial           A verifier that supports only cursor 0: declines every
                    request with another cursor (kind `declined`), answers
                    the others correctly.
  declines-all      Declines every request of every op it claims.

Planted HMAC-input bugs: one cause, seen in every op downstream of the MAC.

  latin1-key        Encodes the server seed (the HMAC key) as latin-1, a
                    character latin-1 lacks as "?", instead of UTF-8.
  float-nonce       Writes the nonce of the HMAC message as a float ("1.0").

Stake's Limbo: these modes also claim stake.limbo (correct for the cursor ops).

  limbo-fair        Answers stake.limbo as the fair crate 0.0.13 reads it:
                    1e8/(floor(f*1e8)+1)*0.99 down to two decimals, with no
                    clamp at 1 (0.99 where the canonical reading answers 1).
  limbo-docs        Answers stake.limbo by the docs' 1e8/(f*1e8)*0.99.

  random-wrong      Claims every op of harness/protocol.schema.json and
                    answers each request (valid or not) with a random wrong
                    answer: fields of random types and sizes, missing or
                    extra fields, random error kinds. The harness must
                    survive any answer; FAUX_SEED varies the answers.
  setsid-child      Starts a child in a session of its own that sleeps an hour
                    (its pid goes to the file $FAUX_CHILD_PID), then serves
                    correctly.
  workflow-commands Tries to take over the GitHub Actions runner through
                    provably's output: claims cursor.int, cursor.float and
                    blackjack.strategy; refuses every cursor.int with a
                    message whose line feeds start `::stop-commands::` and a
                    forged `::error`; answers cursor.float and a hello name
                    with `##[error]` texts, and every blackjack.strategy with
                    a `##[error]` action of 200 KB; writes the same to stderr
                    and exits with status 1 at EOF.

In every mode, FAUX_CRASH_AT=N makes it crash as `crash` does, right after
it answered request N.
"""
import hashlib
import hmac
import json
import math
import os
import sys
import time

MODES = (
    "correct", "crash", "hang", "slow-start", "garbage", "wrong-id", "too-few", "too-many",
    "huge-line", "stderr-flood", "bad-utf8", "lies-unsupported", "subtle", "subtle-shuffle",
    "exit-nonzero", "terminal-escapes", "noncharacters", "huge-answers", "setsid-child",
    "partial", "declines-all", "latin1-key", "float-nonce", "random-wrong",
    "invisible", "huge-wrong", "limbo-fair", "limbo-docs", "workflow-commands",
)
# What a workflow-commands target sends: commands at a line's start (after a
# line break of any kind) and the legacy `##[` marker anywhere.
FORGED = ("nope\n::stop-commands::x\n::error file=src/lib.rs,line=1::forged\r::warning::cr"
          "\x0b::notice::vt\x0c::error::ff\x85::error::nel\u2028::error::ls\u2029::error::ps")
LEGACY = "##[error]forged ##[ERROR]forged ###[warning]forged"

INVISIBLE = ("\x1b\x07\r\x7f\x9b\xa0\xad\u061c\u200b\u200d\u200e\u2028\u202e\u2060\u2068"
             "\ue000\uf8ff\ufdd0\ufdef\ufe0f\ufeff\ufffe\uffff\U0001fffe\U000e0020\U000f0000"
             "\U00100000\U0010ffff")
MODE = "correct"
HOSTILE = "\x1b[2J\r\nALL TARGETS AGREE\u202e"
MIB = 1 << 20
MAX_INT = 2**53 - 1


# --- the cursor scheme, correct unless MODE says otherwise -------------------

def mac(server_seed, client_seed, nonce, cursor):
    shown = float(nonce) if MODE == "float-nonce" else nonce
    msg = f"{client_seed}:{shown}:{cursor}".encode("utf-8")
    if MODE == "latin1-key":
        key = server_seed.encode("latin-1", "replace")
    else:
        key = server_seed.encode("utf-8")
    return hmac.new(key, msg, hashlib.sha256).digest()


def draw(rng, req, cursor, accept_limit=False):
    """(value, next cursor). accept_limit=True is the `subtle` fault."""
    if rng == 1:
        return 0, cursor + 1
    k = max(1, ((rng - 1).bit_length() + 7) // 8)
    limit = 256**k - 256**k % rng
    while True:
        v = int.from_bytes(mac(req["serverSeed"], req["clientSeed"], req["nonce"], cursor)[:k], "big")
        cursor += 1
        if (v > limit) if accept_limit else (v >= limit):
            continue
        return v % rng, cursor


def op_hash(req, mode):
    return {"hash": hashlib.sha256(req["serverSeed"].encode("utf-8")).hexdigest()}


def op_raw(req, mode):
    return {"raw": mac(req["serverSeed"], req["clientSeed"], req["nonce"], req["cursor"]).hex()}


def op_float(req, mode):
    b = mac(req["serverSeed"], req["clientSeed"], req["nonce"], req["cursor"])
    return {"float": b[0] / 256 + b[1] / 256**2 + b[2] / 256**3 + b[3] / 256**4}


def op_int(req, mode):
    value, cursor = draw(req["range"], req, req["cursor"], accept_limit=(mode == "subtle"))
    return {"value": value, "cursorNext": cursor}


def op_shuffle(req, mode):
    count = req["count"]
    off_by_one = mode == "subtle-shuffle" and count > 100
    order, cursor = list(range(count)), req["cursor"]
    for i in range(count - 1, 0, -1):
        j, cursor = draw(i if off_by_one else i + 1, req, cursor)
        order[i], order[j] = order[j], order[i]
    return {"order": order, "cursorNext": cursor}


SEEDS = ["serverSeed", "clientSeed", "nonce", "cursor"]
OPS = {
    "cursor.hash": (["serverSeed"], op_hash),
    "cursor.raw": (SEEDS, op_raw),
    "cursor.float": (SEEDS, op_float),
    "cursor.int": (SEEDS + ["range"], op_int),
    "cursor.shuffle": (SEEDS + ["count"], op_shuffle),
}


def op_limbo(req, mode):
    """Stake's Limbo on the first float of HMAC(serverSeed, "clientSeed:nonce:0")."""
    b = hmac.new(req["serverSeed"].encode("utf-8"), f"{req['clientSeed']}:{req['nonce']}:0".encode("utf-8"),
                 hashlib.sha256).digest()
    f = sum(b[i] / 256 ** (i + 1) for i in range(4))
    if mode == "limbo-docs":
        x = math.floor(1e8 / (f * 1e8) * 0.99 * 100) / 100
    else:
        x = math.floor(1e8 / (math.floor(f * 1e8) + 1) * 0.99 * 100) / 100
    if mode != "limbo-fair":
        x = max(x, 1.0)
    return {"multiplier": int(x) if x == int(x) else x}


LIMBO_OPS = {"stake.limbo": (["serverSeed", "clientSeed", "nonce"], op_limbo)}
LIMITS = {"nonce": (0, MAX_INT), "cursor": (0, MAX_INT), "range": (1, MAX_INT), "count": (0, 100000)}


# --- protocol ------------------------------------------------------------------

class Invalid(Exception):
    pass


def check(name, v):
    if name in ("serverSeed", "clientSeed"):
        if not isinstance(v, str):
            raise Invalid(f"{name}: expected a string")
        try:
            v.encode("utf-8")
        except UnicodeEncodeError:
            raise Invalid(f"{name}: contains a lone surrogate") from None
        return
    lo, hi = LIMITS[name]
    if type(v) is not int:  # excludes bool and 1.0
        raise Invalid(f"{name}: expected an integer")
    if not lo <= v <= hi:
        raise Invalid(f"{name}: {v} is outside {lo} … {hi}")


def no_constants(name):
    raise Invalid(f"not JSON: {name}")


def twice(pairs):
    keys = [k for k, _ in pairs]
    obj = dict(pairs)
    if len(obj) != len(keys):
        # json.loads would keep the last value silently. JSON keys are always
        # strings, so the key None cannot clash with a field.
        obj[None] = sorted({k for k in keys if keys.count(k) > 1})
    return obj


def err(rid, kind, message):
    message = message.encode("utf-8", "backslashreplace").decode("utf-8")
    return {"id": rid, "error": {"kind": kind, "message": message}}


def answer(line, mode):
    try:
        req = json.loads(line.decode("utf-8"), object_pairs_hook=twice, parse_constant=no_constants)
    except UnicodeDecodeError:
        return err(None, "invalid", "not UTF-8")
    except (ValueError, RecursionError, Invalid) as e:
        return err(None, "invalid", f"not JSON: {e}")
    if not isinstance(req, dict):
        return err(None, "invalid", "the request is not a JSON object")
    rid = req.get("id")
    if type(rid) is not int or "id" in req.get(None, ()):
        return err(None, "invalid", "id: missing, repeated or not an integer")
    op = req.get("op")
    try:
        if None in req:
            raise Invalid(f"{req[None][0]}: appears twice")
        if not isinstance(op, str):
            raise Invalid("op: missing or not a string")
        if op == "hello":
            takes = ["protocol"]
        elif op in OPS:
            takes = OPS[op][0]
        else:
            return err(rid, "unsupported", f"{op}: not implemented here")
        extra = [k for k in req if k not in ("id", "op") and k not in takes]
        if extra:
            raise Invalid(f"{extra[0]}: not a field of {op}")
        missing = [k for k in takes if k not in req]
        if missing:
            raise Invalid(f"{missing[0]}: missing")
        if op == "hello":
            if type(req["protocol"]) is not int or req["protocol"] != 1:
                raise Invalid("protocol: only version 1 is spoken")
            name = f"faux {mode}" + (HOSTILE if mode == "terminal-escapes" else "")
            claimed = os.environ.get("FAUX_OPS")
            ops = list(OPS) if claimed is None else [o for o in claimed.split(",") if o in OPS]
            return {"id": rid, "ok": {"name": name, "ops": ops}}
        for name in takes:
            check(name, req[name])
    except Invalid as e:
        return err(rid, "invalid", str(e))
    if mode == "declines-all" or (mode == "partial" and req.get("cursor", 0) != 0):
        return err(rid, "declined", "only cursor 0 is supported here")
    if mode == "lies-unsupported" and op == "cursor.int":
        return err(rid, "unsupported", "cursor.int: not implemented here (although hello said so)")
    return {"id": rid, "ok": OPS[op][1](req, mode)}


# --- the faults ------------------------------------------------------------------

def send(data):
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def encode(response):
    return json.dumps(response, separators=(",", ":")).encode("ascii") + b"\n"


FAKE_TRACEBACK = """\
Traceback (most recent call last):
  File "tests/faux/faux.py", line 241, in <module>
    sys.exit(main(sys.argv))
  File "tests/faux/faux.py", line 214, in serve
    response = answer(line, mode)
  File "tests/faux/faux.py", line 160, in answer
    raise RuntimeError("deliberate crash")
RuntimeError: faux crash: deliberate crash after request 5
"""


def start_detached_child():
    """A grandchild that leaves the process group: only a subreaper catches it."""
    pid = os.fork()
    if pid == 0:
        os.setsid()
        if os.fork() == 0:
            with open(os.environ["FAUX_CHILD_PID"], "w") as f:
                f.write(str(os.getpid()))
            time.sleep(3600)
        os._exit(0)
    os.waitpid(pid, 0)


def wrong(response, text):
    """The same answer with every string of its ok object replaced by `text`."""
    ok = response.get("ok")
    if isinstance(ok, dict):
        for k, v in ok.items():
            if isinstance(v, str):
                ok[k] = text
            elif isinstance(v, int) and not isinstance(v, bool):
                ok[k] = v + 1
    return response


def random_ok_fields():
    """Every op's ok fields and their JSON types, from the protocol schema."""
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "harness", "protocol.schema.json"), encoding="utf-8") as f:
        defs = json.load(f)["$defs"]
    out = {}
    for name, schema in defs.items():
        if name.startswith("ok:") and name != "ok:hello":
            props = schema.get("properties", {})
            out[name[3:]] = {k: v.get("type", "any") for k, v in props.items()}
    return out


def random_value(rng, kind, depth=0):
    if depth > 1:
        kind = rng.choice(["integer", "number", "string", "null", "boolean"])
    elif rng.random() < 0.3:
        kind = rng.choice(["integer", "number", "string", "array", "null", "object", "boolean"])
    if kind == "integer":
        return rng.choice([0, 1, -1, 2**53, 2**64, rng.randrange(-10**6, 10**6), rng.randrange(0, 60)])
    if kind == "number":
        return rng.choice([0.0, -0.0, 1.5, 1e308, rng.random(), 3.0])
    if kind == "string":
        return rng.choice(["", "x", "\u202e\ue000", "ff" * rng.randrange(0, 70), "AS", "stehen", "zz"])
    if kind == "array":
        n = rng.choice([0, 1, 2, 5, 52, rng.randrange(0, 400)])
        item = rng.choice(["integer", "string", "array", "integer"])
        return [random_value(rng, item, depth + 1) for _ in range(n)]
    if kind == "object":
        return {"a": random_value(rng, "integer", depth + 1)}
    if kind == "boolean":
        return rng.random() < 0.5
    return None


def random_answer(line, seed, fields):
    """A random wrong answer to one request line, under its own id."""
    import random
    import zlib
    rng = random.Random(zlib.crc32(line) ^ seed)
    try:
        req = json.loads(line.decode("utf-8"))
        rid = req.get("id") if isinstance(req, dict) and type(req.get("id")) is int else None
        op = req.get("op") if isinstance(req, dict) else None
    except (ValueError, UnicodeDecodeError, RecursionError):
        rid, op = None, None
    if op == "hello":
        return {"id": rid, "ok": {"name": "faux random-wrong", "ops": list(fields)}}
    if rid is None:
        return err(None, "invalid", "not a request")
    if rng.random() < 0.15:
        return err(rid, rng.choice(["invalid", "exhausted", "declined"]), "random")
    ok = {k: random_value(rng, t) for k, t in fields.get(op, {}).items()}
    if ok and rng.random() < 0.1:
        ok.pop(rng.choice(list(ok)))
    if rng.random() < 0.1:
        ok["extra"] = 1
    if op == "ladder.shuffle" and rng.random() < 0.2:
        ok = {"order": [1]}
    return {"id": rid, "ok": ok}


def serve_random(seed):
    fields = random_ok_fields()
    for line in sys.stdin.buffer:
        if not line.strip(b" \t\r\n"):
            continue
        send(json.dumps(random_answer(line, seed, fields), separators=(",", ":")).encode("utf-8") + b"\n")
    return 0


def workflow_commands(line):
    """The answer of the workflow-commands mode to one request line."""
    try:
        req = json.loads(line.decode("utf-8"))
        rid, op = req["id"], req["op"]
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        return err(None, "invalid", FORGED)
    if op == "hello":
        ops = ["cursor.int", "cursor.float", "blackjack.strategy"]
        return {"id": rid, "ok": {"name": "faux " + LEGACY, "ops": ops}}
    if op == "cursor.int":
        return err(rid, "invalid", FORGED)
    if op == "cursor.float":
        return {"id": rid, "ok": {"float": LEGACY + "\n" + FORGED, "cursorNext": 1}}
    if op == "blackjack.strategy":
        return {"id": rid, "ok": {"action": f"{LEGACY} {rid} " + "x" * 200_000}}
    return err(rid, "unsupported", FORGED)


def serve(mode):
    global MODE
    MODE = mode
    if mode.startswith("limbo-"):
        OPS.update(LIMBO_OPS)
    if mode == "random-wrong":
        return serve_random(int(os.environ.get("FAUX_SEED", "0")))
    if mode == "slow-start":
        time.sleep(60)
    if mode == "setsid-child":
        start_detached_child()
    if mode == "terminal-escapes":
        sys.stderr.write("faux" + HOSTILE + "\n")
        sys.stderr.flush()
    if mode == "invisible":
        sys.stderr.buffer.write(("faux " + INVISIBLE + "\n").encode("utf-8", "surrogatepass"))
        sys.stderr.flush()
    if mode == "noncharacters":
        sys.stderr.buffer.write("faux \ufffe\uffff\n".encode("utf-8"))
        sys.stderr.flush()
    if mode == "workflow-commands":
        sys.stderr.write(FORGED + "\n" + LEGACY + "\n")
        sys.stderr.flush()
    crash_at = int(os.environ.get("FAUX_CRASH_AT", "-1"))
    number = -1
    for line in sys.stdin.buffer:
        # A blank line is no request: no answer, and it is not counted.
        if not line.strip(b" \t\r\n"):
            continue
        number += 1
        if mode == "stderr-flood" and number == 2:
            chunk = (b"faux stderr-flood: this is noise, keep answering" + b"." * 15 + b"\n") * 1024
            for _ in range(50 * MIB // len(chunk)):
                sys.stderr.buffer.write(chunk)
            sys.stderr.buffer.flush()
        response = workflow_commands(line) if mode == "workflow-commands" else answer(line, mode)
        if mode == "workflow-commands":
            send(json.dumps(response, separators=(",", ":"), ensure_ascii=False).encode("utf-8") + b"\n")
        elif number == 3 and mode == "garbage":
            send(b"not json at all\n")
        elif number == 3 and mode == "wrong-id":
            if type(response["id"]) is int:
                response["id"] += 1
            send(encode(response))
        elif number == 3 and mode == "too-few":
            pass
        elif number == 3 and mode == "too-many":
            send(encode(response) * 2)
        elif number == 3 and mode == "huge-line":
            rid = json.dumps(response["id"]).encode("ascii")
            sys.stdout.buffer.write(b'{"id":' + rid + b',"ok":{"raw":"')
            block = b"0" * MIB
            for _ in range(100):
                sys.stdout.buffer.write(block)
            send(b'"}}\n')
        elif number == 3 and mode == "terminal-escapes":
            send(json.dumps(wrong(response, HOSTILE), separators=(",", ":"), ensure_ascii=False).encode("utf-8") + b"\n")
        elif number >= 1 and mode == "huge-wrong" and "ok" in response:
            line = encode(response)
            send(line[:-3] + b',"pad":"' + b"x" * (15 * MIB) + b'"}}\n')
        elif number == 3 and mode == "invisible":
            send(json.dumps(wrong(response, INVISIBLE), separators=(",", ":"), ensure_ascii=False).encode("utf-8") + b"\n")
        elif number == 3 and mode == "noncharacters":
            send(json.dumps(wrong(response, "\ufffe\uffff"), separators=(",", ":"), ensure_ascii=False).encode("utf-8") + b"\n")
        elif 1 <= number <= 64 and mode == "huge-answers":
            line = encode(response)
            send(line[:-2] + b" " * (16 * MIB - 4096 - len(line)) + b"}\n")
        elif number == 3 and mode == "bad-utf8":
            rid = json.dumps(response["id"]).encode("ascii")
            send(b'{"id":' + rid + b',"ok":{"raw":"\xff\xfe"}}\n')
        else:
            send(encode(response))
        if number == 0 and mode == "hang":
            while True:
                time.sleep(3600)
        if (number == 5 and mode == "crash") or number == crash_at:
            sys.stderr.write(FAKE_TRACEBACK)
            sys.stderr.flush()
            return 3
    return 1 if mode in ("exit-nonzero", "workflow-commands") else 0


def main(argv):
    if len(argv) != 2 or argv[1] not in MODES:
        sys.stderr.write(f"usage: faux.py MODE, MODE one of: {' '.join(MODES)}\n")
        return 2
    try:
        return serve(argv[1])
    except BrokenPipeError:
        # The harness stopped reading (it may have given up on us on purpose).
        # Point stdout at /dev/null so that the flush at exit does not print
        # a second, misleading traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
