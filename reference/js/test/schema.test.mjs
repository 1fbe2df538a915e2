// The limits cannot drift: every op reference/js declares, with its fields,
// required-ness and limits, against harness/protocol.schema.json (written by
// the Rust side). Mutated copies of either side prove the check can fail and
// that its message names the op and the field.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { SERVER_SEED_COMMITMENT } from '../cursor.mjs';
import { makeEngine, registered, within } from '../engine.mjs';
import { OPS as TABLE } from '../generated/ops.mjs';
import { BUILT, OPS, SCHEMES, createEngine } from '../provably.mjs';
import { none, tables } from '../stats/laws.mjs';
import { REPO } from '../testkit/helpers.mjs';
import { declaredRequests, schemaProblems } from '../testkit/schema.mjs';
import { bool, int, text } from '../validate.mjs';
import { WEBCRYPTO } from '../webcrypto.mjs';

const SCHEMA = JSON.parse(readFileSync(join(REPO, 'harness/protocol.schema.json'), 'utf8'));
const REQUESTS = declaredRequests(createEngine());

/** The problems after `mutate` has changed a deep copy of the schema. */
function withSchema(mutate) {
  const copy = structuredClone(SCHEMA);
  mutate(copy.$defs);
  return schemaProblems(REQUESTS, copy);
}

/** The problems after `mutate` has changed a copy of the JS declarations ({ op: fields }). */
function withDeclarations(mutate) {
  const copy = Object.fromEntries(Object.entries(REQUESTS).map(([op, fields]) => [op, { ...fields }]));
  mutate(copy);
  return schemaProblems(copy, SCHEMA);
}

test('reference/js declares exactly the ops, fields and limits of protocol.schema.json', () => {
  assert.ok(Object.keys(REQUESTS).length >= 14, 'hello and every op are compared');
  assert.deepEqual(schemaProblems(REQUESTS, SCHEMA), []);
});

describe('the check fails, naming op and field, when the Rust schema', () => {
  test('changes a limit', () => {
    const problems = withSchema((d) => (d['request:poker.deal'].properties.players.maximum = 23));
    assert.deepEqual(problems, ['poker.deal: field players: maximum is 23 in the Rust schema, 22 in reference/js']);
  });

  test('changes a nested limit, an exclusive bound or a pattern', () => {
    const problems = withSchema((d) => {
      d['request:poker.evaluate'].properties.cards.items.maximum = 52;
      const pen = d['request:shoe.deal'].properties.penetration;
      pen.minimum = pen.exclusiveMinimum;
      delete pen.exclusiveMinimum;
      d['request:selfpoker.deck'].properties.seed.pattern = '^[0-9]+$';
    });
    assert.equal(problems.length, 4, problems.join('\n'));
    assert.match(problems[0], /^poker\.evaluate: field cards: items is .*"maximum":52.* in the Rust schema/);
    assert.match(problems[1], /^shoe\.deal: field penetration: minimum is 0 in the Rust schema, absent in reference\/js/);
    assert.match(problems[2], /^shoe\.deal: field penetration: exclusiveMinimum is absent in the Rust schema, 0 in reference\/js/);
    assert.match(problems[3], /^selfpoker\.deck: field seed: pattern is "\^\[0-9\]\+\$" in the Rust schema/);
  });

  test('gains an op, loses one, or orders them differently', () => {
    const added = withSchema((d) => {
      d['request:roulette.spin'] = structuredClone(d['request:dice.roll']);
      delete d['request:ladder.shuffle'];
    });
    assert.deepEqual(added, [
      'roulette.spin: in the Rust schema, not declared in reference/js',
      'ladder.shuffle: declared in reference/js, not in the Rust schema',
    ]);
    const reordered = withSchema((d) => {
      const dice = d['request:dice.roll'];
      delete d['request:dice.roll'];
      d['request:dice.roll'] = dice;
    });
    // Expected from the schema's own order, so a new op changes nothing here.
    const ops = Object.keys(SCHEMA.$defs).filter((k) => k.startsWith('request:')).map((k) => k.slice(8));
    const moved = [...ops.filter((op) => op !== 'dice.roll'), 'dice.roll'];
    assert.deepEqual(reordered, [`ops in another order: Rust ${moved.join(', ')}; reference/js ${ops.join(', ')}`]);
  });

  test('gains a field, makes one optional, or allows extra fields', () => {
    const problems = withSchema((d) => {
      d['request:cursor.hash'].properties.pepper = { type: 'string' };
      const int = d['request:cursor.int'];
      int.required = int.required.filter((f) => f !== 'range');
      d['request:hello'].additionalProperties = true;
    });
    assert.deepEqual(problems, [
      'hello: the Rust schema allows fields it does not list; reference/js refuses them',
      'cursor.hash: field pepper is in the Rust schema, not declared in reference/js',
      'cursor.int: field range is optional in the Rust schema, required in reference/js',
    ]);
  });
});

