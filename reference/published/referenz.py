#!/usr/bin/env python3
"""
Unabhaengige Zweitimplementierung des Provably-Fair-Verfahrens.

CLAUDE.md §8 verlangt sie: "Eine unabhaengig geschriebene Zweitimplementierung
muss dieselben Ergebnisse liefern." Sinn der Sache ist, dass ein Denkfehler
nicht in beiden Implementierungen gleich ausfaellt. Deshalb ist diese Datei
aus der Spezifikation in §3 geschrieben, nicht aus dem TypeScript-Code
uebersetzt, und sie teilt mit ihm keine einzige Hilfsfunktion.

Sie ist zugleich das Stueck Code, das auf der Transparenzseite im Klartext
steht: kurz genug, dass ein Aussenstehender es liest, und in einer Sprache,
die er ohne Projekt-Setup ausfuehren kann.

Aufruf:
    python3 tools/referenz.py vektoren      # Testvektoren als JSON
    python3 tools/referenz.py pruefe FILE   # Eingaben pruefen, Ergebnis als JSON
"""
import hashlib
import hmac
import json
import sys


def raw(server_seed: str, client_seed: str, nonce: int, cursor: int) -> bytes:
    """HMAC_SHA256(key = serverSeed, message = "<clientSeed>:<nonce>:<cursor>").

    Der Schluessel ist der Server-Seed **als Zeichenkette**, nicht die aus dem
    Hex dekodierten Bytes. Wer nachrechnet, fuegt den Seed genau so ein, wie
    er offengelegt wurde.
    """
    message = f"{client_seed}:{nonce}:{cursor}"
    return hmac.new(server_seed.encode("utf-8"), message.encode("utf-8"), hashlib.sha256).digest()


def get_float(server_seed: str, client_seed: str, nonce: int, cursor: int) -> float:
    """Gleitkommazahl in [0,1) aus den ersten vier Bytes.

        b0/256 + b1/256^2 + b2/256^3 + b3/256^4

    Vier Bytes, weil das Verfahren von Hand nachrechenbar bleiben soll.
    """
    b = raw(server_seed, client_seed, nonce, cursor)
    return b[0] / 256 + b[1] / 256**2 + b[2] / 256**3 + b[3] / 256**4


def _bytes_needed(spanne: int) -> int:
    return max(1, ((spanne - 1).bit_length() + 7) // 8)


def get_int(spanne: int, server_seed: str, client_seed: str, nonce: int, cursor: int):
    """Ganzzahl in 0..spanne-1 ohne Modulo-Bias.

    Es werden so viele Bytes gelesen, wie die Spanne braucht. Faellt der
    Rohwert in den Rest, der sich nicht gleichmaessig aufteilen laesst, wird
    er **verworfen** und mit erhoehtem Cursor neu gezogen. Genau dieses
    Verwerfen macht das Ergebnis gleichverteilt.

    Rueckgabe: (wert, naechster_cursor). Der Cursor wandert auch bei jedem
    verworfenen Versuch weiter, damit ein Pruefer den Ablauf nachvollziehen
    kann.
    """
    if spanne < 1:
        raise ValueError("Spanne muss mindestens 1 sein")
    if spanne == 1:
        return 0, cursor + 1

    k = _bytes_needed(spanne)
    topf = 256**k
    grenze = topf - (topf % spanne)

    while True:
        wert = int.from_bytes(raw(server_seed, client_seed, nonce, cursor)[:k], "big")
        cursor += 1
        if wert < grenze:
            return wert % spanne, cursor


def shuffle(anzahl: int, server_seed: str, client_seed: str, nonce: int, cursor: int = 0):
    """Fisher-Yates ueber 0..anzahl-1. Genau einmal je Runde (R8).

    Rueckgabe: (reihenfolge, naechster_cursor).
    """
    deck = list(range(anzahl))
    for i in range(anzahl - 1, 0, -1):
        j, cursor = get_int(i + 1, server_seed, client_seed, nonce, cursor)
        deck[i], deck[j] = deck[j], deck[i]
    return deck, cursor


def server_seed_hash(server_seed: str) -> str:
    return hashlib.sha256(server_seed.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------

SEED_A = "0000000000000000000000000000000000000000000000000000000000000000"
SEED_B = "a3f1c9d4e5b6072839a0b1c2d3e4f5061728394a5b6c7d8e9f0a1b2c3d4e5f60"


def vektoren():
    out = {"hash": [], "raw": [], "float": [], "int": [], "shuffle": []}

    for seed in (SEED_A, SEED_B):
        out["hash"].append({"serverSeed": seed, "hash": server_seed_hash(seed)})

    faelle = [
        (SEED_A, "spieler-1", 0, 0),
        (SEED_A, "spieler-1", 0, 1),
        (SEED_A, "spieler-1", 1, 0),
        (SEED_A, "", 0, 0),
        (SEED_B, "MarcTestet", 42, 7),
        (SEED_B, "a-b_c", 999999, 123),
    ]
    for seed, client, nonce, cursor in faelle:
        out["raw"].append({
            "serverSeed": seed, "clientSeed": client, "nonce": nonce, "cursor": cursor,
            "raw": raw(seed, client, nonce, cursor).hex(),
        })
        out["float"].append({
            "serverSeed": seed, "clientSeed": client, "nonce": nonce, "cursor": cursor,
            "value": repr(get_float(seed, client, nonce, cursor)),
        })

    for spanne in (2, 6, 37, 52, 200, 312, 10_000):
        wert, folge = get_int(spanne, SEED_B, "MarcTestet", 42, 0)
        out["int"].append({
            "range": spanne, "serverSeed": SEED_B, "clientSeed": "MarcTestet",
            "nonce": 42, "cursor": 0, "value": wert, "cursorNext": folge,
        })

    for anzahl in (5, 52, 312):
        reihenfolge, folge = shuffle(anzahl, SEED_B, "MarcTestet", 42, 0)
        out["shuffle"].append({
            "count": anzahl, "serverSeed": SEED_B, "clientSeed": "MarcTestet", "nonce": 42,
            "order": reihenfolge, "cursorNext": folge,
        })

    return out


def pruefe(pfad):
    with open(pfad, encoding="utf-8") as fh:
        eingaben = json.load(fh)

    ergebnisse = []
    for e in eingaben:
        seed, client, nonce, cursor = e["serverSeed"], e["clientSeed"], e["nonce"], e["cursor"]
        eintrag = {
            "raw": raw(seed, client, nonce, cursor).hex(),
            "float": repr(get_float(seed, client, nonce, cursor)),
        }
        if "range" in e:
            wert, folge = get_int(e["range"], seed, client, nonce, cursor)
            eintrag["int"] = wert
            eintrag["cursorNext"] = folge
        if "shuffleCount" in e:
            reihenfolge, folge = shuffle(e["shuffleCount"], seed, client, nonce, cursor)
            eintrag["shuffle"] = reihenfolge
            eintrag["shuffleCursorNext"] = folge
        ergebnisse.append(eintrag)

    return ergebnisse


if __name__ == "__main__":
    befehl = sys.argv[1] if len(sys.argv) > 1 else "vektoren"
    if befehl == "vektoren":
        print(json.dumps(vektoren(), indent=2))
    elif befehl == "pruefe":
        print(json.dumps(pruefe(sys.argv[2])))
    else:
        print(__doc__)
        sys.exit(1)
