// The structural scanner: the whole text is checked for syntax first; the
// walk that follows (document.mjs, lines.mjs) finds every key and value by
// position, so a key given twice can be reported where it stands and the
// other keys still checked.

import { parseJson, skipSpace } from '../json.mjs';

export class NotJson extends Error {
  constructor(message, offset) {
    super(message);
    this.offset = offset;
  }
}

export class Twice extends Error {
  constructor(path) {
    super(`${path} appears twice`);
    this.path = path;
  }
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const PLAIN = /[^"\\\u0000-\u001f]*/y;
const MAX_DEPTH = 128;
// With the u flag a well-formed pair is one code point outside this class,
// so only a surrogate without its partner matches.
const LONE = /[\uD800-\uDFFF]/u;

/**
 * A JSON scanner over one text: syntax only, and (on request) keys given
 * twice. `strict`: a string holding a lone surrogate escape ("\ud800", or
 * a low one alone) is not JSON, as serde_json and so `provably audit` read
 * it. The walk reads the document's own keys and small values (a title, a
 * commitment, a secret) and each round strictly; the syntax pass over the
 * whole text does not, so that a round's lone surrogate is that round's
 * finding, as the audit gives it, not the document's.
 */
export class Scanner {
  constructor(text, { strict = false } = {}) {
    this.t = text;
    this.i = 0;
    this.strict = strict;
  }

  fail(message) {
    throw new NotJson(this.i >= this.t.length ? `unexpected end of input (${message})` : message, this.i);
  }

  ws() {
    this.i = skipSpace(this.t, this.i);
  }

  /** Skips a string at the current position; returns its decoded text. */
  string() {
    const start = this.i++;
    for (;;) {
      PLAIN.lastIndex = this.i;
      PLAIN.test(this.t);
      this.i = PLAIN.lastIndex;
      const c = this.t[this.i];
      if (c === '"') {
        this.i++;
        const text = JSON.parse(this.t.slice(start, this.i));
        if (this.strict && LONE.test(text)) {
          this.i = start;
          this.fail('a string holding a lone surrogate escape is no Unicode text');
        }
        return text;
      }
      if (c === undefined) this.fail('unterminated string');
      if (c !== '\\') this.fail('a control character in a string must be escaped');
      const e = this.t[this.i + 1];
      if (e === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(this.t.slice(this.i + 2, this.i + 6))) this.fail('bad \\u escape');
        this.i += 6;
      } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
        this.i += 2;
      } else {
        this.fail('bad escape in a string');
      }
    }
  }

  /**
   * Skips one value (after white space); `path` (an array of keys) turns on
   * the search for a key given twice, which throws Twice with its path.
   */
  value(path = null, depth = 0) {
    this.ws();
    const c = this.t[this.i];
    if (c === '{') return this.object(path, depth + 1);
    if (c === '[') return this.array(path, depth + 1);
    if (c === '"') return void this.string();
    for (const word of ['true', 'false', 'null']) {
      if (this.t.startsWith(word, this.i)) {
        this.i += word.length;
        return undefined;
      }
    }
    NUMBER.lastIndex = this.i;
    if (c === undefined || !NUMBER.test(this.t)) this.fail('expected a JSON value');
    this.i = NUMBER.lastIndex;
    return undefined;
  }

  object(path, depth) {
    if (depth > MAX_DEPTH) this.fail('nested too deeply');
    this.i++;
    const seen = path ? new Set() : null;
    this.ws();
    if (this.t[this.i] === '}') {
      this.i++;
      return;
    }
    for (;;) {
      this.ws();
      if (this.t[this.i] !== '"') this.fail('expected a string key');
      const key = this.string();
      if (seen) {
        if (seen.has(key)) throw new Twice([...path, key].join('.'));
        seen.add(key);
      }
      this.ws();
      if (this.t[this.i] !== ':') this.fail("expected ':'");
      this.i++;
      this.value(path ? [...path, key] : null, depth);
      this.ws();
      const c = this.t[this.i++];
      if (c === '}') return;
      if (c !== ',') {
        this.i--;
        this.fail("expected ',' or '}'");
      }
    }
  }

  array(path, depth) {
    if (depth > MAX_DEPTH) this.fail('nested too deeply');
    this.i++;
    this.ws();
    if (this.t[this.i] === ']') {
      this.i++;
      return;
    }
    for (;;) {
      this.value(path, depth);
      this.ws();
      const c = this.t[this.i++];
      if (c === ']') return;
      if (c !== ',') {
        this.i--;
        this.fail("expected ',' or ']'");
      }
    }
  }

  /** The whole text is one JSON value. */
  whole() {
    this.value();
    this.ws();
    if (this.i !== this.t.length) this.fail('unexpected text after the JSON value');
  }

  /** The members of the (well-formed) object at `at`: [{ key, start, end }] in text order; its keys read strictly. */
  members(at) {
    this.i = at + 1;
    const out = [];
    this.ws();
    if (this.t[this.i] === '}') return out;
    for (;;) {
      this.ws();
      const key = this.strictly(() => this.string());
      this.ws();
      this.i++; // ':'
      this.ws();
      const start = this.i;
      this.value();
      out.push({ key, start, end: this.i });
      this.ws();
      if (this.t[this.i++] === '}') return out;
    }
  }

  /** The elements of the (well-formed) array at `at`: [{ start, end }]. */
  elements(at) {
    this.i = at + 1;
    const out = [];
    this.ws();
    if (this.t[this.i] === ']') return out;
    for (;;) {
      this.ws();
      const start = this.i;
      this.value();
      out.push({ start, end: this.i });
      this.ws();
      if (this.t[this.i++] === ']') return out;
    }
  }

  /** What the well-formed value at `at` is, for a message (a string read strictly, as the audit reads it). */
  typeAt(at) {
    const c = this.t[at];
    if (c === '"') {
      this.i = at;
      this.strictly(() => this.string());
    }
    return c === '{' ? 'an object' : c === '[' ? 'a list' : c === '"' ? 'a string' : c === 'n' ? 'null' : c === 't' || c === 'f' ? 'a boolean' : 'a number';
  }

  /**
   * The well-formed value between `start` and `end`, parsed (integers past
   * 2^53 as BigInt); read strictly, so a lone surrogate in it is not JSON.
   */
  parse(start, end) {
    this.i = start;
    this.strictly(() => this.value());
    return parseJson(this.t.slice(start, end), { onDuplicate: () => {} });
  }

  /** `read()` with strings held to Unicode text. */
  strictly(read) {
    const was = this.strict;
    this.strict = true;
    try {
      return read();
    } finally {
      this.strict = was;
    }
  }
}

export const lineOf = (text, offset) => {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
};
