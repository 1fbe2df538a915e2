#!/usr/bin/env python3
"""The PyPI package `provablyfair` through its own public API, where it
overlaps protocol v1. Manifests: harness/wild/provablyfair-*.toml.

What the package computes (provablyfair/__init__.py, 1.0.0):
- ProvablyFair.hash_server_seed(s) = sha256(s.encode()).hexdigest(): the
  commitment of every scheme here, cursor.hash;
- ProvablyFair(s).server_seed_hash: the same hash, of `s or token_hex(32)`:
  the constructor replaces any falsy seed (the empty string) by a random one;
- ProvablyFair.roll(client_seed, nonce): HMAC-SHA512 of "client-nonce", read
  five hex digits at a time: a dice scheme of its own, in no op here.

So this target answers cursor.hash only, one of two ways:
    provablyfair_target.py hash_server_seed
    provablyfair_target.py constructor
"""
import sys
from importlib.metadata import version

from provablyfair import ProvablyFair

from scheme import serve


def by_method(r):
    seed = r["serverSeed"]
    return {"hash": ProvablyFair(seed).hash_server_seed(seed)}


def by_constructor(r):
    return {"hash": ProvablyFair(r["serverSeed"]).server_seed_hash}


WAYS = {"hash_server_seed": by_method, "constructor": by_constructor}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in WAYS:
        sys.exit(f"usage: provablyfair_target.py {'|'.join(WAYS)}")
    way = sys.argv[1]
    what = "ProvablyFair(s).hash_server_seed(s)" if way == "hash_server_seed" else "ProvablyFair(s).server_seed_hash"
    sys.exit(serve(f"provablyfair {version('provablyfair')} ({what})", {"cursor.hash": WAYS[way]}))
