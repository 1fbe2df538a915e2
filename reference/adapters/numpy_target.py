#!/usr/bin/env python3
"""Protocol-v1 target for the selfpoker scheme (seed 002), backed by real numpy.

    selfpoker.commit  {"seed": "123"} -> {"commit": sha256("selfpoker:123")}
    selfpoker.deck    {"seed": "123"} -> {"deck": numpy.random.default_rng(123).permutation(52)}

The page deals from `numpy.random.default_rng(seed).permutation(52)`, so the
only trustworthy oracle for our own numpy-free reimplementation is numpy
itself. Run it with the project virtualenv's python (the Makefile installs
numpy there); it says so on stderr and exits 2 if numpy is missing.

The protocol half (strict parsing, the seed check) is selfpoker_protocol.py,
shared with selfpoker_page_target.py.
"""
import hashlib
import sys

from selfpoker_protocol import serve

try:
    import numpy
except ImportError:
    sys.stderr.write(
        "numpy_target.py: numpy is not installed for this python "
        f"({sys.executable}); run it with the project virtualenv (.venv/bin/python)\n"
    )
    sys.exit(2)

NAME = f"numpy {numpy.__version__} (python {sys.version.split()[0]})"


def commit(seed):
    return {"commit": hashlib.sha256(f"selfpoker:{seed}".encode("utf-8")).hexdigest()}


def deck(seed):
    # int() per card: numpy's int64 is not JSON-serialisable.
    return {"deck": [int(c) for c in numpy.random.default_rng(seed).permutation(52)]}


OPS = {"selfpoker.commit": commit, "selfpoker.deck": deck}

if __name__ == "__main__":
    sys.exit(serve(NAME, OPS))
