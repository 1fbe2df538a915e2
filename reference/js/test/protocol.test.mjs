// target.mjs as the harness sees it: a child process speaking protocol v1
// (docs/protocol.md) over stdin/stdout.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { OPS } from '../provably.mjs';
import { REPO, spawnTarget } from '../testkit/helpers.mjs';

const TARGET = join(REPO, 'reference/js/target.mjs');

/** The node target as the harness runs it, fed `input`. */
const runTarget = (input, options) => spawnTarget(process.execPath, [TARGET], input, options);

const req = (id, op, fields = {}) => JSON.stringify({ id, op, ...fields });
const SEEDS = { serverSeed: 'server', clientSeed: 'client' };

test('hello names the target and claims every op; EOF exits 0', async () => {
  const { code, responses } = await runTarget(`${req(0, 'hello', { protocol: 1 })}\n`);
  assert.equal(code, 0);
  assert.equal(responses.length, 1);
  assert.equal(responses[0].id, 0);
  assert.match(responses[0].ok.name, /^provably-js \d+\.\d+\.\d+$/);
  assert.deepEqual(responses[0].ok.ops, OPS);
  // Every op of the Rust table, in its order (the generated schema lists them).
  const schema = JSON.parse(readFileSync(join(REPO, 'harness/protocol.schema.json'), 'utf8'));
  const rust = Object.keys(schema.$defs).filter((k) => k.startsWith('request:')).map((k) => k.slice(8)).filter((op) => op !== 'hello');
  assert.deepEqual(OPS, rust);
});

test('empty input: no output, exit 0', async () => {
  const { code, lines } = await runTarget('');
  assert.equal(code, 0);
  assert.deepEqual(lines, []);
});

test('malformed lines get id null and kind invalid, and the target keeps serving', async () => {
  const bad = [
    'not json',
    '\f', // a form feed is not JSON whitespace
    '[1,2]',
    '"string"',
    '{"op":"cursor.hash","serverSeed":"x"}', // no id
    '{"id":"7","op":"cursor.hash","serverSeed":"x"}', // id not an integer
    '{"id":1.5,"op":"cursor.hash","serverSeed":"x"}',
    '{"id":1,"op":"cursor.hash","serverSeed":"x"', // truncated
    '{"id":1,"id":2,"op":"cursor.hash","serverSeed":"x"}', // duplicate id
    '{"id":1,"op":"cursor.hash","serverSeed":"x"} trailing',
  ];
  const input = `${bad.join('\n')}\n${req(9, 'cursor.hash', { serverSeed: 'x' })}\n`;
  const { code, responses } = await runTarget(input);
  assert.equal(code, 0);
  assert.equal(responses.length, bad.length + 1);
  for (let i = 0; i < bad.length; i++) {
    assert.equal(responses[i].id, null, bad[i]);
    assert.equal(responses[i].error.kind, 'invalid', bad[i]);
    assert.ok(responses[i].error.message.length > 0);
  }
  assert.equal(responses.at(-1).id, 9);
  assert.match(responses.at(-1).ok.hash, /^[0-9a-f]{64}$/);
});

test('blank lines (nothing, or only spaces, tabs and CR) are not requests and get no answer', async () => {
  const blanks = ['', ' ', '\t', '\r', ' \t \r', '    '];
  const input = `${blanks.join('\n')}\n${req(1, 'cursor.hash', { serverSeed: 'x' })}\n${blanks.join('\n')}\n${req(2, 'hello', { protocol: 1 })}\r\n \t`;
  const { code, responses } = await runTarget(input);
  assert.equal(code, 0);
  assert.deepEqual(responses.map((r) => r.id), [1, 2]);
  assert.match(responses[0].ok.hash, /^[0-9a-f]{64}$/);
  assert.ok(responses[1].ok.ops.length > 0);
});

