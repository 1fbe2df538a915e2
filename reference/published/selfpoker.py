import hashlib
import numpy as np
graine = 1234567890123456789 # Feld "fairplay.seed" von hand_end
commit = "..." # Feld "commit" der Zustandsnachrichten
assert hashlib.sha256(f"selfpoker:{graine}".encode()).hexdigest() == commit
paquet = list(np.random.default_rng(graine).permutation(52))
# n Spieler: Karten 0..2n-1 = Hände (2 pro Spieler), 2n..2n+4 = Gemeinschaftskarten
# Wert = Karte // 4 (0=2 … 12=Ass), Farbe = Karte % 4 (♣♦♥♠)
