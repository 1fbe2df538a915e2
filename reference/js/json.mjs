// A strict RFC 8259 parser for protocol lines, and a printer for responses.
//
// JSON.parse cannot tell `1` from `1.0` or `1e0`, keeps the last of two
// duplicate keys, and rounds integers past 2^53 without a word. The protocol
// wants integers to be JSON integers and mistakes to be reported, so request
// lines go through this parser instead:
//   - integer lexemes become Numbers when exact, BigInts otherwise;
//   - lexemes with a fraction or exponent become JsonFloat, which validate.mjs
//     accepts where a number is wanted and rejects where an integer is; so
//     does `-0`, the float negative zero (as serde_json reads it), which is
//     no protocol integer (docs/protocol.md);
//   - duplicate keys are an error (or, with `onDuplicate`, reported while
//     parsing goes on, so a target can still answer with the request's id);
//   - objects have a null prototype, so "__proto__" is an ordinary key.
// The web page feeds execute() with JSON.parse output, which validate.mjs
// handles as well.

/** A JSON number written with a fraction or exponent, e.g. `0.5`, `1.0`, `2e3`. */
export class JsonFloat {
  constructor(value, text) {
    this.value = value;
    this.text = text;
  }
  toString() {
    return this.text;
  }
}

export class JsonSyntaxError extends Error {
  constructor(message, offset) {
    super(`${message} at character ${offset}`);
    this.name = 'JsonSyntaxError';
  }
}

/**
 * JSON's white space (RFC 8259, section 2): space, tab, LF and CR, and
 * nothing else: not a form feed, which JavaScript's trim() and \s take.
 * Every reader of the twin skips (and finds a blank line by) this one
 * definition, as src/ reads `base::json::is_space`.
 */
export const isSpace = (code) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

/** The index of the first character of `text` at or after `at` that is not JSON white space. */
export function skipSpace(text, at) {
  let i = at;
  while (isSpace(text.charCodeAt(i))) i++;
  return i;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
const PLAIN_STRING = /[^"\\\u0000-\u001f]*/y;
const MAX_DEPTH = 64;
const ESCAPES = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * Parses one JSON text; throws JsonSyntaxError with the offset of the
 * problem. With `onDuplicate`, a repeated key is not thrown but passed to
 * onDuplicate(error, key, depth) (depth 1 is the outermost object), and the
 * first of its values is kept.
 */
export function parseJson(text, { onDuplicate } = {}) {
  let pos = 0;

  const fail = (message) => {
    throw new JsonSyntaxError(message, pos);
  };
  const skipWs = () => {
    pos = skipSpace(text, pos);
  };
  const literal = (word, value) => {
    if (text.startsWith(word, pos)) {
      pos += word.length;
      return value;
    }
    return fail('unexpected character');
  };

  const string = () => {
    pos++; // opening quote
    let out = '';
    for (;;) {
      PLAIN_STRING.lastIndex = pos;
      PLAIN_STRING.test(text);
      out += text.slice(pos, PLAIN_STRING.lastIndex);
      pos = PLAIN_STRING.lastIndex;
      const c = text[pos];
      if (c === '"') {
        pos++;
        return out;
      }
      if (c === undefined) fail('unterminated string');
      if (c !== '\\') fail('unescaped control character in string');
      const e = text[pos + 1];
      if (e === 'u') {
        const hex = text.slice(pos + 2, pos + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('bad \\u escape');
        // Lone surrogates are kept: validate.mjs rejects them with a field name.
        out += String.fromCharCode(parseInt(hex, 16));
        pos += 6;
      } else if (e !== undefined && Object.hasOwn(ESCAPES, e)) {
        out += ESCAPES[e];
        pos += 2;
      } else {
        fail('bad escape');
      }
    }
  };

  const number = () => {
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (!m) fail('unexpected character');
    pos = NUMBER.lastIndex;
    const lexeme = m[0];
    if (m[1] !== undefined || m[2] !== undefined || lexeme === '-0') return new JsonFloat(Number(lexeme), lexeme);
    const n = Number(lexeme);
    return Number.isSafeInteger(n) ? n : BigInt(lexeme);
  };

  const value = (depth) => {
    skipWs();
    const c = text[pos];
    if (c === '{') return object(depth + 1);
    if (c === '[') return array(depth + 1);
    if (c === '"') return string();
    if (c === 't') return literal('true', true);
    if (c === 'f') return literal('false', false);
    if (c === 'n') return literal('null', null);
    if (c === undefined) return fail('unexpected end of input');
    return number();
  };

  const object = (depth) => {
    if (depth > MAX_DEPTH) fail('nested too deeply');
    pos++;
    const out = Object.create(null);
    skipWs();
    if (text[pos] === '}') {
      pos++;
      return out;
    }
    for (;;) {
      skipWs();
      if (text[pos] !== '"') fail('expected a string key');
      const keyAt = pos;
      const key = string();
      const repeated = Object.hasOwn(out, key);
      if (repeated) {
        const error = new JsonSyntaxError(`duplicate key ${JSON.stringify(key)}`, keyAt);
        if (!onDuplicate) throw error;
        onDuplicate(error, key, depth);
      }
      skipWs();
      if (text[pos] !== ':') fail("expected ':'");
      pos++;
      const v = value(depth);
      if (!repeated) out[key] = v;
      skipWs();
      const c = text[pos++];
      if (c === '}') return out;
      if (c !== ',') {
        pos--;
        fail("expected ',' or '}'");
      }
    }
  };

  const array = (depth) => {
    if (depth > MAX_DEPTH) fail('nested too deeply');
    pos++;
    const out = [];
    skipWs();
    if (text[pos] === ']') {
      pos++;
      return out;
    }
    for (;;) {
      out.push(value(depth));
      skipWs();
      const c = text[pos++];
      if (c === ']') return out;
      if (c !== ',') {
        pos--;
        fail("expected ',' or ']'");
      }
    }
  };

  const result = value(0);
  skipWs();
  if (pos !== text.length) fail('unexpected text after the JSON value');
  return result;
}

/**
 * JSON text of a response value. Like JSON.stringify (whose number output is
 * already the shortest text that reads back to the same binary64), but
 * BigInts print as exact integers: a cursor can run past 2^53.
 */
export function stringifyJson(v) {
  switch (typeof v) {
    case 'bigint':
      return v.toString();
    case 'number':
      if (!Number.isFinite(v)) throw new TypeError(`cannot print ${v} as JSON`);
      return JSON.stringify(v);
    case 'string':
    case 'boolean':
      return JSON.stringify(v);
    case 'object':
      if (v === null) return 'null';
      if (v instanceof JsonFloat) return JSON.stringify(v.value);
      if (Array.isArray(v)) return `[${v.map(stringifyJson).join(',')}]`;
      return `{${Object.keys(v)
        .filter((k) => v[k] !== undefined)
        .map((k) => `${JSON.stringify(k)}:${stringifyJson(v[k])}`)
        .join(',')}}`;
    default:
      throw new TypeError(`cannot print a ${typeof v} as JSON`);
  }
}
