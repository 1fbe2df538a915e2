// Archives for the statistics' tests and benchmarks, built as tests/stats.rs
// builds them: every outcome and every commitment comes from `provably
// serve` (the real binary), none from the code under test. An honest
// operator keeps each epoch's first candidate server seed; a grinder keeps
// the first candidate whose outcome suits it (else the last). Every round of
// both archives matches its committed seed.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { commitmentOf } from '../provably.mjs';

const sha256hex = (text) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Sends requests to `provably serve`; returns their `ok` objects in order. */
export function serve(bin, requests) {
  const input = requests.map((r, id) => JSON.stringify({ ...r, id })).join('\n') + '\n';
  const out = spawnSync(bin, ['serve'], { input, maxBuffer: 1 << 30, encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`provably serve exited ${out.status}: ${out.stderr}`);
  const answers = new Array(requests.length).fill(null);
  for (const line of out.stdout.split('\n').filter(Boolean)) {
    const v = JSON.parse(line);
    answers[v.id] = v.ok ?? null;
  }
  const missing = answers.findIndex((a) => a === null);
  if (missing !== -1) throw new Error(`provably serve did not answer ${JSON.stringify(requests[missing])}`);
  return answers;
}

/**
 * Epochs { secret, requests, oks } as an archive's epochs: each committed
 * with serve's own commitment (the one its scheme declares), each round
 * its request without the secret plus what serve derived as `observed`.
 */
export function epochsOf(bin, epochs) {
  const commits = serve(bin, epochs.map((e) => {
    const c = commitmentOf(e.requests[0].op);
    return { op: c.op, [c.field]: e.secret };
  }));
  return epochs.map((e, i) => {
    const { field } = commitmentOf(e.requests[0].op);
    const rounds = e.requests.map((r, j) => {
      const { [field]: _, ...round } = r;
      return { ...round, observed: e.oks[j] };
    });
    return { commit: commits[i].hash ?? commits[i].commitment, [field]: e.secret, rounds };
  });
}

/** JSON lines, one epoch a line. */
export const asLines = (epochs) => epochs.map((e) => JSON.stringify(e)).join('\n') + '\n';

/**
 * Honest and ground archives (their epochs) from candidate epochs:
 * candidates[e] = [{ secret, requests }, …], `suits(oks)` the grinder's wish.
 */
export function grind(bin, candidates, suits) {
  const answers = serve(bin, candidates.flat().flatMap((c) => c.requests));
  let at = 0;
  const honest = [];
  const ground = [];
  for (const options of candidates) {
    const derived = options.map((c) => ({ ...c, oks: answers.slice(at, (at += c.requests.length)) }));
    honest.push(derived[0]);
    ground.push(derived.find((c) => suits(c.oks)) ?? derived[derived.length - 1]);
  }
  return { honest: epochsOf(bin, honest), ground: epochsOf(bin, ground) };
}

/** `games` games of ten dice, one server seed each, ground so that die n = 0 is a 6 (tests/stats.rs's dice). */
export function diceArchives(bin, games = 1000) {
  const candidates = Array.from({ length: games }, (_, g) => [0, 1].map((c) => {
    const secret = sha256hex(`dice operator ${g} candidate ${c}`);
    const requests = Array.from({ length: 10 }, (_, n) => ({ op: 'dice.roll', serverSeed: secret, clientSeed: 'a26460084a0ef89b:d4f28bac6efd1b6e', n }));
    return { secret, requests };
  }));
  return grind(bin, candidates, (oks) => oks[0].face === 6);
}

/** `shoes` six-deck shoes, one server seed each, ground so that the first card is an ace or ten-valued (tests/stats.rs's shoes). */
export function shoeArchives(bin, shoes = 2000) {
  const candidates = Array.from({ length: shoes }, (_, s) => [0, 1].map((c) => {
    const secret = sha256hex(`operator ${s} candidate ${c}`);
    return { secret, requests: [{ op: 'shoe.deal', serverSeed: secret, clientSeed: 'player', nonce: 1, decks: 6, penetration: 0.75 }] };
  }));
  return grind(bin, candidates, (oks) => 'ATJQK'.includes(oks[0].cards[0][0]));
}

/**
 * A proof document with a family of every op the statistics test, each
 * large enough for its tests to run, and the rounds that do not count:
 * long epochs (the audit cuts them into batches), a mismatching round (it
 * counts: grinding acts on what the seed gives), an external and an invalid
 * one (they do not), a ladder too large to test (untested).
 */
export function mixedDocument(bin) {
  const seed = (name) => sha256hex(`mixed ${name}`);
  const along = (name, n, f) => {
    const secret = seed(name);
    return { secret, requests: Array.from({ length: n }, (_, i) => ({ serverSeed: secret, ...f(i) })) };
  };
  const plan = [
    along('dice', 1500, (n) => ({ op: 'dice.roll', clientSeed: 'c', n })),
    along('int6', 240, (nonce) => ({ op: 'cursor.int', clientSeed: 'c', nonce, cursor: 0, range: 6 })),
    along('int1000', 400, (nonce) => ({ op: 'cursor.int', clientSeed: 'c', nonce, cursor: 1, range: 1000 })),
    along('float', 400, (nonce) => ({ op: 'cursor.float', clientSeed: 'c', nonce, cursor: 0 })),
    along('ladder', 160, (i) => ({ op: 'ladder.shuffle', clientSeed: `c${i}`, size: 5 })),
    along('ladder70', 3, (i) => ({ op: 'ladder.shuffle', clientSeed: `c${i}`, size: 70 })),
    along('shuffle', 120, (nonce) => ({ op: 'cursor.shuffle', clientSeed: 'c', nonce, cursor: 0, count: 4 })),
    along('poker', 300, (nonce) => ({ op: 'poker.deal', clientSeed: 'c', nonce, players: 2 })),
    along('tournament', 300, (hand) => ({ op: 'shoe.tournament', tournamentId: 't', hand, decks: 1, penetration: 0.5 })),
    ...Array.from({ length: 280 }, (_, i) => {
      const secret = String(1000003 * i + 7);
      return { secret, requests: [{ op: 'selfpoker.deck', seed: secret }] };
    }),
  ];
  const answers = serve(bin, plan.flatMap((e) => e.requests));
  let at = 0;
  const epochs = epochsOf(bin, plan.map((e) => ({ ...e, oks: answers.slice(at, (at += e.requests.length)) })));
  const dice = epochs[0].rounds;
  dice[700].observed = { face: (dice[700].observed.face % 6) + 1 }; // a mismatch: still counted
  dice.push({ op: 'dice.roll', clientSeed: 'c', n: 1500, external: 'telegram', observed: { face: 6 } });
  dice.push({ op: 'dice.roll', clientSeed: 'c', n: -1, observed: { face: 6 } });
  return JSON.stringify({ proof: 1, title: 'statistics of every op', epochs });
}
