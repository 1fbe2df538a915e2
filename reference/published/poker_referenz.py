#!/usr/bin/env python3
"""
Poker – unabhängige Zweitimplementierung (CLAUDE.md §8, Phase 11).

Mit diesem Programm rechnet jeder eine Pokerhand nach, ohne dem Casino zu
glauben: Stapel mischen (mit referenz.py), Karten an den öffentlichen
Positionen ablesen, Hände bewerten. Es ist absichtlich anders gebaut als
src/games/poker.ts: Es probiert alle Fünferkombinationen durch und
vergleicht Tupel, statt mit Bitmasken zu rechnen.

    python3 poker_referenz.py austeilen <server_seed> <client_seed> <nonce> <spieler>
    python3 poker_referenz.py bewerte <datei.json>      # Liste von Kartenlisten

Karten sind Zahlen 0..51: Rang = Karte % 13 (0 = Ass, 9 = Zehn, 10..12 =
Bube, Dame, König), Farbe = Karte // 13 (♣ ♦ ♥ ♠). Beim Poker zählt das Ass
14, in der Straße A-2-3-4-5 als Eins.
"""
import itertools
import json
import os
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from referenz import shuffle  # noqa: E402

KATEGORIEN = [
    "high_card", "paar", "zwei_paare", "drilling", "strasse",
    "flush", "full_house", "vierling", "straight_flush",
]


def rang(karte):
    r = karte % 13
    return 14 if r == 0 else r + 1


def strasse_hoch(raenge):
    """Höchste Karte einer Straße aus fünf verschiedenen Rängen, sonst 0."""
    s = sorted(set(raenge))
    if len(s) != 5:
        return 0
    if s[4] - s[0] == 4:
        return s[4]
    if s == [2, 3, 4, 5, 14]:
        return 5
    return 0


def fuenf(karten):
    """(Kategorie, fünf Ränge) einer Fünf-Karten-Hand."""
    raenge = [rang(k) for k in karten]
    farben = {k // 13 for k in karten}
    flush = len(farben) == 1
    hoch = strasse_hoch(raenge)
    # Gruppen nach (Anzahl, Rang), größte zuerst
    gruppen = sorted(Counter(raenge).items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    anzahl = [n for _, n in gruppen]
    werte = [r for r, _ in gruppen]

    def auf5(liste):
        return (list(liste) + [0, 0, 0, 0, 0])[:5]

    if flush and hoch:
        return 8, auf5([hoch])
    if anzahl[0] == 4:
        return 7, auf5(werte[:2])
    if anzahl[0] == 3 and anzahl[1] == 2:
        return 6, auf5(werte[:2])
    if flush:
        return 5, sorted(raenge, reverse=True)
    if hoch:
        return 4, auf5([hoch])
    if anzahl[0] == 3:
        return 3, auf5(werte[:3])
    if anzahl[0] == 2 and anzahl[1] == 2:
        return 2, auf5(werte[:3])
    if anzahl[0] == 2:
        return 1, auf5(werte[:4])
    return 0, sorted(raenge, reverse=True)


def bewerte(karten):
    """Beste Hand aus fünf bis sieben Karten: [Kategorie, Ränge]."""
    if not 5 <= len(karten) <= 7 or len(set(karten)) != len(karten):
        raise ValueError("5 bis 7 verschiedene Karten")
    beste = max(fuenf(c) for c in itertools.combinations(karten, 5))
    return [KATEGORIEN[beste[0]], beste[1]]


def positionen(n):
    """Austeilen ab links vom Button, zweimal herum; je eine Karte verbrannt vor Flop, Turn, River."""
    return {
        "loch": [[i, n + i] for i in range(n)],
        "flop": [2 * n + 1, 2 * n + 2, 2 * n + 3],
        "turn": 2 * n + 5,
        "river": 2 * n + 7,
    }


def austeilen(server_seed, client_seed, nonce, n):
    deck, _ = shuffle(52, server_seed, client_seed, nonce, 0)
    p = positionen(n)
    return {
        "loch": [[deck[a], deck[b]] for a, b in p["loch"]],
        "board": [deck[x] for x in p["flop"] + [p["turn"], p["river"]]],
    }


def main(argv):
    if len(argv) >= 2 and argv[1] == "bewerte":
        with open(argv[2], encoding="utf-8") as f:
            haende = json.load(f)
        print(json.dumps([bewerte(h) for h in haende]))
        return 0
    if len(argv) == 6 and argv[1] == "austeilen":
        print(json.dumps(austeilen(argv[2], argv[3], int(argv[4]), int(argv[5]))))
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
