#!/usr/bin/env python3
"""The PyPI package `provablyfair` through its own public API, where it
overlaps protocol v1. Manifests: harness/wild/provablyfair-*.toml.

What the package computes (provablyfair/__init__.py, 1.0.0):
- ProvablyFair.hash_server_seed(s) = sha256(s.encode()).hexdigest(): the
  commitment of every scheme here, cursor.hash;
- ProvablyFair(s).server_seed_hash: the same hash, of `s or token_hex(32)`:
  the constructor replaces any falsy seed (the empty string) by a random one;
- ProvablyFair(s).roll(client_seed, nonce): HMAC-SHA512(s, "client-nonce")
  read five hex digits at a time, the first below 1,000,000: the lucky
  number of Primedice's classic scheme (lucky.roll); when no group is kept
  it takes the last three hex digits (lucky.roll's reading `last-three`).

So this target answers cursor.hash one of two ways, or lucky.roll:
    provablyfair_target.py hash_server_seed
    provablyfair_target.py constructor
    provablyfair_target.py roll
"""
import sys
from importlib.metadata import version

from provablyfair import ProvablyFair

from scheme import Declined, serve


def by_method(r):
    seed = r["serverSeed"]
    return {"hash": ProvablyFair(seed).hash_server_seed(seed)}


def by_constructor(r):
    return {"hash": ProvablyFair(r["serverSeed"]).server_seed_hash}


def by_roll(r):
    # The package's RolledData.roll is the lucky number; the roll a site shows
    # is (lucky mod 10^4)/100, the one step of lucky.roll the package leaves
    # to its caller (written as an integer when whole, as JSON numbers are).
    if not r["serverSeed"]:
        # The constructor keeps `server_seed or generate_server_seed()`: the
        # roll of an empty seed is a new random one on every call, so its
        # symptom (which group, which field) changes from run to run.
        raise Declined("the package replaces an empty server seed by a random one")
    lucky = ProvablyFair(r["serverSeed"]).roll(r["clientSeed"], r["nonce"]).roll
    hundredths = lucky % 10_000
    roll = hundredths // 100 if hundredths % 100 == 0 else hundredths / 100
    return {"lucky": lucky, "roll": roll}


WAYS = {"hash_server_seed": by_method, "constructor": by_constructor, "roll": by_roll}
OPS = {"roll": "lucky.roll"}
WHAT = {
    "hash_server_seed": "ProvablyFair(s).hash_server_seed(s)",
    "constructor": "ProvablyFair(s).server_seed_hash",
    "roll": "ProvablyFair(s).roll(client, nonce).roll",
}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in WAYS:
        sys.exit(f"usage: provablyfair_target.py {'|'.join(WAYS)}")
    way = sys.argv[1]
    sys.exit(serve(f"provablyfair {version('provablyfair')} ({WHAT[way]})", {OPS.get(way, "cursor.hash"): WAYS[way]}))
