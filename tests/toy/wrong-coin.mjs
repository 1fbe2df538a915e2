#!/usr/bin/env node
// toy.coin with its sides the wrong way round (tails below one half), served
// as a protocol v1 target: the slip the toy's vectors must catch, as every
// op of the normal build has its mutants in harness/bugs/catalog.json. The
// toy's cannot live there: that catalog runs against the normal build,
// which has no toy.coin (docs/contributing.md).
//   node tests/toy/wrong-coin.mjs    (from the toy tree, scripts/toy-tree)

import { makeEngine } from '../../reference/js/engine.mjs';
import { BUILT } from '../../reference/js/provably.mjs';
import { runTarget } from '../../reference/js/serve.mjs';
import { WEBCRYPTO } from '../../reference/js/webcrypto.mjs';

const toy = BUILT.find((s) => s.id === 'toy');
if (!toy) {
  process.stderr.write('wrong-coin.mjs: this tree\'s op table has no toy.coin (run it in the tree scripts/toy-tree writes)\n');
  process.exit(2);
}
const coin = toy.ops['toy.coin'];
const swapped = async (p, f) => {
  const { side } = await coin.run(p, f);
  return { side: side === 'heads' ? 'tails' : 'heads' };
};
// No commitment: the target claims toy.coin alone.
const schemes = [{ id: 'toy', ops: { 'toy.coin': { ...coin, run: swapped } } }];
runTarget(makeEngine({ schemes, provider: WEBCRYPTO, name: 'toy.coin, sides swapped' }));
