// The JavaScript statistics (reference/js/stats/, what the page's worker
// runs) against `provably audit --stats --report` on the same archives: honest and ground archives built through
// `provably serve` as tests/stats.rs builds them (10,000 dice, 2,000
// six-deck shoes), and a proof document with every tested op, long epochs
// the audit cuts into batches, a mismatching, an external and an invalid
// round; and Stake bet histories of every stake game with tests
// (src/stats/stake.rs: honest, one epoch per game plus one whose games share
// the nonces of a seed pair, and one ground on Limbo's multiplier); and
// histories of 2,000 bets of every game of other operators with a law
// (BC.Game's, the lucky-number dice, Freebitco.in, skin.club, CSGOEmpire). The
// JavaScript side is what the page's worker runs: reference/js/proof.mjs's
// checkProof, then statisticsOf over the rounds it derived.
//
// Compared (testkit/statistics.mjs) for every test: family, name, distribution, df, n, rejected and
// the statistic exactly (to the bit: the same float operations in the same
// order); the p-value to TOLERANCE = 1e-9 relative (it may differ in its
// last bits where Math.exp and Math.log are not the platform's libm); Holm's threshold exactly, but for
// two tests whose p-values are within TOLERANCE of each other, whose ranks
// may swap. Then level, alarm, rounds, untested and notRun exactly.
//
//   PROVABLY_BIN=$PWD/target/debug/provably node --test reference/js/test/stats.test.mjs

import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { ladderMarginals } from '../ladder.mjs';
import { checkProof } from '../proof.mjs';
import { BUILT } from '../provably.mjs';
import { cutProbabilities } from '../shoe.mjs';
import { chiSquare, holm, layout, statisticsOf } from '../stats/index.mjs';
import { asLines, diceArchives, epochsOf, grind, mixedDocument, serve, shoeArchives } from '../testkit/archives.mjs';
import { crashHistory } from '../testkit/chains.mjs';
import { REPO } from '../testkit/helpers.mjs';
import { assertSame, audit as auditWith, pageStatistics } from '../testkit/statistics.mjs';

const BIN = resolve(REPO, process.env.PROVABLY_BIN ?? 'target/debug/provably');
const IN_CI = !['', '0', 'false'].includes((process.env.CI ?? '').trim().toLowerCase());

const sha256hex = (text) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * Every stake game with tests (tests/stats_stake.rs's games(), with Crash and
 * a second configuration of Plinko and Mines), each with enough bets that
 * every one of its tests runs (Plinko's 16 rows pool 1.06 % at each edge:
 * 20 expected takes 1,900 bets); Crash reads a game hash and a salt, no seeds.
 */
const STAKE_GAMES = [
  ['stake.floats', { count: 3 }, 400],
  ['stake.dice', {}, 400],
  ['stake.limbo', {}, 600],
  ['stake.plinko', { rows: 16, risk: 'high' }, 2000],
  ['stake.plinko', { rows: 8, risk: 'low' }, 600],
  ['stake.roulette', {}, 800],
  ['stake.wheel', { segments: 10, risk: 'low' }, 300],
  ['stake.keno', {}, 850],
  ['stake.mines', { mines: 3 }, 550],
  ['stake.mines', { mines: 24 }, 120],
  ['stake.hilo', {}, 300],
  ['stake.blackjack', {}, 300],
  ['stake.baccarat', {}, 300],
  ['stake.videopoker', {}, 1100],
  ['stake.diamonds', {}, 200],
  ['stake.crash', {}, 600],
];

/** The stake ops whose outcomes have tests, read off their declarations. */
const STAKE_TESTED = Object.entries(BUILT.find((s) => s.id === 'stake').ops).filter(([, d]) => d.stats.tables).map(([op]) => op);

