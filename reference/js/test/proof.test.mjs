// proof.mjs, the page's checker of proof documents (docs/proofs.md), held to
// vectors/proofs.json (written by `provably audit`'s generator) when that
// file is there, and to proofs built from the committed vectors whose
// commitments node:crypto computes.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { firstDifference } from '../compare.mjs';
import { parseJson, stringifyJson } from '../json.mjs';
import { OK_FIELDS, checkProof, isDocument, seatSeed } from '../proof.mjs';
import { OPS, commitmentOf, execute } from '../provably.mjs';
import { REPO } from '../testkit/helpers.mjs';
import { crashHistory } from '../testkit/chains.mjs';
import { loadVectors, seatsFor, sha256hex, systemProofs, tamperedShoe } from '../testkit/proofs.mjs';

// $PROVABLY_PROOF_VECTORS points at another copy (e.g. a branch's) while vectors/proofs.json is not in this checkout.
const PROOF_VECTORS = process.env.PROVABLY_PROOF_VECTORS ?? join(REPO, 'vectors/proofs.json');
const BIN = resolve(REPO, process.env.PROVABLY_BIN ?? 'target/debug/provably');
const vectors = loadVectors();
const proofs = systemProofs(vectors);
const byId = (id) => proofs.find((p) => p.id === id);

/** The report with the free-text reasons blanked (docs/proofs.md: reason is compared only for skipped). */
const comparable = (r) => ({ ...r, findings: r.findings.map((f) => (f.kind === 'skipped' ? f : { ...f, reason: null })) });

const check = async (doc) => (await checkProof(typeof doc === 'string' ? doc : stringifyJson(doc))).report;

const shoeEpoch = () => structuredClone(byId('shoe').doc.epochs[0]);
const withRound = (r) => {
  const e = shoeEpoch();
  e.rounds = [r];
  return { proof: 1, epochs: [e] };
};
const shoeRound = () => shoeEpoch().rounds[0];

describe('proof.mjs against vectors/proofs.json', () => {
  test('every document gives exactly the expected report', { skip: !existsSync(PROOF_VECTORS) && `no ${PROOF_VECTORS} in this checkout` }, async () => {
    const file = parseJson(readFileSync(PROOF_VECTORS, 'utf8'));
    assert.equal(file.tests.length, file.numberOfTests);
    const failures = [];
    for (const t of file.tests) {
      const { report } = await checkProof(t.text);
      const where = firstDifference(comparable(t.expected), comparable(report));
      if (where !== null) failures.push(`tcId ${t.tcId} (${t.comment}) differs at ${where}:\n  expected ${stringifyJson(t.expected).slice(0, 400)}\n  got      ${stringifyJson(report).slice(0, 400)}`);
    }
    assert.deepEqual(failures, []);
  });
});

/** `provably audit --report` of `text`: the report of one file, without the file's name. */
function rustReport(text) {
  const dir = mkdtempSync(join(tmpdir(), 'provably-bets-'));
  writeFileSync(join(dir, 'in.txt'), text);
  const r = spawnSync(BIN, ['audit', '-q', '--jobs', '2', '--report', join(dir, 'report.json'), join(dir, 'in.txt')], { encoding: 'utf8' });
  if (r.error || ![0, 1, 2].includes(r.status)) throw new Error(`provably audit failed (${r.status}): ${r.stderr}`);
  const { files, ...report } = parseJson(readFileSync(join(dir, 'report.json'), 'utf8'));
  return { ...report, findings: report.findings.map(({ file, ...f }) => f) };
}

