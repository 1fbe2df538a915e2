// MacSequence (crypto.mjs) signs ahead what a scheme will use, not a doubled
// batch more: counted with a provider that counts its signatures, over the
// committed vectors (vectors.test.mjs holds every outcome to them).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { firstDifference } from '../compare.mjs';
import { createEngine } from '../provably.mjs';
import { WEBCRYPTO } from '../webcrypto.mjs';
import { loadVectors } from '../testkit/proofs.mjs';

function counting() {
  const c = { signs: 0 };
  c.engine = createEngine({ name: 'counting WebCrypto', hmacSha256: (k, m) => (c.signs++, WEBCRYPTO.hmacSha256(k, m)), sha256: (t) => WEBCRYPTO.sha256(t) });
  return c;
}

test('a cursor shuffle signs at most a few MACs beyond the cursors it uses', async () => {
  const c = counting();
  for (const { tcId, input, expected } of loadVectors().filter((t) => t.input.op === 'cursor.shuffle' && t.input.count >= 2)) {
    const before = c.signs;
    const r = await c.engine.execute(input);
    assert.equal(firstDifference(expected, r.ok), null, `tcId ${tcId}`);
    const used = Number(BigInt(expected.cursorNext) - BigInt(input.cursor));
    const rejections = used - (input.count - 1);
    const signed = c.signs - before;
    assert.ok(signed >= used, `tcId ${tcId}: ${signed} signed for ${used} used`);
    // Past the hint (count − 1 draws) batches start at 2 and double: what is
    // signed past the last cursor used is fewer than the rejections, plus 2.
    assert.ok(signed - used <= rejections + 2, `tcId ${tcId}: ${signed} MACs signed for ${used} used (${rejections} rejections)`);
  }
});
