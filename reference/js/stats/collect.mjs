// Counting (the JS twin of src/stats/collect.rs): the count tables of every
// family seen, filled one derived round at a time in document order, with
// the pairs of consecutive steps for the serial tests. At most MAX_FAMILIES
// families have tables: the smallest keys (op, then parameters) among all
// the families met, whatever the order the rounds come in; when a smaller
// key comes while the tables are full, the largest goes and its rounds are
// untested. The families past the cap are counted (up to MAX_PAST).

import { declarations as REGISTERED } from '../provably.mjs';
import { compareKeys, hasTests, keyOf, sample, shape } from './model.mjs';

/** At most this many families are counted: the smallest keys; the rounds of any other are untested. */
export const MAX_FAMILIES = 64;
/** The most families past the cap counted one by one (past it, "at least"). */
export const MAX_PAST = 4096;

/** Count tables of every family seen, filled one derived round at a time in document order. */
export class Collector {
  /** `declarations`: op → declaration (an engine's), the registry's by default. */
  constructor(declarations = REGISTERED) {
    this.declarations = declarations;
    this.tables = new Map();
    this.rounds = 0;
    this.untested = 0;
    this.past = new Map();
    this.cells = [];
  }

  /** How many families were past the cap (at least this many when it is MAX_PAST). */
  get pastCap() {
    return this.past.size;
  }

  /** Notes `key` as past the cap; only the MAX_PAST smallest are kept. */
  pass(key) {
    if (this.past.has(key.id)) return;
    this.past.set(key.id, key);
    if (this.past.size > MAX_PAST) {
      const largest = [...this.past.values()].reduce((x, y) => (compareKeys(x, y) >= 0 ? x : y));
      this.past.delete(largest.id);
    }
  }

  /** Whether `key`, a family without a table, gets one: below the cap, or when smaller than the largest (which goes). */
  makeRoom(key) {
    if (this.tables.size < MAX_FAMILIES) return true;
    let largest = null;
    for (const t of this.tables.values()) if (!largest || compareKeys(t.key, largest.key) > 0) largest = t;
    if (compareKeys(key, largest.key) > 0) {
      this.pass(key);
      return false;
    }
    this.tables.delete(largest.key.id);
    this.rounds -= largest.rounds;
    this.untested += largest.rounds;
    this.pass(largest.key);
    return true;
  }

  /** One derived round of epoch `epoch`: its request and its derived `ok` object. */
  add(epoch, req, ok) {
    const key = keyOf(req, this.declarations);
    if (!key) {
      if (hasTests(req.op, this.declarations)) this.untested++;
      return;
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
    let table = this.tables.get(key.id);
    if (!table) {
      if (!this.makeRoom(key)) {
        this.untested++;
        return;
      }
      const [tests, stride] = shape(key);
      table = { key, tests, stride, counts: new Float64Array(tests * stride), pairs: new Float64Array(stride * stride), rounds: 0, last: null };
      this.tables.set(key.id, table);
    }
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