describe('bet histories, held to `provably audit`', () => {
  const dice = (clientSeed, nonce, extra = {}) => ({ op: 'stake.dice', clientSeed, nonce, ...extra });
  // What the vectors leave out: client seeds interleaved, nonces out of
  // order and joining runs, a repeat in a round that mismatches anyway,
  // rounds that are no bets (external, stake.floats, invalid when read),
  // seats standing for the client seed, findings of the epoch and of the
  // document around the gaps, JSON lines with a broken line between epochs.
  const cases = {
    'a document': stringifyJson({
      proof: 1,
      epochs: [
        {
          commit: null,
          serverSeed: 's1',
          rounds: [
            dice('c1', 5), dice('c1', 3), dice('c1', 4), dice('c2', 2), dice('c1', 9), dice('c1', 5),
            dice('c2', 2, { observed: { roll: 1.5 } }), dice('c2', 0),
            dice('c1', 7, { external: 'tg' }), dice('c1', 3, { external: 'tg' }),
            { op: 'stake.floats', clientSeed: 'c1', nonce: 14, count: 1 },
            dice('c1', 20, { bogus: 1 }),
            { op: 'stake.limbo', seats: [{ player: 2, seed: '1' }, { player: 1, seed: 'c' }], nonce: 4 },
            { op: 'stake.mines', clientSeed: 'c1', nonce: 11, mines: 3 },
          ],
          extra: 1,
        },
        { serverSeed: 's2', rounds: [dice('c1', 5), dice('c1', 1)] },
      ],
      zz: 1,
    }),
    'JSON lines': [
      stringifyJson({ commit: null, serverSeed: 's1', rounds: [dice('c', 0), dice('c', 2), dice('c', 2)] }),
      '{"broken',
      '',
      stringifyJson({ serverSeed: 's1', rounds: [dice('c', 10), dice('c', 13)] }),
      '[1]',
    ].join('\n'),
  };
  for (const [name, text] of Object.entries(cases)) {
    test(`${name}: the same report, findings in the same order`, { skip: !existsSync(BIN) && `no provably binary at ${BIN}` }, async () => {
      const expected = rustReport(text);
      // The case holds what it is about.
      assert.ok(expected.gaps > 0 && expected.findings.some((f) => f.kind === 'mismatch' && f.field === 'nonce'), stringifyJson(expected));
      const { report } = await checkProof(text);
      assert.equal(firstDifference(comparable(expected), comparable(report)), null, `expected ${stringifyJson(expected)}\ngot      ${stringifyJson(report)}`);
    });
  }
});

describe('crash histories, held to `provably audit`', () => {
  // What the vectors leave out: one chain over two epochs and two files'
  // worth of games in no order, a game shown twice across epochs, a hash
  // off the chain, a game without its hash, a game from before the chain,
  // gaps; JSON lines with two chains and a broken line between them.
  const SALT = '0000000000000000004d6ec16dafe9d8370958664c1dc422f452892264c59526';
  const made = (name, extra = {}) => crashHistory({ name, games: 40, salt: SALT, variant: { op: 'crash.v2' }, ...extra });
  const cases = {
    'a document': async () => {
      const h = await made('document', { first: 100 });
      const order = [5, 30, 6, 39, 0, 12, 11, 25, 26, 3];
      const one = order.map((i) => h.rounds[i]);
      const two = [h.rounds[31], h.rounds[12], { ...h.rounds[8], hash: h.rounds[9].hash }, { game: h.rounds[20].game, observed: h.rounds[20].observed }, { game: 99 }, h.rounds[1]];
      return stringifyJson({ proof: 2, epochs: [{ chain: h.chain, rounds: one }, { rounds: two, chain: h.chain }] });
    },
    'JSON lines': async () => {
      const a = await made('lines a');
      const b = await made('lines b', { link: 'bytes', variant: { op: 'crash.v2', bcgame: true } });
      return [
        stringifyJson({ chain: a.chain, rounds: a.rounds.slice(0, 10) }),
        '{"chain": [',
        stringifyJson({ chain: b.chain, rounds: [...b.rounds.slice(5, 8), b.rounds[6], b.rounds[30]] }),
        stringifyJson({ chain: a.chain, rounds: [a.rounds[12], { ...a.rounds[3], observed: { crashPoint: 1 } }] }),
      ].join('\n');
    },
  };
  for (const [name, make] of Object.entries(cases)) {
    test(`${name}: the same report, findings in the same order`, { skip: !existsSync(BIN) && `no provably binary at ${BIN}` }, async () => {
      const text = await make();
      const expected = rustReport(text);
      // The case holds what it is about.
      assert.ok(expected.gaps > 0 && expected.findings.some((f) => f.kind === 'mismatch' && f.field === 'game'), stringifyJson(expected));
      const { report } = await checkProof(text);
      assert.equal(firstDifference(comparable(expected), comparable(report)), null, `expected ${stringifyJson(expected)}\ngot      ${stringifyJson(report)}`);
    });
  }
});

