// `selfpoker` scheme (seed 002): a 63-bit seed, commit = SHA-256 of
// "selfpoker:<seed>", deck = numpy.random.default_rng(seed).permutation(52).
// Card c: value c // 4 (0 = 2 … 12 = ace), suit c % 4 (♣ ♦ ♥ ♠).

import { sha256Hex } from './crypto.mjs';
import { permutation } from './numpy.mjs';

/** seed is the canonical decimal string, exactly as Python's f"{seed}" prints it. */
export function commit(seed) {
  return sha256Hex(`selfpoker:${seed}`);
}

/** The 52-card deck. seed is a decimal string or a BigInt, never a Number. */
export function deck(seed) {
  return permutation(BigInt(seed), 52);
}

/** n players: player i holds deck[2i], deck[2i+1]; the board is deck[2n … 2n+4]; no burns. */
export function deal(deckCards, players) {
  return {
    hole: Array.from({ length: players }, (_, i) => [deckCards[2 * i], deckCards[2 * i + 1]]),
    board: deckCards.slice(2 * players, 2 * players + 5),
  };
}
