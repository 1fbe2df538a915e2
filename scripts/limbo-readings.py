"""How often Limbo's readings part, over every one of the 2^32 floats.

An implementation independent of the Rust one (numpy's binary64 does the
same IEEE operations in the same order as src/schemes/stake/readings.rs), run over
all 2^32 words u, f = u / 2^32 (docs/schemes.md, "Readings"):

  canonical  max(1, floor2(1e8 / (floor(f*1e8) + 1) * 0.99))
  docs       max(1, floor2(1e8 / (f*1e8) * 0.99))          (infinite at f = 0)
  fair       floor2(1e8 / (floor(f*1e8) + 1) * 0.99)        (no clamp)
  floor2(x)  floor(x * 100) / 100

Prints, for each non-canonical reading, how many words give another
multiplier than the canonical one, and the first few such words.

    .venv/bin/python scripts/limbo-readings.py            # every word (7½ minutes on one core)
    .venv/bin/python scripts/limbo-readings.py 65536      # every 65536th word
"""

import sys

import numpy as np

STRIDE = int(sys.argv[1]) if len(sys.argv) > 1 else 1
CHUNK = 1 << 24


def floor2(x):
    return np.floor(x * 100.0) / 100.0


def main():
    total = 0
    differ = {"docs": 0, "fair": 0}
    first = {"docs": [], "fair": []}
    with np.errstate(divide="ignore"):
        for start in range(0, 1 << 32, CHUNK * STRIDE):
            u = np.arange(start, min(start + CHUNK * STRIDE, 1 << 32), STRIDE, dtype=np.uint64)
            f = u.astype(np.float64) / 4294967296.0
            floor_form = floor2(1e8 / (np.floor(f * 1e8) + 1.0) * 0.99)
            canonical = np.maximum(floor_form, 1.0)
            docs = np.maximum(floor2(1e8 / (f * 1e8) * 0.99), 1.0)
            total += len(u)
            for name, other in (("docs", docs), ("fair", floor_form)):
                mask = other != canonical
                differ[name] += int(np.count_nonzero(mask))
                if len(first[name]) < 5:
                    first[name].extend(int(x) for x in u[mask][: 5 - len(first[name])])
    print(f"words: {total} (every {STRIDE}th)")
    for name in ("docs", "fair"):
        share = differ[name] / total
        print(f"{name}: {differ[name]} words differ from clamped-floor, {share:.6%}; first: {first[name]}")


main()
