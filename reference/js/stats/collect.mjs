// Counting (the JS twin of src/stats/collect.rs): the count tables of every
// family seen, filled one derived round at a time in document order, with
// the pairs of consecutive steps for the serial tests.

import { declarations as REGISTERED } from '../provably.mjs';
import { hasTests, keyOf, sample, shape } from './model.mjs';

/** At most this many families are counted; the rounds of any other are untested. */
export const MAX_FAMILIES = 64;

/** Count tables of every family seen, filled one derived round at a time in document order. */
export class Collector {
  /** `declarations`: op → declaration (an engine's), the registry's by default. */
  constructor(declarations = REGISTERED) {
    this.declarations = declarations;
    this.tables = new Map();
    this.rounds = 0;
    this.untested = 0;
    this.cells = [];
  }

  /** One derived round of epoch `epoch`: its request and its derived `ok` object. */
  add(epoch, req, ok) {
    const key = keyOf(req, this.declarations);
    if (!key) {
      if (hasTests(req.op, this.declarations)) this.untested++;
      return;
    }
    let table = this.tables.get(key.id);
    if (!table) {
      if (this.tables.size >= MAX_FAMILIES) {
        this.untested++;
        return;
      }
      const [tests, stride] = shape(key);
      table = { key, tests, stride, counts: new Float64Array(tests * stride), pairs: new Float64Array(stride * stride), rounds: 0, last: null };
      this.tables.set(key.id, table);
    }
    const cells = this.cells;
    cells.length = 0;
    let s;
    try {
      s = sample(key, req, ok, cells);
    } catch {
      s = null; // not the shape a derived outcome has
    }
    if (s === null) return;
    for (let i = 0; i < cells.length; i += 2) table.counts[cells[i] * table.stride + cells[i + 1]]++;
    table.rounds++;
    this.rounds++;
    if (s) {
      const last = table.last;
      if (last && last.epoch === epoch && last.stream === s.stream && last.index + 1 === s.index) table.pairs[last.value * table.stride + s.value]++;
      table.last = { epoch, ...s };
    }
  }
}