describe('the check fails when reference/js', () => {
  test('changes a limit or a type', () => {
    const problems = withDeclarations((r) => {
      r['ladder.shuffle'].size = int(1, 99999);
      r['dice.roll'].n = text();
    });
    assert.deepEqual(problems, [
      'dice.roll: field n: type is "integer" in the Rust schema, "string" in reference/js',
      'dice.roll: field n: minimum is 0 in the Rust schema, absent in reference/js',
      'dice.roll: field n: maximum is 9007199254740991 in the Rust schema, absent in reference/js',
      'ladder.shuffle: field size: maximum is 100000 in the Rust schema, 99999 in reference/js',
    ]);
  });

  test('makes a field optional, drops one or declares an op of its own', () => {
    const problems = withDeclarations((r) => {
      r['shoe.deal'].decks = r['shoe.deal'].decks.optional(6);
      delete r['cursor.raw'].cursor;
      r['cursor.teleport'] = { serverSeed: text() };
    });
    assert.deepEqual(problems, [
      'cursor.teleport: declared in reference/js, not in the Rust schema',
      'cursor.raw: field cursor is in the Rust schema, not declared in reference/js',
      'shoe.deal: field decks is required in the Rust schema, optional in reference/js',
      'shoe.deal: field decks: default is absent in the Rust schema, 6 in reference/js',
    ]);
  });
});

test('an optional field with a default: declared, validated and described as the schema would', async () => {
  // A toy scheme shaped like the coming blackjack.strategy.
  const toy = {
    id: 'toy',
    commitment: { op: 'toy.hash', field: 'serverSeed', result: 'hash' },
    ops: {
      'toy.hash': { fields: { serverSeed: text() }, run: async (p, f) => ({ hash: await p.sha256Hex(f.serverSeed) }) },
      'toy.strategy': {
        fields: { soft: bool(), doubleAfterSplit: bool().optional(true) },
        run: (_, f) => ({ seen: f }),
      },
    },
  };
  const engine = makeEngine({ schemes: [toy], provider: WEBCRYPTO, name: 'toy' });
  assert.deepEqual((await engine.execute({ op: 'toy.strategy', soft: false })).ok.seen, { soft: false, doubleAfterSplit: true });
  assert.deepEqual((await engine.execute({ op: 'toy.strategy', soft: true, doubleAfterSplit: false })).ok.seen, {
    soft: true,
    doubleAfterSplit: false,
  });
  assert.deepEqual(await engine.execute({ op: 'toy.strategy', soft: true, doubleAfterSplit: 1 }), {
    error: { kind: 'invalid', message: 'doubleAfterSplit: must be true or false, got 1' },
  });
  assert.deepEqual(await engine.execute({ op: 'toy.strategy' }), {
    error: { kind: 'invalid', message: 'missing field soft: toy.strategy takes soft, doubleAfterSplit' },
  });
  const rust = {
    $defs: {
      'request:hello': SCHEMA.$defs['request:hello'],
      'request:toy.hash': {
        type: 'object',
        properties: { id: { type: 'integer' }, op: { const: 'toy.hash' }, serverSeed: { type: 'string' } },
        required: ['id', 'op', 'serverSeed'],
        additionalProperties: false,
      },
      'request:toy.strategy': {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          op: { const: 'toy.strategy' },
          soft: { type: 'boolean' },
          doubleAfterSplit: { type: 'boolean', default: true, description: 'prose is not compared' },
        },
        required: ['id', 'op', 'soft'],
        additionalProperties: false,
      },
    },
  };
  assert.deepEqual(schemaProblems(declaredRequests(engine), rust), []);
});

