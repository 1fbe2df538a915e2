#!/usr/bin/env python3
"""Protocol-v1 target that runs the selfpoker page's own Python lines (seed 002).

The page prints six lines of Python for checking a hand
(reference/published/selfpoker.py, kept byte for byte):

    import hashlib
    import numpy as np
    graine = 1234567890123456789 # Feld "fairplay.seed" von hand_end
    commit = "..." # Feld "commit" der Zustandsnachrichten
    assert hashlib.sha256(f"selfpoker:{graine}".encode()).hexdigest() == commit
    paquet = list(np.random.default_rng(graine).permutation(52))

They are a verifier, not a function: `graine` and `commit` are placeholders
the reader pastes values into. This adapter makes them answer protocol
requests without changing a character of the file:

1. It parses the file with `ast` once, at start-up, and finds the one
   assignment `graine = …` and the one statement `assert <expr> == commit`.
   If the page's shape ever changes so that either is missing or doubled,
   it stops at once with a message (exit 2) rather than guess.
2. For each request it replaces the *value* node of the `graine` assignment
   with the requested seed as an integer literal, which is exactly what a
   reader does by hand.
3. `commit` is what we want to learn, not something we know. So at the
   assert it evaluates the assert's left-hand expression (the page's own
   hashing code) in the program's namespace, binds the result to `commit`,
   and then runs the assert itself as written — it now holds by
   construction, and still checks the page's statement end to end.
4. Every other statement runs verbatim, in order, in a fresh namespace, and
   the final `paquet` is the deck.

Ops: selfpoker.commit {"seed"} -> {"commit"}, selfpoker.deck {"seed"} -> {"deck"}.
`seed` is a string of plain decimal digits, 0 … 2^63-1, checked strictly
before the page sees it. Needs numpy (run it with the project virtualenv).
"""
import ast
import builtins
import sys
from pathlib import Path

from selfpoker_protocol import serve

PAGE = Path(__file__).resolve().parent.parent / "published" / "selfpoker.py"


def fail(message):
    sys.stderr.write(f"selfpoker_page_target.py: {message}\n")
    sys.exit(2)


def load_page():
    """Returns a list of steps, one per top-level statement of the page."""
    try:
        source = PAGE.read_text(encoding="utf-8")
    except OSError as e:
        fail(f"cannot read the published page code: {e}")
    module = ast.parse(source, filename=str(PAGE))

    def is_graine(node):
        return (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == "graine")

    def is_commit_check(node):
        return (isinstance(node, ast.Assert) and isinstance(node.test, ast.Compare)
                and len(node.test.ops) == 1 and isinstance(node.test.ops[0], ast.Eq)
                and isinstance(node.test.comparators[0], ast.Name)
                and node.test.comparators[0].id == "commit")

    for what, test in (("`graine = …`", is_graine), ("`assert … == commit`", is_commit_check)):
        found = sum(1 for node in module.body if test(node))
        if found != 1:
            fail(f"expected exactly one {what} statement in {PAGE}, found {found}")

    def compiled(node):
        return compile(ast.Module(body=[node], type_ignores=[]), str(PAGE), "exec")

    steps = []
    for node in module.body:
        if is_graine(node):
            steps.append(("graine", node))
        elif is_commit_check(node):
            left = compile(ast.Expression(body=node.test.left), str(PAGE), "eval")
            steps.append(("commit", (left, compiled(node))))
        else:
            steps.append(("verbatim", compiled(node)))
    return steps


STEPS = load_page()

try:
    # The page imports numpy itself; finding out now gives a message at
    # start-up instead of a traceback at the first request.
    import numpy  # noqa: F401
except ImportError:
    fail(f"numpy is not installed for this python ({sys.executable}); "
         "run it with the project virtualenv (.venv/bin/python)")


def run_page(seed):
    """Runs the page for one seed; returns (commit, deck)."""
    namespace = {"__name__": "selfpoker_page", "__builtins__": builtins}
    for kind, step in STEPS:
        if kind == "graine":
            value = ast.copy_location(ast.Constant(value=seed), step.value)
            node = ast.copy_location(ast.Assign(targets=step.targets, value=value), step)
            module = ast.fix_missing_locations(ast.Module(body=[node], type_ignores=[]))
            exec(compile(module, str(PAGE), "exec"), namespace)
        elif kind == "commit":
            left, assertion = step
            namespace["commit"] = eval(left, namespace)
            exec(assertion, namespace)
        else:
            exec(step, namespace)
    if "paquet" not in namespace:
        fail(f"{PAGE} no longer defines `paquet`")
    # int() per card: the page's list holds numpy int64, which JSON cannot take.
    return namespace["commit"], [int(card) for card in namespace["paquet"]]


def commit_op(seed):
    return {"commit": run_page(seed)[0]}


def deck_op(seed):
    return {"deck": run_page(seed)[1]}


OPS = {"selfpoker.commit": commit_op, "selfpoker.deck": deck_op}
NAME = "selfpoker page code (reference/published/selfpoker.py, run through ast)"

if __name__ == "__main__":
    sys.exit(serve(NAME, OPS))