/** An honest Stake history: one epoch (server seed) per game, its bets at nonces 0, 1, 2 …; one epoch whose games take turns on one seed pair; Crash's games in an epoch of their own, uncommitted (a chain has no server seed). */
function stakeHistory(bin) {
  const epochs = [];
  for (const [op, extra, bets] of STAKE_GAMES) {
    if (op === 'stake.crash') continue;
    const secret = sha256hex(`stake honest ${op} ${JSON.stringify(extra)}`);
    epochs.push({ secret, requests: Array.from({ length: bets }, (_, nonce) => ({ op, serverSeed: secret, clientSeed: 'player', nonce, ...extra })) });
  }
  // Stake's nonce counts the bets of a seed pair across its games: runs of one game in a row continue
  // its serial sequence, a bet of another game breaks it.
  const shared = sha256hex('stake honest shared pair');
  const turns = ['stake.dice', 'stake.dice', 'stake.limbo', 'stake.roulette', 'stake.roulette', 'stake.roulette', 'stake.hilo', 'stake.keno'];
  epochs.push({ secret: shared, requests: Array.from({ length: 400 }, (_, nonce) => ({ op: turns[nonce % turns.length], serverSeed: shared, clientSeed: 'shared', nonce })) });
  const answers = serve(bin, epochs.flatMap((e) => e.requests));
  let at = 0;
  const committed = epochsOf(bin, epochs.map((e) => ({ ...e, oks: answers.slice(at, (at += e.requests.length)) })));
  const games = STAKE_GAMES.find(([op]) => op === 'stake.crash')[2];
  const crash = Array.from({ length: games }, (_, g) => ({ op: 'stake.crash', hash: sha256hex(`crash game ${g}`), salt: 'stake crash salt' }));
  // A chain's distance is no game outcome: not tested, and not counted as untested either.
  const chain = { op: 'stake.crash.chain', hash: crash[0].hash, terminatingHash: sha256hex(crash[0].hash), limit: 3 };
  const points = serve(bin, [...crash, chain]);
  committed.push({ commit: null, rounds: [...crash, chain].map((r, g) => ({ ...r, observed: points[g] })) });
  return committed;
}

/** 1,000 Limbo bets, one seed pair each, three candidate server seeds: the grinder keeps one under 2× (tests/stats_stake.rs). */
function limboGround(bin) {
  const candidates = Array.from({ length: 1000 }, (_, p) => [0, 1, 2].map((c) => {
    const secret = sha256hex(`stake.limbo operator ${p} candidate ${c}`);
    return { secret, requests: [{ op: 'stake.limbo', serverSeed: secret, clientSeed: 'player', nonce: 0 }] };
  }));
  return grind(bin, candidates, (oks) => oks[0].multiplier < 2);
}

/**
 * The games of other operators with a law (tests/field.rs's games): 2,000
 * bets each, one epoch per game; skin.club and CSGOEmpire commit to no seed
 * the op can check, so their rounds name it and their epochs have no commitment.
 */
const FIELD_GAMES = [
  ['lucky.roll', {}],
  ['freebitco.roll', {}],
  ['skinclub.roll', {}],
  ['csgoempire.roulette', {}],
  ['bcgame.classicdice.old', {}],
  ['bcgame.classicdice', {}],
  ['bcgame.dice', {}],
  ['bcgame.limbo', {}],
  ['bcgame.hashdice', {}],
  ['bcgame.plinko', { rows: 16 }],
  ['bcgame.coinflip.old', { rounds: 10 }],
  ['bcgame.coinflip', { rounds: 10 }],
];

function fieldHistory(bin) {
  const epochs = FIELD_GAMES.map(([op, extra]) => {
    const secret = sha256hex(`field honest ${op}`);
    const requests = Array.from({ length: 2000 }, (_, n) =>
      op === 'csgoempire.roulette'
        ? { op, serverSeed: secret, publicSeed: '1914223138', round: n }
        : { op, serverSeed: secret, clientSeed: 'player', nonce: n, ...extra },
    );
    return { secret, requests };
  });
  const answers = serve(bin, epochs.flatMap((e) => e.requests));
  let at = 0;
  const withOks = epochs.map((e) => ({ ...e, oks: answers.slice(at, (at += e.requests.length)) }));
  const uncommitted = (op) => ['skinclub.roll', 'csgoempire.roulette'].includes(op);
  const committed = epochsOf(bin, withOks.filter((e) => !uncommitted(e.requests[0].op)));
  const open = withOks
    .filter((e) => uncommitted(e.requests[0].op))
    .map((e) => ({ commit: null, rounds: e.requests.map((r, j) => ({ ...r, observed: e.oks[j] })) }));
  return [...committed, ...open];
}

const audit = (dir, name, text) => auditWith(BIN, dir, name, text);

