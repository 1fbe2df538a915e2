// The catalog must not rot: every mutant it lists exists, starts, claims
// its ops, and answers its witness differently from provably; our clean
// engine answers every witness as provably does (so the difference is the
// fault's); and the kit's copies of the scheme functions, with no fault,
// reproduce every valid vector of their op.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { firstDifference } from '../../reference/js/compare.mjs';
import { primitives } from '../../reference/js/crypto.mjs';
import { parseJson } from '../../reference/js/json.mjs';
import { OPS, declarations } from '../../reference/js/provably.mjs';
import { validateFields } from '../../reference/js/validate.mjs';
import { WEBCRYPTO } from '../../reference/js/webcrypto.mjs';
import { FAULTS } from '../../harness/bugs/faults.mjs';
import * as k from '../../harness/bugs/kit.mjs';
import {
  CATALOG,
  PYTHON,
  REPO,
  ask,
  commandOf,
  eachLimited,
  provablyBin,
  requestLine,
  sameReply,
  show,
  witnessOp,
} from './protocol.mjs';

export const CATEGORIES = [
  'arithmetic',
  'formatting',
  'sanitising',
  'limits',
  'rounding',
  'byte-order',
  'block-boundary',
  'message',
  'evaluator',
  'chart',
  'numpy-port',
  'hmac-key',
  'utf8',
  'ok-to-malformed',
  'invalid-to-valid',
];

const MUTANTS = CATALOG.mutants;
const pythonSlips = () => {
  const r = spawnSync(PYTHON, [join(REPO, 'tests/mutants/mutant.py'), '--list'], { encoding: 'utf8' });
  assert.equal(r.status, 0, `mutant.py --list failed (numpy in ${PYTHON}? make venv): ${r.stderr}`);
  return r.stdout.trim().split('\n');
};

describe('the catalog', () => {
  test('has at least 60 mutants, every name once, and every op of protocol v1 has some', () => {
    assert.ok(MUTANTS.length >= 60, `${MUTANTS.length} mutants`);
    const names = MUTANTS.map((m) => m.name);
    assert.deepEqual(
      names.filter((n, i) => names.indexOf(n) !== i),
      [],
      'names given twice',
    );
    const covered = new Set(MUTANTS.flatMap((m) => m.ops));
    assert.deepEqual(
      OPS.filter((op) => !covered.has(op)),
      [],
      'ops without a mutant',
    );
  });

  test('every entry is complete: ops, category, description, one witness for one of its ops, what kills it', () => {
    for (const m of MUTANTS) {
      const where = `mutant ${m.name}`;
      assert.match(m.name, /^[a-z0-9][a-z0-9-]*$/, where);
      assert.ok(['js', 'python'].includes(m.lang), `${where}: lang ${m.lang}`);
      assert.ok(m.ops.length > 0 && m.ops.every((op) => OPS.includes(op)), `${where}: ops ${m.ops}`);
      if (m.models) {
        // The ops the harness replays it on to name a bug: its own and the others its fault changes.
        assert.ok(m.ops.every((op) => m.models.includes(op)) && m.models.every((op) => OPS.includes(op)), `${where}: models ${m.models}`);
      }
      assert.ok(CATEGORIES.includes(m.category), `${where}: category ${m.category} is not one of ${CATEGORIES}`);
      assert.ok(m.description.length > 10 && m.killedBy.length > 3, where);
      assert.equal(Object.keys(m.witness).length, 1, `${where}: a witness is {input} or {line}`);
      assert.ok(m.ops.includes(witnessOp(m.witness)), `${where}: the witness asks for ${witnessOp(m.witness)}`);
    }
  });

  test('every JavaScript mutant has its fault in faults.mjs, and faults.mjs has nothing else', () => {
    const js = MUTANTS.filter((m) => m.lang === 'js').map((m) => m.name);
    assert.deepEqual(
      js.filter((n) => !FAULTS[n]),
      [],
      'catalogued without a fault',
    );
    assert.deepEqual(
      Object.keys(FAULTS).filter((n) => !js.includes(n)),
      [],
      'faults not in the catalog',
    );
  });

  test('every Python mutant has its slip in mutant.py, and mutant.py has nothing else', () => {
    const py = MUTANTS.filter((m) => m.lang === 'python').map((m) => m.name);
    assert.deepEqual(pythonSlips().sort(), [...py].sort());
  });
});