test('a JSON object with an integer id is answered with that id, whatever else is wrong', async () => {
  const lines = [
    '{"id":1,"op":"cursor.hash","serverSeed":"\\ud800"}',
    '{"id":2,"op":"dice.roll","serverSeed":"s","clientSeed":"a\\udfffb","n":1}',
    '{"id":3,"op":"shoe.tournament","serverSeed":"s","tournamentId":"\\udbff","hand":0,"decks":1,"penetration":0.5}',
    '{"id":4,"op":"selfpoker.deck","seed":"\\ud800"}',
    '{"id":5,"op":"poker.evaluate","cards":["\\ud800",1,2,3,4]}',
    '{"id":6,"op":"cursor.hash","serverSeed":"x","\\ud800":1}',
    '{"id":7,"op":"cursor.hash","serverSeed":"x","op":"cursor.hash"}', // a key other than id twice
    '{"id":8,"op":"cursor.hash","serverSeed":"x","nested":{"a":1,"a":2}}',
    // Cut after 37 characters, this seed's message would split an emoji's surrogate pair.
    '{"id":9,"op":"selfpoker.deck","seed":"a🂡🂡🂡🂡🂡🂡🂡🂡🂡🂡🂡🂡🂡🂡🂡🂡🂡🂡🂡🂡🂡"}',
  ];
  const { responses } = await runTarget(`${lines.join('\n')}\n{"id":10,"op":"\\ud800"}\n`);
  assert.equal(responses.length, lines.length + 1);
  lines.forEach((line, i) => {
    assert.equal(responses[i].id, i + 1, line);
    assert.equal(responses[i].error?.kind, 'invalid', line);
  });
  assert.equal(responses.at(-1).id, 10);
  assert.equal(responses.at(-1).error.kind, 'unsupported');
  assert.match(responses[0].error.message, /^serverSeed: lone surrogate U\+D800/);
  assert.match(responses[6].error.message, /duplicate key "op"/);
  // Every message is well-formed text: a strict reader (serde_json) refuses a lone surrogate.
  for (const r of responses) assert.ok(r.error.message.isWellFormed(), JSON.stringify(r));
});

test('invalid UTF-8 is invalid, not silently replaced', async () => {
  const line = Buffer.concat([Buffer.from('{"id":3,"op":"cursor.hash","serverSeed":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')]);
  const { responses } = await runTarget(line);
  assert.equal(responses[0].id, null);
  assert.equal(responses[0].error.kind, 'invalid');
});

test('unknown op is unsupported, with the request id', async () => {
  const { responses } = await runTarget(`${req(5, 'cursor.teleport', SEEDS)}\n${req(6, 'hello', { protocol: 1 })}\n`);
  assert.equal(responses[0].id, 5);
  assert.equal(responses[0].error.kind, 'unsupported');
  assert.ok(responses[1].ok);
});

test('invalid fields: each named in the message', async () => {
  const base = { ...SEEDS, nonce: 0, cursor: 0 };
  const cases = [
    ['cursor.raw', { ...base, extra: 1 }, /extra/],
    ['cursor.raw', { serverSeed: 'x', clientSeed: 'y', nonce: 0 }, /cursor/],
    ['cursor.raw', { ...base, nonce: -1 }, /nonce/],
    ['cursor.raw', { ...base, nonce: 9007199254740992 }, /nonce/],
    ['cursor.raw', { ...base, nonce: '1' }, /nonce/],
    ['cursor.raw', { ...base, cursor: 1.5 }, /cursor/],
    ['cursor.raw', { ...base, serverSeed: 5 }, /serverSeed/],
    ['cursor.int', { ...base, range: 0 }, /range/],
    ['cursor.shuffle', { ...base, count: 100001 }, /count: 100001 is above the limit 100000/],
    ['poker.deal', { ...SEEDS, nonce: 0, players: 1 }, /players/],
    ['poker.deal', { ...SEEDS, nonce: 0, players: 23 }, /players/],
    ['shoe.deal', { ...SEEDS, nonce: 0, decks: 9, penetration: 0.5 }, /decks/],
    ['shoe.deal', { ...SEEDS, nonce: 0, decks: 1, penetration: 1 }, /penetration/],
    ['shoe.deal', { ...SEEDS, nonce: 0, decks: 1, penetration: 0 }, /penetration/],
    ['shoe.deal', { ...SEEDS, nonce: 0, decks: 1, penetration: '0.5' }, /penetration/],
    ['ladder.shuffle', { ...SEEDS, size: 0 }, /size/],
    ['selfpoker.deck', { seed: 5 }, /seed/],
    ['poker.evaluate', { cards: [1, 2, 3, 4] }, /cards/],
    ['hello', { protocol: 2 }, /protocol/],
  ];
  const lines = cases.map(([op, fields], i) => req(i, op, fields));
  // Integer fields must be JSON integers: 1.0 and 1e0 are not.
  lines.push('{"id":100,"op":"dice.roll","serverSeed":"s","clientSeed":"c","n":1.0}');
  lines.push('{"id":101,"op":"dice.roll","serverSeed":"s","clientSeed":"c","n":1e0}');
  lines.push('{"id":102,"op":"dice.roll","serverSeed":"s","clientSeed":"c","n":18446744073709551616}');
  // A lone surrogate is not a Unicode scalar value.
  lines.push('{"id":103,"op":"cursor.hash","serverSeed":"ab\\ud800cd"}');
  lines.push('{"id":104,"op":"cursor.hash","serverSeed":"\\udc00"}');
  const { responses } = await runTarget(`${lines.join('\n')}\n`);
  assert.equal(responses.length, lines.length);
  cases.forEach(([op, , pattern], i) => {
    assert.equal(responses[i].id, i);
    assert.equal(responses[i].error?.kind, 'invalid', `${op} case ${i}: ${JSON.stringify(responses[i])}`);
    assert.match(responses[i].error.message, pattern);
  });
  for (const r of responses.slice(cases.length)) assert.equal(r.error?.kind, 'invalid', JSON.stringify(r));
  assert.match(responses.at(-2).error.message, /serverSeed: lone surrogate U\+D800/);
});

