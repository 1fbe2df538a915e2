#!/usr/bin/env node
// Writes a fixed mix of protocol v1 requests (hello, then 2,000 requests
// spread over every op) to stdout, for whole-process benchmarks of a target:
//
//   node reference/js/bench/mixed-requests.mjs > target/bench/js_mixed.jsonl
//   hyperfine --warmup 2 --runs 10 'node reference/js/target.mjs < target/bench/js_mixed.jsonl'
//
// Deterministic (a fixed mulberry32 seed), so every run times the same work.
// Most requests bring a fresh server seed, as the harness's generated cases
// do; every fourth reuses one of eight, as a player's session would.

import { rng } from '../testkit/helpers.mjs';

const COUNT = Number(process.argv[2] ?? 2000);
const r = rng(20240611);
const SESSION_SEEDS = Array.from({ length: 8 }, () => r.hex(64));
const CLIENTS = ['spieler-1', '', 'MarcTestet', 'a-b_c', 'spieler-ü'];

const seedFor = (i) => (i % 4 === 0 ? r.pick(SESSION_SEEDS) : r.hex(64));
const at = (i) => ({ serverSeed: seedFor(i), clientSeed: r.pick(CLIENTS), nonce: r.int(1_000_000) });
const cards = () => {
  const deck = Array.from({ length: 52 }, (_, c) => c);
  for (let i = 51; i > 0; i--) {
    const j = r.int(i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck.slice(0, 5 + r.int(3));
};

const MAKERS = [
  (i) => ({ op: 'cursor.hash', serverSeed: seedFor(i) }),
  (i) => ({ op: 'cursor.raw', ...at(i), cursor: r.int(1000) }),
  (i) => ({ op: 'cursor.float', ...at(i), cursor: r.int(1000) }),
  (i) => ({ op: 'cursor.int', ...at(i), cursor: r.int(1000), range: r.pick([2, 6, 37, 52, 10_000, 2 ** 32 + 1]) }),
  (i) => ({ op: 'cursor.shuffle', ...at(i), cursor: 0, count: 52 }),
  (i) => ({ op: 'poker.deal', ...at(i), players: 2 + r.int(21) }),
  () => ({ op: 'poker.evaluate', cards: cards() }),
  (i) => ({ op: 'shoe.deal', ...at(i), decks: 6, penetration: r.pick([0.5, 0.65, 0.75, 0.8]) }),
  (i) => ({ op: 'shoe.tournament', serverSeed: seedFor(i), tournamentId: `T-${r.int(100)}`, hand: r.int(500), decks: 2, penetration: 0.75 }),
  (i) => ({ op: 'dice.roll', serverSeed: seedFor(i), clientSeed: r.pick(CLIENTS), n: r.int(1_000_000) }),
  () => ({ op: 'selfpoker.commit', seed: String(r.int(2 ** 31)) }),
  () => ({ op: 'selfpoker.deck', seed: String(r.int(2 ** 31)) }),
  (i) => ({ op: 'ladder.shuffle', serverSeed: seedFor(i), clientSeed: r.pick(CLIENTS), size: 25 }),
];

const lines = [JSON.stringify({ id: 0, op: 'hello', protocol: 1 })];
for (let i = 1; i <= COUNT; i++) lines.push(JSON.stringify({ id: i, ...MAKERS[i % MAKERS.length](i) }));
process.stdout.write(`${lines.join('\n')}\n`);