if (!existsSync(BIN)) {
  const why = `no provably binary at ${BIN} (cargo build, or set PROVABLY_BIN)`;
  if (IN_CI) test('statistics differential test prerequisites (required because CI is set)', () => assert.fail(why));
  else test('the page\'s statistics equal the audit\'s', { skip: why }, () => {});
} else {
  describe('the page\'s statistics equal `provably audit --stats`', { timeout: 600000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'provably-stats-'));
    after(() => rmSync(dir, { recursive: true, force: true }));

    test('10,000 dice, honest and ground on the first die', { timeout: 300000 }, async () => {
      const { honest, ground } = diceArchives(BIN, 1000);
      const [hc, h] = audit(dir, 'dice-honest.jsonl', asLines(honest));
      assert.equal(hc, 0);
      assertSame(h, await pageStatistics(asLines(honest)), 'honest dice');
      const [gc, g] = audit(dir, 'dice-ground.jsonl', asLines(ground));
      assert.equal(gc, 6, 'the ground archive raises the alarm');
      assert.equal(g.alarm, true);
      assertSame(g, await pageStatistics(asLines(ground)), 'ground dice');
    });

    test('2,000 six-deck shoes, honest and ground on the first card', { timeout: 300000 }, async () => {
      const { honest, ground } = shoeArchives(BIN, 2000);
      const [hc, h] = audit(dir, 'shoes-honest.jsonl', asLines(honest));
      assert.equal(hc, 0);
      assertSame(h, await pageStatistics(asLines(honest)), 'honest shoes');
      const [gc, g] = audit(dir, 'shoes-ground.jsonl', asLines(ground));
      assert.equal(gc, 6);
      assertSame(g, await pageStatistics(asLines(ground)), 'ground shoes');
    });

    test('every tested op in one document, long epochs in batches, rounds that count and rounds that do not', { timeout: 300000 }, async () => {
      const text = mixedDocument(BIN);
      const [code, rust] = audit(dir, 'mixed.json', text);
      assert.equal(code, 2, 'the invalid round makes the archive invalid');
      const families = new Set(rust.tests.map((t) => t.family.split(' ')[0]));
      for (const op of ['dice.roll', 'cursor.int', 'cursor.float', 'ladder.shuffle', 'cursor.shuffle', 'poker.deal', 'shoe.tournament', 'selfpoker.deck']) {
        assert.ok(families.has(op), `${op} has tests that run`);
      }
      assert.equal(rust.untested, 3, 'the three ladders of 70 cases');
      assert.ok(rust.tests.some((t) => t.name === 'serial pairs along nonces' && t.n === 1499), 'every pair of the 1,500 dice, across the audit\'s batches');
      assertSame(rust, await pageStatistics(text), 'every op');
      // The same document as JSON lines: the same statistics.
      const lines = asLines(JSON.parse(text).epochs);
      assertSame(audit(dir, 'mixed.jsonl', lines)[1], await pageStatistics(lines), 'every op, as JSON lines');
    });

    test('past the cap of 64 families: the smallest keys keep tables, in any order of the rounds', { timeout: 300000 }, async () => {
      // cursor.int ranges 200 down to 2, 40 rounds each, in one epoch and
      // largest first: 199 families for 64 tables. Both sides keep ranges
      // 2 … 65 (their counts are those of one pass) and count the rest past the cap.
      const secret = sha256hex('past the cap');
      const requests = [];
      for (let range = 200; range >= 2; range--) {
        for (let k = 0; k < 40; k++) requests.push({ op: 'cursor.int', serverSeed: secret, clientSeed: 'c', nonce: requests.length, cursor: 0, range });
      }
      const oks = serve(BIN, requests);
      const text = asLines(epochsOf(BIN, [{ secret, requests, oks }]));
      const [code, rust] = audit(dir, 'past-cap.jsonl', text);
      assert.equal(code, 0);
      assert.equal(rust.pastCap, 199 - 64);
      assert.equal(rust.untested, (199 - 64) * 40);
      assert.ok(rust.tests.every((t) => Number(t.family.split('=')[1]) <= 65), 'only the smallest ranges are tested');
      assertSame(rust, await pageStatistics(text), 'past the cap');
    });

    test('crash histories: games with their hashes, and points alone, honest and at a 5 % edge', { timeout: 300000 }, async () => {
      const salt = '0000000000000000004d6ec16dafe9d8370958664c1dc422f452892264c59526';
      const h = await crashHistory({ name: 'stats', games: 3000, salt, variant: { op: 'crash.v2' } });
      const doc = (rounds, chain = h.chain) => JSON.stringify({ proof: 2, epochs: [{ chain, rounds }] });
      const [hc, honest] = audit(dir, 'crash-honest.json', doc(h.rounds));
      assert.equal(hc, 0);
      assertSame(honest, await pageStatistics(doc(h.rounds)), 'a crash history with its hashes');
      // The points alone, at a 5 % edge: X from the MAC (node:crypto), 95/(1 − X).
      const x = (hash) => parseInt(createHmac('sha256', salt).update(Buffer.from(hash, 'hex')).digest('hex').slice(0, 13), 16) / 2 ** 52;
      const edge = h.rounds.map((g) => ({ game: g.game, observed: { crashPoint: Math.max(1, Math.floor(95 / (1 - x(g.hash))) / 100) } }));
      const [ec, five] = audit(dir, 'crash-edge.json', doc(edge));
      assert.equal(ec, 6, 'an alarm, nothing compared');
      assert.equal(five.alarm, true);
      assertSame(five, await pageStatistics(doc(edge)), 'points alone at a 5 % edge');
      // Roobet (divisor 25, an instant crash of 1), points alone: honest.
      const r = await crashHistory({ name: 'roobet', games: 3000, salt, variant: { op: 'crash.v1', divisor: 25, instant: 1 } });
      const alone = r.rounds.map((g) => ({ game: g.game, observed: g.observed }));
      const [rc, roobet] = audit(dir, 'crash-roobet.json', doc(alone, r.chain));
      assert.equal(rc, 0);
      assertSame(roobet, await pageStatistics(doc(alone, r.chain)), 'Roobet points alone');
    });

    test('Stake: every game with tests, an honest history and one ground on Limbo\'s multiplier', { timeout: 300000 }, async () => {
      assert.deepEqual([...new Set(STAKE_GAMES.map(([op]) => op))].sort(), [...STAKE_TESTED].sort(), 'every stake game with tests has bets here');
      const honest = asLines(stakeHistory(BIN));
      const [hc, h] = audit(dir, 'stake-honest.jsonl', honest);
      assert.equal(hc, 0, 'every bet matches and no alarm');
      assert.equal(h.untested, 0, 'a crash chain\'s distance is not a game outcome');
      // Every family and every one of its tests ran: each law was compared to the bit.
      const ran = new Map();
      for (const t of h.tests) ran.set(t.family, [...(ran.get(t.family) ?? []), t.name]);
      // By op, then by parameter as a number (rows=8 before rows=16).
      const param = ([, extra]) => Object.entries(extra).find(([k]) => ['rows', 'segments', 'mines'].includes(k));
      const families = [...STAKE_GAMES].sort((x, y) => (x[0] === y[0] ? param(x)[1] - param(y)[1] : x[0] < y[0] ? -1 : 1))
        .map((g) => (param(g) ? `${g[0]} ${param(g).join('=')}` : g[0]));
      assert.deepEqual([...ran.keys()], families, 'the families, in the audit\'s order');
      for (const family of families) {
        const [op, param] = family.split(' ');
        const key = { op, a: param ? Number(param.split('=')[1]) : 0, b: 0 };
        const { tests, serial } = layout(key);
        const names = ran.get(family).filter((n) => !/along nonces$/.test(n));
        const want = tests.map(([n]) => n);
        if (op === 'stake.mines' && key.a === 24) {
          // 120 bets: the draws from 5 tiles or fewer (i ≥ 20) expect 20 in each cell.
          assert.deepEqual(names, want.slice(20), family);
        } else {
          assert.deepEqual(names, want, `${family}: every test ran`);
        }
        assert.equal(ran.get(family).includes('serial correlation along nonces'), serial !== null, `${family}: serial tests exactly where the layout follows a value`);
      }
      assert.ok(h.tests.some((t) => t.family === 'stake.roulette' && t.name === 'serial correlation along nonces' && t.n === 799 + 100), 'the shared pair adds two roulette pairs in each of its 50 turns of eight bets');
      const checked = await checkProof(honest);
      assertSame(h, statisticsOf(checked.epochs), 'honest stake history');
      // A law one ulp off can leave a statistic unchanged (n·p rounds alike): the same history cut
      // to other lengths compares every law again at other counts.
      const epochs = honest.trim().split('\n').map((l) => JSON.parse(l));
      assert.deepEqual(checked.epochs.map((e) => e.rounds.length), epochs.map((e) => e.rounds.length));
      for (let cut = 1; cut <= 10; cut++) {
        const keep = (rounds) => rounds.slice(0, Math.ceil((rounds.length * (60 - cut)) / 60));
        const [code, r] = audit(dir, `stake-cut-${cut}.jsonl`, asLines(epochs.map((e) => ({ ...e, rounds: keep(e.rounds) }))));
        assert.equal(code, 0);
        assertSame(r, statisticsOf(checked.epochs.map((e) => ({ ...e, rounds: keep(e.rounds) }))), `honest stake history, ${60 - cut}/60 of each epoch`);
      }
      // A nonce bet twice is a mismatch (src/proof/bets.rs), but its outcome is what the seed gives: it counts, and continues no sequence.
      const shared = epochs.findIndex((e) => e.rounds[0].clientSeed === 'shared');
      const twice = epochs.map((e, i) => (i === shared ? { ...e, rounds: [...e.rounds, e.rounds[9]] } : e));
      const [tc, t] = audit(dir, 'stake-twice.jsonl', asLines(twice));
      assert.equal(tc, 1, 'the repeated nonce is a mismatch');
      assert.equal(t.rounds, h.rounds + 1);
      assertSame(t, await pageStatistics(asLines(twice)), 'a nonce bet twice');

      const { honest: fair, ground } = limboGround(BIN);
      const [fc, f] = audit(dir, 'limbo-honest.jsonl', asLines(fair));
      assert.equal(fc, 0);
      assertSame(f, await pageStatistics(asLines(fair)), 'honest limbo');
      const [gc, g] = audit(dir, 'limbo-ground.jsonl', asLines(ground));
      assert.equal(gc, 6, 'an alarm without a mismatch');
      assert.ok(g.tests.some((t) => t.rejected && t.family === 'stake.limbo' && t.name === 'multiplier in cells from 1.05 to 25'));
      assertSame(g, await pageStatistics(asLines(ground)), 'ground limbo');
    });

    test('the games of other operators: an honest history of every game with a law', { timeout: 300000 }, async () => {
      const epochs = fieldHistory(BIN);
      const [code, rust] = audit(dir, 'field-honest.jsonl', asLines(epochs));
      assert.equal(code, 0, 'every bet matches and no alarm');
      const families = new Set(rust.tests.map((t) => t.family.split(' ')[0]));
      for (const [op] of FIELD_GAMES) assert.ok(families.has(op), `${op} has tests that run`);
      assertSame(rust, await pageStatistics(asLines(epochs)), 'the games of other operators');
      // A law one ulp off can leave a statistic unchanged: other lengths compare every law again.
      for (const keep of [1999, 1950, 1900]) {
        const cut = epochs.map((e) => ({ ...e, rounds: e.rounds.slice(0, keep) }));
        const [c, r] = audit(dir, `field-${keep}.jsonl`, asLines(cut));
        assert.equal(c, 0);
        assertSame(r, await pageStatistics(asLines(cut)), `the games of other operators, ${keep} bets each`);
      }
    });
  });
}

