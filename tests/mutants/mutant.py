#!/usr/bin/env python3
"""A Python mutant: a selfpoker target on real numpy with one port slip.

    .venv/bin/python tests/mutants/mutant.py NAME

NAME is a Python entry of harness/bugs/catalog.json. The protocol half (strict reading,
the seed check, answering) is reference/adapters/selfpoker_protocol.py, the
same as the real numpy target's; only the deck differs, by the slip below.
"""
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent / "reference" / "adapters"))

from selfpoker_protocol import serve  # noqa: E402

try:
    import numpy
except ImportError:
    sys.stderr.write(f"mutant.py: numpy is not installed for {sys.executable}; use .venv/bin/python\n")
    sys.exit(2)


def legacy_randomstate(seed):
    # np.random.seed(seed) from an old tutorial: MT19937, which takes 32 bits.
    return numpy.random.RandomState(seed & 0xFFFFFFFF).permutation(52)


def seed_via_float(seed):
    # The seed went through a JSON number (a float) on its way in.
    return numpy.random.default_rng(int(float(seed))).permutation(52)


def integers_fisher_yates(seed):
    # Fisher-Yates written out with rng.integers: another bounded draw than permutation's.
    rng = numpy.random.default_rng(seed)
    deck = list(range(52))
    for i in range(51, 0, -1):
        j = int(rng.integers(0, i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def choice_without_replacement(seed):
    # "A random order of 52 cards" as a choice without replacement.
    return numpy.random.default_rng(seed).choice(52, 52, replace=False)


SLIPS = {
    "py-legacy-randomstate": legacy_randomstate,
    "py-seed-via-float": seed_via_float,
    "py-integers-fisher-yates": integers_fisher_yates,
    "py-choice-no-replace": choice_without_replacement,
}


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else ""
    if name == "--list":
        print("\n".join(SLIPS))
        return 0
    catalog = json.loads((HERE.parent.parent / "harness" / "bugs" / "catalog.json").read_text(encoding="utf-8"))
    entry = next((m for m in catalog["mutants"] if m["name"] == name and m.get("lang") == "python"), None)
    if entry is None or name not in SLIPS:
        sys.stderr.write(f"mutant.py: no Python mutant {name!r} in catalog.json and SLIPS\n")
        return 2
    slip = SLIPS[name]
    ops = {"selfpoker.deck": lambda seed: {"deck": [int(c) for c in slip(seed)]}}
    return serve(f"mutant {name} (numpy {numpy.__version__})", {op: ops[op] for op in entry["ops"]})


if __name__ == "__main__":
    sys.exit(main())