describe('every witness', () => {
  test('is answered by each mutant differently from provably, and by our clean engine as by provably', async () => {
    const lines = MUTANTS.map((m, i) => requestLine(m.witness, i + 1));
    const provably = await ask([provablyBin(), ['serve']], lines);
    assert.equal(provably.code, 0, provably.stderr);
    const clean = await ask([process.execPath, [join(REPO, 'reference/js/target.mjs')]], lines);
    const failures = [];
    await eachLimited(MUTANTS, 4, async (m, i) => {
      const want = provably.byId.get(i + 1);
      if (m.lang === 'js' && !sameReply(want, clean.byId.get(i + 1))) {
        failures.push(`${m.name}: our clean engine answers ${show(clean.byId.get(i + 1))}, provably ${show(want)}`);
      }
      const got = await ask(commandOf(m), [requestLine(m.witness, i + 1)]);
      const claimed = got.hello?.ok?.ops;
      if (got.code !== 0 || !claimed || [...claimed].sort().join() !== [...m.ops].sort().join()) {
        failures.push(
          `${m.name}: hello ${show(got.hello)} (exit ${got.code}) does not claim exactly ${m.ops}; stderr: ${got.stderr}`,
        );
      } else if (sameReply(want, got.byId.get(i + 1))) {
        failures.push(
          `${m.name}: answers its witness ${requestLine(m.witness, i + 1)} as provably does: ${show(want)}`,
        );
      }
    });
    assert.deepEqual(failures.sort(), []);
  });
});

/** Each kit copy, as an op's run over validated fields. */
const COPIES = {
  'cursor.raw': (p, f) => k.rawHex(p, f.serverSeed, `${f.clientSeed}:${f.nonce}:${f.cursor}`),
  'cursor.float': async (p, f) => ({ float: k.floatOf(await k.mac(p, f)) }),
  'cursor.int': k.cursorInt,
  'cursor.shuffle': k.cursorShuffle,
  'poker.deal': k.pokerDeal,
  'poker.evaluate': async (_, f) => k.evaluate(f.cards),
  'shoe.deal': k.shoeDeal,
  'shoe.tournament': k.shoeTournament,
  'dice.roll': k.diceRoll,
  'selfpoker.deck': async (_, f) => k.numpyDeck(f),
  'ladder.shuffle': k.ladderShuffle,
  'shoe.stream': k.shoeStream,
  'blackjack.strategy': async (_, f) => ({ action: k.blackjackStrategy(f) }),
};

/** Every vector with an expected answer, by op, from vectors/*.json. */
function validVectors() {
  const out = [];
  for (const file of readdirSync(join(REPO, 'vectors')).filter((f) => f.endsWith('.json') && f !== 'selftest.json')) {
    const doc = parseJson(readFileSync(join(REPO, 'vectors', file), 'utf8'));
    for (const group of doc.testGroups ?? []) {
      for (const t of group.tests) if (t.expected && t.input && t.result !== 'invalid') out.push({ file, ...t });
    }
  }
  return out;
}

describe('the kit', () => {
  const p = primitives(WEBCRYPTO);
  const plain = primitives(k.provider('UTF-8'));
  test('copies with no fault reproduce every valid vector of their op, over WebCrypto and over node:crypto', async () => {
    const vectors = validVectors().filter((v) => COPIES[v.input.op]);
    assert.ok(vectors.length > 100, `${vectors.length} vectors`);
    const ops = new Set(vectors.map((v) => v.input.op));
    assert.deepEqual(
      Object.keys(COPIES).filter((op) => !ops.has(op)),
      [],
      'copies without vectors',
    );
    for (const v of vectors) {
      const f = validateFields(v.input.op, declarations.get(v.input.op).fields, v.input);
      for (const prims of [p, plain]) {
        const got = await COPIES[v.input.op](prims, f);
        const diff = firstDifference(v.expected, got);
        assert.equal(diff, null, `${v.file} tcId ${v.tcId} (${prims.name}): differs at ${diff}`);
      }
    }
  });
});