describe('reference/js/stats on its own', () => {
  test('an outcome the scheme cannot give is a p-value of 0; too few per cell is no test', () => {
    assert.deepEqual(chiSquare([25, 1], [1, 0]), [Number.MAX_VALUE, 1, 0]);
    assert.equal(chiSquare([19, 19], [0.5, 0.5]), null, '19 expected per cell');
    assert.notEqual(chiSquare([20, 20], [0.5, 0.5]), null);
  });

  test('Holm: thresholds α/(m − rank), rejection stops at the first p above its threshold', () => {
    const tests = [0.02, 0.0001, 0.004, 0.3].map((pValue) => ({ pValue }));
    holm(tests, 0.01);
    assert.deepEqual(tests.map((t) => t.threshold), [0.01 / 2, 0.01 / 4, 0.01 / 3, 0.01 / 1]);
    assert.deepEqual(tests.map((t) => t.rejected), [false, true, false, false], "0.004 is above 0.01/3: it and every larger p stay");
  });

  test('the cut card\'s clamp puts mass on its bound; the shuffle marginals are distributions', () => {
    // 6 decks at 0.5: base 156 = the lower clamp, spread 6: seven of 13 offsets on 156.
    const cut = cutProbabilities(6, 0.5);
    assert.equal(cut.length, 7);
    assert.equal(cut[0], 7 / 13);
    for (const row of ladderMarginals(25)) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-12);
  });
});