describe('one verdict with `provably audit`: -0, lone surrogates, form feeds', () => {
  const doc = (round, head = '') => `{"proof":1${head},"epochs":[{"commit":null,"serverSeed":"s","rounds":[${round}]}]}`;
  const face = async () => (await execute({ op: 'dice.roll', serverSeed: 's', clientSeed: 'c', n: 0 })).ok.face;
  // serde_json reads `-0` as the float negative zero and refuses a lone
  // surrogate escape as no JSON; the page had read -0 as 0 and kept a lone
  // surrogate where no field's rule refused it (a title, a reason, two
  // seats whose halves made a pair).
  const strict = {
    'a nonce of -0': [doc('{"op":"stake.dice","clientSeed":"c","nonce":-0}'), [[0, 0, 'nonce', null, null]]],
    'a title holding a lone surrogate': [doc('{"op":"stake.dice","clientSeed":"c","nonce":0}', ',"title":"\\ud800"'), [[null, null, null, null, 1]]],
    'an observed mines item -0': [doc('{"op":"stake.mines","clientSeed":"c","nonce":0,"mines":3,"observed":{"mines":[-0]}}'), [[0, 0, 'observed.mines', 0, null]]],
    'a seat seed holding half a pair': [doc('{"op":"stake.dice","seats":[{"player":1,"seed":"\\ud83d"},{"player":2,"seed":"\\ude00"}],"nonce":0}'), [[0, 0, 'round', null, null]]],
    'an external reason holding a lone low surrogate': [doc('{"op":"stake.dice","clientSeed":"c","nonce":0,"external":"\\udc00"}'), [[0, 0, 'round', null, null]]],
    'a JSON line whose server seed is a lone surrogate': ['{"serverSeed":"\\ud800","commit":null,"rounds":[{"op":"stake.dice","clientSeed":"c","nonce":0}]}', [[0, null, null, null, 1]]],
  };
  for (const [name, [text, places]] of Object.entries(strict)) {
    test(`${name}: invalid, the same finding as the audit's`, async () => {
      const { report } = await checkProof(text);
      assert.equal(report.verdict, 'invalid');
      assert.deepEqual(report.findings.map((f) => [f.epoch, f.round, f.field, f.index, f.line]), places);
      if (existsSync(BIN)) assert.equal(firstDifference(comparable(rustReport(text)), comparable(report)), null, `expected ${stringifyJson(rustReport(text))}\ngot      ${stringifyJson(report)}`);
    });
  }

  // JSON's white space is space, tab, LF and CR: a form feed is none. Where
  // the text breaks, the audit (which streams) and this checker (which reads
  // the whole text first) may name different places; the verdict is one.
  test('a form feed around a round\'s observed key or as a line is invalid, a space there is not', async () => {
    const f = await face();
    const rounds = ['\f"observed":', '"observed"\f:'].map((gap) => `{"op":"dice.roll","clientSeed":"c","n":0,${gap}{"face":${f}}}`);
    const epoch = (round) => `{"commit":null,"serverSeed":"s","rounds":[${round}]}`;
    const texts = [...rounds.map((r) => doc(r)), ...rounds.map((r) => epoch(r)), `${epoch('')}\n\f\f\n`];
    for (const text of texts) {
      const { report } = await checkProof(text);
      assert.equal(report.verdict, 'invalid', JSON.stringify(text));
      if (existsSync(BIN)) assert.equal(rustReport(text).verdict, 'invalid', JSON.stringify(text));
      const spaced = (await checkProof(text.replaceAll('\f', ' '))).report.verdict;
      assert.equal(spaced, text.includes('"observed"') ? 'match' : 'unobserved', JSON.stringify(text));
    }
  });
});

