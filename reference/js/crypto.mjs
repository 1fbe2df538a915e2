// The scheme code's view of its cryptography, over a pluggable provider.
//
// A provider is the third-party part: { name, hmacSha256(keyText,
// messageText), sha256(text) }, both taking JavaScript strings (and, for
// the ops that hash raw bytes, a Uint8Array message taken as is) and
// returning (a promise of) 32 bytes as a Uint8Array, an ArrayBuffer or an
// array of numbers, and optionally hmacSha512(keyText, messageText), 64
// bytes, for the schemes of other operators that sign with SHA-512 (a
// provider without it answers those ops with an internal error). The provider does its own UTF-8 encoding on purpose: a
// target built on crypto-js or js-sha256 is meant to test that package's
// encoder too, not ours. The default provider is WebCrypto (webcrypto.mjs).
//
// Everything above the provider (hex, MAC sequences signed ahead, counters
// past 2^53) is ours and the same for every provider.

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Lowercase hex of a byte array. */
export function toHex(bytes) {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]];
  return out;
}

/** i + 1, exact beyond 2^53 (switches to BigInt there). */
export function increment(i) {
  if (typeof i === 'number' && i < Number.MAX_SAFE_INTEGER) return i + 1;
  return BigInt(i) + 1n;
}

/**
 * A provider's answer as `size` bytes (32 unless said). A wrong length or a value that is not a
 * byte is the adapter's bug (crypto-js, say, hands out signed 32-bit words):
 * it is thrown, and execute() reports it as an internal error instead of
 * computing with bytes nobody meant.
 */
function digestBytes(value, provider, what, size = 32) {
  let bytes;
  if (value instanceof Uint8Array) bytes = value;
  else if (value instanceof ArrayBuffer) bytes = new Uint8Array(value);
  else if (value !== null && typeof value === 'object' && Number.isInteger(value.length)) {
    for (let i = 0; i < value.length; i++) {
      const b = value[i];
      if (!Number.isInteger(b) || b < 0 || b > 255) {
        throw new Error(`${provider.name}: ${what} returned ${b} at index ${i}, not a byte`);
      }
    }
    bytes = Uint8Array.from(value);
  } else {
    throw new Error(`${provider.name}: ${what} returned ${typeof value}, not bytes`);
  }
  if (bytes.length !== size) throw new Error(`${provider.name}: ${what} returned ${bytes.length} bytes, not ${size}`);
  return bytes;
}

/**
 * The primitives every scheme function takes as its first argument:
 *   name                          the provider's name
 *   hmac(keyText, messageText)    HMAC-SHA256 as 32 bytes
 *   sha256Hex(text)               hex SHA-256
 *   hmac512Hex(keyText, messageText)
 *                                 hex HMAC-SHA512 (the provider's hmacSha512)
 *   macs(keyText, prefix, first, batch)
 *                                 a MacSequence of HMAC(key, prefix + i)
 */
export function primitives(provider) {
  for (const fn of ['hmacSha256', 'sha256']) {
    if (typeof provider?.[fn] !== 'function') {
      throw new TypeError(`a crypto provider needs a function ${fn}(text…), got ${typeof provider?.[fn]}`);
    }
  }
  if (typeof provider.name !== 'string' || provider.name === '') {
    throw new TypeError('a crypto provider needs a name (shown in the hello answer)');
  }
  const asBytes = (value) => digestBytes(value, provider, 'hmacSha256');
  const sign = (keyText, messageText) => provider.hmacSha256(keyText, messageText);
  return Object.freeze({
    name: provider.name,
    async hmac(keyText, messageText) {
      return asBytes(await sign(keyText, messageText));
    },
    async hmac512Hex(keyText, messageText) {
      if (typeof provider.hmacSha512 !== 'function') {
        throw new Error(`${provider.name}: no hmacSha512, which this op signs with`);
      }
      return toHex(digestBytes(await provider.hmacSha512(keyText, messageText), provider, 'hmacSha512', 64));
    },
    async sha256Hex(text) {
      return toHex(digestBytes(await provider.sha256(text), provider, 'sha256'));
    },
    // A message of raw bytes (a Uint8Array), where a scheme hashes a hash's
    // bytes, not its text (the crash family's v2 and its raw-byte chain).
    // The provider takes it as its bytes: WebCrypto and node:crypto do.
    async hmacOfBytes(keyText, bytes) {
      return asBytes(await sign(keyText, bytes));
    },
    async sha256OfBytes(bytes) {
      return digestBytes(await provider.sha256(bytes), provider, 'sha256');
    },
    macs: (keyText, prefix, first = 0, batch = 1) => new MacSequence(sign, asBytes, keyText, prefix, first, batch),
  });
}

const MAX_BATCH = 256;

/**
 * The MACs HMAC(key, prefix + i) for i = first, first + 1, ... in order.
 *
 * Every scheme here consumes consecutive indices whatever its rejections do
 * (cursor + 1 per attempt, block + 1 per 32 bytes), so the blocks can be
 * signed ahead in parallel batches; WebCrypto's sign is asynchronous and
 * awaiting each one in turn would make long shuffles slow. `batch` is a hint
 * of how many blocks the caller surely needs: those are signed in batches of
 * up to MAX_BATCH. Past the hint only rejections remain to be served, a few
 * blocks, so further batches start at 2 and double (up to MAX_BATCH, for a
 * caller without a useful hint): the blocks signed needlessly are fewer than
 * those used past the hint, not a doubled batch (a 52-card shuffle with a
 * rejection or two signed 153 MACs for 53 used; now about 56).
 */
class MacSequence {
  constructor(sign, asBytes, keyText, prefix, first, batch) {
    // The provider's answers are queued as they come and checked as they are
    // taken: one promise per block, not two, on the path every shuffle takes.
    this.sign = sign;
    this.asBytes = asBytes;
    this.keyText = keyText;
    this.prefix = prefix;
    // Indices may pass 2^53 (a cursor near the top of its range plus a long
    // shuffle), so the running index switches to BigInt before it loses
    // precision.
    this.nextIndex = first;
    this.hinted = Math.max(1, batch);
    this.issued = 0;
    this.extra = 1;
    this.queue = [];
    this.head = 0;
  }

  async next() {
    if (this.head === this.queue.length) this.#refill();
    const mac = this.queue[this.head];
    this.queue[this.head++] = undefined;
    return this.asBytes(await mac);
  }

  /** The next batch: what is left of the hint, else a small batch that doubles. */
  #size() {
    const left = this.hinted - this.issued;
    if (left > 0) return Math.min(left, MAX_BATCH);
    this.extra = Math.min(this.extra * 2, MAX_BATCH);
    return this.extra;
  }

  #refill() {
    this.queue = [];
    this.head = 0;
    const size = this.#size();
    this.issued += size;
    for (let n = 0; n < size; n++) {
      // A provider may answer synchronously; Promise.resolve keeps a promise as it is.
      const p = Promise.resolve(this.sign(this.keyText, this.prefix + String(this.nextIndex)));
      // A rejection is reported when (if ever) the block is consumed; a
      // block signed ahead and never used must not become an unhandled one.
      p.catch(() => {});
      this.queue.push(p);
      this.nextIndex = increment(this.nextIndex);
    }
  }
}
