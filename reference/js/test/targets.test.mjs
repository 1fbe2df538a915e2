// Two protocol rules, held against every target this repository ships in
// JavaScript or Python (the templates an auditor copies, the adapters, our
// node target): a blank line gets no answer, and a JSON object with an
// integer id is answered with that id, however wrong the rest is (a lone
// surrogate, a repeated key, an unknown op). Each target is a real process
// fed real lines.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { NUMPY_PYTHON, PYTHON, REPO, hasNumpy, spawnTarget } from '../testkit/helpers.mjs';

const NUMPY = hasNumpy();
const IN_CI = !['', '0', 'false'].includes((process.env.CI ?? '').trim().toLowerCase());

/** name -> [command, args, an op it implements with a string field, that field, the other fields]. */
const TARGETS = {
  'docs/templates/target.py': [PYTHON, 'cursor.hash', 'serverSeed', {}],
  'docs/templates/target.mjs': [process.execPath, 'cursor.hash', 'serverSeed', {}],
  'reference/js/target.mjs': [process.execPath, 'cursor.hash', 'serverSeed', {}],
  'reference/adapters/dice_published_target.mjs': [process.execPath, 'dice.roll', 'clientSeed', { serverSeed: 's', n: 1 }],
  'reference/adapters/numpy_target.py': [NUMPY_PYTHON, 'selfpoker.deck', 'seed', {}, 'numpy'],
  'reference/adapters/selfpoker_page_target.py': [NUMPY_PYTHON, 'selfpoker.commit', 'seed', {}, 'numpy'],
};

const BLANKS = ['', ' ', '\t', '\r', ' \t\r  '];

/** The request lines (JSON text written by hand, so "\ud800" stays an escape) and their ids. */
function requests(op, field, others) {
  const rest = Object.entries(others).map(([k, v]) => `,${JSON.stringify(k)}:${JSON.stringify(v)}`).join('');
  return [
    `{"id":0,"op":"hello","protocol":1}`,
    `{"id":1,"op":"${op}","${field}":"a\\ud800b"${rest}}`,
    `{"id":2,"op":"${op}","${field}":"\\udc00"${rest}}`,
    `{"id":3,"op":"${op}","${field}":"x"${rest},"\\ud800":1}`,
    `{"id":4,"op":"${op}","${field}":"1"${rest},"op":"${op}"}`,
    `{"id":5,"op":"\\ud800"}`,
  ];
}

describe('every JS and Python target', () => {
  for (const [file, [cmd, op, field, others, needs]] of Object.entries(TARGETS)) {
    const skip = needs === 'numpy' && !NUMPY && !IN_CI && `no numpy for ${NUMPY_PYTHON} (make venv)`;
    test(`${file}: blank lines get no answer; an integer id is always echoed`, { skip }, async () => {
      const lines = requests(op, field, others);
      // Blanks before, between and after the requests, and a last blank line without its newline.
      const input = `${BLANKS.join('\n')}\n${lines.join(`\n${BLANKS.join('\n')}\n`)}\n${BLANKS.join('\n')}`;
      const { code, responses, stderr } = await spawnTarget(cmd, [join(REPO, file)], input);
      assert.equal(code, 0, stderr);
      assert.deepEqual(responses.map((r) => r.id), [0, 1, 2, 3, 4, 5], 'one answer per request, blanks unanswered');
      assert.ok(responses[0].ok, JSON.stringify(responses[0]));
      for (const id of [1, 2, 3]) assert.equal(responses[id].error?.kind, 'invalid', JSON.stringify(responses[id]));
      assert.equal(responses[5].error?.kind, 'unsupported', JSON.stringify(responses[5]));
      // A strict reader (serde_json) refuses a lone surrogate in our own line.
      for (const r of responses) assert.ok(!r.error || r.error.message.isWellFormed(), JSON.stringify(r));
    });
  }
});