describe('proof.mjs', () => {
  test('OK_FIELDS is the ok schema of every op in harness/protocol.schema.json, in its order', () => {
    const schema = JSON.parse(readFileSync(join(REPO, 'harness/protocol.schema.json'), 'utf8'));
    for (const op of OPS) {
      const ok = schema.$defs[`ok:${op}`];
      assert.ok(ok, `protocol.schema.json has ok:${op}`);
      assert.deepEqual(OK_FIELDS[op], ok.properties, `${op}: OK_FIELDS must follow the generated schema`);
      assert.deepEqual(Object.keys(OK_FIELDS[op]), Object.keys(ok.properties));
    }
    assert.deepEqual(Object.keys(OK_FIELDS).sort(), [...OPS].sort());
  });

  for (const p of proofs) {
    test(`a ${p.id} proof built from the vectors matches, every commitment ok`, async () => {
      const r = await check(p.text);
      assert.equal(r.verdict, 'match', stringifyJson(r.findings));
      assert.equal(r.epochs, p.doc.epochs.length);
      assert.equal(r.commitOk, p.doc.epochs.length);
      const rounds = p.doc.epochs.reduce((n, e) => n + e.rounds.length, 0);
      assert.equal(r.rounds, rounds);
      assert.equal(r.match + r.skipped, rounds);
      assert.equal(r.skipped, p.id === 'dice' ? 1 : 0);
    });
  }

  test('a Telegram die is skipped with its reason, never a match, whatever face it shows', async () => {
    const r = await check(byId('dice').text);
    const f = r.findings.filter((x) => x.kind === 'skipped');
    assert.equal(f.length, 1);
    assert.equal(f[0].reason, 'telegram');
    assert.equal(f[0].field, 'external');
    assert.deepEqual({ ...f[0].observed }, { face: 1 });
  });

  test('a card changed at index 17 is one mismatch naming the round, index and both cards', async () => {
    const t = tamperedShoe(vectors, { r: 0, index: 17 });
    const r = await check(t.text);
    assert.equal(r.verdict, 'mismatch');
    assert.equal(r.mismatch, 1);
    assert.deepEqual(r.findings.map((f) => ({ ...f, reason: null })), [
      { epoch: 0, round: 0, kind: 'mismatch', field: 'cards', index: 17, derived: t.derived, observed: t.observed, reason: null, line: null, differences: 1 },
    ]);
  });

  test('a wrong commitment is a commit finding with both hashes, the rounds still match', async () => {
    const doc = structuredClone(byId('ladder').doc);
    const right = doc.epochs[0].commit;
    doc.epochs[0].commit = sha256hex('another seed');
    const r = await check(doc);
    assert.equal(r.verdict, 'mismatch');
    assert.equal(r.commitMismatch, 1);
    assert.equal(r.match, doc.epochs[0].rounds.length);
    assert.equal(r.findings.length, 1);
    assert.equal(r.findings[0].kind, 'commit');
    assert.equal(r.findings[0].round, null);
    assert.equal(r.findings[0].derived, right);
    assert.equal(r.findings[0].observed, doc.epochs[0].commit);
  });

  test('a commitment in upper case is the same commitment', async () => {
    const doc = structuredClone(byId('ladder').doc);
    doc.epochs[0].commit = doc.epochs[0].commit.toUpperCase();
    assert.equal((await check(doc)).commitOk, 1);
  });

  test('seats: seeds by ascending player, concatenated; a player seated twice is invalid at the second seat', () => {
    assert.equal(seatSeed([{ player: 9, seed: 'c' }, { player: 2, seed: 'a' }, { player: 7, seed: 'b' }]), 'abc');
    assert.equal(seatSeed(seatsFor('Ölkanne-😀-x')), 'Ölkanne-😀-x');
    assert.equal(seatSeed([]), '');
    assert.throws(() => seatSeed([{ player: 1, seed: 'a' }, { player: 2, seed: 'b' }, { player: 1, seed: 'c' }]), (e) => e.field === 'seats' && e.index === 2 && /sits twice/.test(e.reason));
  });

  test('a prefix with unseen (null) cards compares only what was seen', async () => {
    const r = shoeRound();
    const seen = r.observed.cards.slice(0, 10);
    seen[3] = null;
    r.observed = { cards: seen };
    const rep = await check(withRound(r));
    assert.equal(rep.verdict, 'match');
    // Every seen card replaced by null: nothing is compared, the round is unobserved, never a match.
    r.observed = { cards: seen.map(() => null) };
    const none = await check({ proof: 1, epochs: [{ serverSeed: shoeEpoch().serverSeed, rounds: [r] }] });
    assert.equal(none.verdict, 'unobserved');
    assert.equal(none.findings[0].kind, 'unobserved');
  });

  test('more cards observed than dealt differ at the first extra index, with derived null', async () => {
    const doc = structuredClone(byId('selfpoker').doc);
    const e = doc.epochs[0];
    const round = await checkProof(stringifyJson({ proof: 1, epochs: [{ seed: e.seed, rounds: [{ op: 'selfpoker.deck' }] }] }));
    const deck = round.epochs[0].rounds[0].derived.deck;
    e.rounds[0].observed = { deck: [...deck, deck[0]] };
    const r = await check(doc);
    const f = r.findings.find((x) => x.kind === 'mismatch');
    assert.deepEqual([f.field, f.index, f.derived, f.observed, f.differences], ['deck', 52, null, deck[0], 1]);
  });

  test('a round reports its first error in the documented order', async () => {
    const base = { ...shoeRound(), observed: undefined };
    delete base.observed;
    const cases = [
      ['{"op":"shoe.deal","nonce":1,"nonce":2}', 'nonce'],
      ['[1]', 'round'],
      [{ ...base, id: 1 }, 'id'],
      [{ ...base, op: 'cursor.hash' }, 'op'],
      [{ ...base, op: 'shoe.nope' }, 'op'],
      [{ ...base, serverSeed: 'x' }, 'serverSeed'],
      [{ ...base, seats: [{ player: 1, seed: 'a' }] }, 'seats'],
      [{ ...base, external: '' }, 'external'],
      // A missing field before an unknown key before an out-of-range value.
      [{ ...base, decks: undefined, foo: 1, nonce: -1 }, 'decks'],
      [{ ...base, foo: 1, nonce: -1 }, 'foo'],
      [{ ...base, nonce: -1 }, 'nonce'],
      [{ ...base, decks: '6' }, 'decks'],
      [{ ...base, observed: { cut: null } }, 'observed.cut'],
      [{ ...base, observed: { face: 3 } }, 'observed.face'],
      [{ ...base, observed: { cards: ['AS', '1X'] } }, 'observed.cards'],
    ];
    for (const [round, field] of cases) {
      const text = typeof round === 'string' ? round : stringifyJson(Object.fromEntries(Object.entries(round).filter(([, v]) => v !== undefined)));
      const doc = `{"proof":1,"epochs":[{"commit":null,"serverSeed":"s","rounds":[${text}]}]}`;
      const r = await check(doc);
      assert.equal(r.invalid, 1, `${text}: one invalid round`);
      assert.equal(r.findings[0].field, field, `${text}: ${stringifyJson(r.findings[0])}`);
    }
    const card = await check(`{"proof":1,"epochs":[{"serverSeed":"s","rounds":[${stringifyJson({ ...base, observed: { cards: ['AS', '1X'] } })}]}]}`);
    assert.equal(card.findings[0].index, 1);
  });

  test('a key given twice inside observed is named by its path', async () => {
    const doc = '{"proof":1,"epochs":[{"serverSeed":"s","rounds":[{"op":"dice.roll","clientSeed":"c","n":0,"observed":{"face":1,"face":2}}]}]}';
    assert.equal((await check(doc)).findings[0].field, 'observed.face');
  });

  test('JSON lines: blank lines are counted for line numbers, CRLF is fine, a broken line is one finding and the rest is checked', async () => {
    const e = byId('ladder').doc.epochs[0];
    const line = stringifyJson(e);
    const text = `${line}\r\n\n  \n{"commit": null, "serverSeed": \n[1]\n${line}\n`;
    assert.equal(isDocument(text), false);
    const r = await check(text);
    assert.equal(r.epochs, 4);
    assert.equal(r.commitOk, 2);
    assert.equal(r.invalidOther, 2);
    assert.equal(r.verdict, 'invalid');
    assert.deepEqual(r.findings.map((f) => [f.epoch, f.round, f.line, f.field]), [[1, null, 4, null], [2, null, 5, null]]);
  });

  test('bytes that are not UTF-8: a line is one finding at its line, a document is invalid as a whole', async () => {
    const good = new TextEncoder().encode(stringifyJson(byId('ladder').doc.epochs[0]));
    const lines = new Uint8Array([...good, 0x0a, 0xff, 0xfe, 0x0a]);
    const r = (await checkProof(lines)).report;
    assert.equal(r.epochs, 2);
    assert.deepEqual(r.findings.map((f) => [f.epoch, f.line, f.kind]), [[1, 2, 'invalid']]);
    const doc = new Uint8Array([...new TextEncoder().encode('{"proof":1,"title":"'), 0xff, ...new TextEncoder().encode('","epochs":[]}')]);
    const d = (await checkProof(doc)).report;
    assert.equal(d.verdict, 'invalid');
    assert.equal(d.findings.length, 1);
  });

  test('a document that is not JSON is invalid as a whole, at the line where it breaks', async () => {
    const r = await check('{"proof": 1,\n "epochs": [\n  {"serverSeed": "s", "rounds": [}\n]}');
    assert.equal(r.verdict, 'invalid');
    assert.deepEqual(r.findings.map((f) => [f.epoch, f.round, f.line, f.field]), [[null, null, 3, null]]);
    assert.equal(r.epochs, 0);
  });

  test('an empty input is JSON lines with nothing in it: nothing to compare', async () => {
    const r = await check('');
    assert.equal(r.verdict, 'unobserved');
    assert.equal(r.epochs, 0);
  });

  test('the commitment of each epoch is the scheme\'s own: SHA-256 of the seed text, or of "selfpoker:" + seed', async () => {
    assert.deepEqual(commitmentOf('selfpoker.deck'), { op: 'selfpoker.commit', field: 'seed', result: 'commit' });
    const { epochs } = await checkProof(byId('selfpoker').text);
    for (const e of epochs) assert.equal(e.commit.derived, sha256hex(`selfpoker:${e.secret.value}`));
    const shoe = await checkProof(byId('shoe').text);
    assert.equal(shoe.epochs[0].commit.derived, sha256hex(shoe.epochs[0].secret.value));
  });
});
