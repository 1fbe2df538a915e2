// `csgoempire` scheme: CSGOEmpire's roulette, written from the operator's PHP
// script (help.csgoempire.com, "How is roulette fair?"), not from the Rust
// code (src/schemes/csgoempire/):
//
//   $hash = hash('sha256', $server_seed . "-" . $public_seed . "-" . $round);
//   $roll = hexdec(substr($hash, 0, 8)) % 15;
//   0 bonus, 1 … 7 orange, 8 … 14 black
//
// The script's example shows its result only in a screenshot: this is the
// script, not a published outcome. 8 hex digits are 32 bits, exact in a Number.

import { intField, step, tables } from './stats/laws.mjs';
import { int, MAX_INT, text } from './validate.mjs';

export const COLOURS = Object.freeze(['bonus', 'orange', 'black']);

export function roulette(hash) {
  const roll = parseInt(hash.substring(0, 8), 16) % 15;
  return { roll, colour: roll === 0 ? 'bonus' : roll <= 7 ? 'orange' : 'black' };
}

// Statistics (src/schemes/csgoempire/stats.rs): 2^32 = 15·286331153 + 1, so
// roll 0 has one value more; each cell's exact count over 2^32.
export function rollLaw() {
  const all = 2 ** 32;
  const [q, r] = [Math.floor(all / 15), all % 15];
  return Array.from({ length: 15 }, (_, k) => (q + (k < r ? 1 : 0)) / all);
}

const ROULETTE = tables({
  family: () => ({ a: 0 }),
  shape: () => [1, 15],
  layout: () => ({ params: '', tests: [['roll', rollLaw()]], serial: rollLaw() }),
  sample: (_, req, ok, cells) => {
    if (!Number.isInteger(ok.roll) || ok.roll < 0 || ok.roll > 14) return null;
    cells.push(0, ok.roll);
    return step(req.publicSeed, intField(req, 'round'), ok.roll);
  },
});

export const SCHEME = {
  id: 'csgoempire',
  // The script does not say how the server seed is hashed while it is secret.
  commitment: undefined,
  views: 'bcgame.mjs',
  ops: {
    'csgoempire.roulette': {
      fields: { serverSeed: text(), publicSeed: text(), round: int(0, MAX_INT) },
      run: async (p, f) => roulette(await p.sha256Hex(`${f.serverSeed}-${f.publicSeed}-${f.round}`)),
      stats: ROULETTE,
      page: {
        name: 'CSGOEmpire-Roulette',
        view: 'csgoempire',
        steps: 'Runden',
        fields: { publicSeed: 'Public Seed', round: 'Runde', colour: 'Farbe' },
        tests: [[/^roll$/, () => 'Roulette-Zahl (0 bis 14)']],
      },
    },
  },
};