test('the registry refuses a scheme whose declarations a typo broke', () => {
  const build = (schemes) => () => makeEngine({ schemes, provider: WEBCRYPTO, name: 'x' });
  const [cursor, poker] = SCHEMES;
  assert.throws(build([cursor, cursor]), /needs an id of its own/);
  assert.throws(build([{ ...poker, ops: { 'pokr.deal': poker.ops['poker.deal'] } }]), /must start with "poker\."/);
  assert.throws(build([{ ...cursor, ops: { ...cursor.ops, 'cursor.x': { fields: { n: 5 }, run() {} } } }]), /cursor\.x\.n is not a field/);
  assert.throws(build([poker]), /commitment must name a registered op/);
  // Declared by every scheme; `undefined` only where nothing is committed
  // (blackjack), no one op of one field makes the commitment (crash: a
  // chain's terminating hash, reached by walking the chain), or the
  // commitment takes more than the committed seed (skin.club's public
  // hash, keyed by a salt).
  for (const scheme of SCHEMES) assert.ok(Object.hasOwn(scheme, 'commitment'), `${scheme.id} declares its commitment`);
  assert.deepEqual(SCHEMES.filter((s) => s.commitment === undefined).map((s) => s.id), ['blackjack', 'crash', 'skinclub', 'csgoempire']);
});

test('the registry refuses at start-up an op that declares no statistics, or declares them wrong', () => {
  const [cursor] = SCHEMES;
  const { stats, ...forgot } = cursor.ops['cursor.float'];
  assert.ok(stats.tables, 'cursor.float declares tables');
  const scheme = (op) => ({ ...cursor, ops: { ...cursor.ops, 'cursor.float': op } });
  assert.throws(() => registered([scheme(forgot)]), /scheme "cursor": op cursor\.float declares no stats/);
  assert.throws(() => registered([scheme({ ...forgot, stats: { tables: {} } })]), /op cursor\.float stats must be tables/);
  assert.throws(() => makeEngine({ schemes: [scheme({ ...forgot, stats: 'none' })], provider: WEBCRYPTO, name: 'x' }), /cursor\.float: stats must be tables/);
  assert.throws(() => none(''), /say why/);
  assert.throws(() => tables({ family() {}, shape() {} }), /layout, sample must be functions/);
  // An adapter's partial scheme may leave them out; what the registry lists never does.
  assert.doesNotThrow(() => makeEngine({ schemes: [scheme(forgot)], provider: WEBCRYPTO, name: 'x' }));
  assert.equal(registered(SCHEMES).length, SCHEMES.length);
  for (const s of SCHEMES) for (const [op, d] of Object.entries(s.ops)) assert.ok(d.stats.none || d.stats.tables, `${op} declares its statistics`);
});

test('a scheme whose ops the generated table lacks stays registered and gives the engine none of them', async () => {
  // A feature-gated game: its module is there in every build, its ops only in the build that has them.
  const game = {
    id: 'gated',
    commitment: SERVER_SEED_COMMITMENT,
    ops: { 'gated.flip': { fields: {}, run: async () => ({ side: 0 }), stats: none('an example'), bet: false } },
  };
  const listed = registered([...SCHEMES, game]);
  const built = within(listed, TABLE);
  assert.deepEqual(built.map((s) => s.id), BUILT.map((s) => s.id), 'the gated scheme drops out');
  const engine = makeEngine({ schemes: built, provider: WEBCRYPTO, name: 'x' });
  assert.deepEqual(engine.OPS, OPS);
  assert.equal((await engine.execute({ op: 'gated.flip' })).error.kind, 'unsupported');
  // The build that has the op serves it.
  const gated = makeEngine({ schemes: within(listed, [...TABLE, 'gated.flip']), provider: WEBCRYPTO, name: 'x' });
  assert.deepEqual((await gated.execute({ op: 'gated.flip' })).ok, { side: 0 });
  assert.deepEqual(gated.OPS, [...OPS, 'gated.flip']);
  assert.deepEqual([...OPS], [...TABLE], 'this build: every op of the generated table, in its order');
});