test('well-formed surrogate pairs, escapes and a missing final newline are fine', async () => {
  const input = '{"id":1,"op":"cursor.hash","serverSeed":"\\ud83c\\udca1"}\n{"id":2,"op":"cursor.hash","serverSeed":"🂡"}';
  const { responses } = await runTarget(input);
  assert.equal(responses.length, 2);
  assert.equal(responses[0].ok.hash, responses[1].ok.hash);
});

test('ids are echoed exactly, even past 2^53', async () => {
  const { lines } = await runTarget('{"id":123456789012345678901234567890,"op":"cursor.hash","serverSeed":"x"}\n{"id":-4,"op":"cursor.hash","serverSeed":"x"}\n');
  assert.match(lines[0], /^\{"id":123456789012345678901234567890,"ok":/);
  assert.match(lines[1], /^\{"id":-4,"ok":/);
});

test('thousands of mixed requests come back in order, fast', async () => {
  const ops = [
    (i) => req(i, 'cursor.float', { ...SEEDS, nonce: i, cursor: 0 }),
    (i) => req(i, 'cursor.int', { ...SEEDS, nonce: i, cursor: 0, range: 37 }),
    (i) => req(i, 'dice.roll', { ...SEEDS, n: i }),
    (i) => req(i, 'selfpoker.commit', { seed: String(i) }),
    (i) => req(i, 'poker.evaluate', { cards: [i % 52, (i + 1) % 52, (i + 2) % 52, (i + 3) % 52, (i + 17) % 52] }),
    (i) => req(i, 'nope', {}),
    (i) => (i % 70 === 6 ? 'garbage' : req(i, 'ladder.shuffle', { ...SEEDS, size: 25 })),
  ];
  const n = 5000;
  const lines = Array.from({ length: n }, (_, i) => ops[i % ops.length](i));
  const started = Date.now();
  const { code, responses } = await runTarget(`${lines.join('\n')}\n`, { timeout: 30000 });
  const seconds = (Date.now() - started) / 1000;
  assert.equal(code, 0);
  assert.equal(responses.length, n);
  responses.forEach((r, i) => {
    const garbage = lines[i] === 'garbage';
    assert.equal(r.id, garbage ? null : i);
  });
  // A generous floor: the point is that nothing is serialised per request.
  assert.ok(n / seconds > 500, `${Math.round(n / seconds)} requests/s`);
});

test('a 100000-count shuffle and an 8-deck shoe finish in reasonable time', async () => {
  const lines = [
    req(1, 'cursor.shuffle', { ...SEEDS, nonce: 0, cursor: 0, count: 100000 }),
    req(2, 'shoe.deal', { ...SEEDS, nonce: 0, decks: 8, penetration: 0.8 }),
  ];
  const { responses } = await runTarget(`${lines.join('\n')}\n`, { timeout: 60000 });
  assert.equal(responses[0].ok.order.length, 100000);
  assert.equal(responses[1].ok.cards.length, 416);
});
