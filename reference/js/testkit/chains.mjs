// Crash histories for the tests (docs/proofs.md, "Crash histories"): a
// chain walked down from a hash by the engine's crash.link, each game's
// point derived by the variant's op, newest game first, as the operators
// list them (src/proof/chain.rs, write_history, writes the same epoch).

import { createHash } from 'node:crypto';
import { execute } from '../provably.mjs';

const sha256hex = (text) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * One history's epoch: { chain, rounds }. `name` seeds the newest game's
 * hash; `games` games from `first` on; `variant` the op and its parameters.
 */
export async function crashHistory({ name, games, link = 'text', first = 1, salt, variant }) {
  const hashes = [];
  let h = sha256hex(`crash history ${name}`);
  for (let i = 0; i < games; i++) {
    hashes.push(h);
    h = (await execute({ op: 'crash.link', hash: h, link })).ok.previous;
  }
  const rounds = [];
  for (const [i, hash] of hashes.entries()) {
    const r = await execute({ ...variant, salt, hash });
    if (r.error) throw new Error(`${hash}: ${r.error.message}`);
    rounds.push({ game: first + games - 1 - i, hash, observed: { crashPoint: r.ok.crashPoint } });
  }
  return { chain: { terminatingHash: h, link, firstGame: first, salt, variant }, rounds };
}
