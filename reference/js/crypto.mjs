// WebCrypto plumbing shared by every scheme. The same file runs in node 20+
// and in browsers, so it touches nothing but `globalThis.crypto.subtle`.

const encoder = new TextEncoder();

/** UTF-8 bytes of a string (the caller has already rejected lone surrogates). */
export function utf8(text) {
  return encoder.encode(text);
}

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Lowercase hex of a byte array. */
export function toHex(bytes) {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]];
  return out;
}

function subtle() {
  const s = globalThis.crypto?.subtle;
  // WebCrypto is only exposed in secure contexts (https, localhost); say so
  // instead of failing later with "cannot read properties of undefined".
  if (!s) throw new Error('WebCrypto (crypto.subtle) is not available in this context');
  return s;
}

/** Hex SHA-256 of the UTF-8 text. */
export async function sha256Hex(text) {
  return toHex(new Uint8Array(await subtle().digest('SHA-256', utf8(text))));
}

// importKey is far more expensive than one sign, and a 312-card shoe signs
// a few dozen blocks while a cursor shuffle of 312 signs hundreds; requests
// of a harness run mostly reuse a handful of seeds. The cache holds
// promises so that concurrent requests for one seed share one import.
const KEY_CACHE_LIMIT = 128;
const keyCache = new Map();

/** The HMAC-SHA256 CryptoKey whose key bytes are the server seed's UTF-8 text. */
export function hmacKey(serverSeed) {
  let key = keyCache.get(serverSeed);
  if (key) {
    // Refresh recency: Map iteration order is insertion order.
    keyCache.delete(serverSeed);
    keyCache.set(serverSeed, key);
    return key;
  }
  // WebCrypto refuses a zero-length HMAC key, yet an empty server seed is a
  // valid string. HMAC pads every key shorter than its 64-byte block with
  // zeros (RFC 2104, section 2), so 64 zero bytes give the very same MAC.
  const bytes = serverSeed === '' ? new Uint8Array(64) : utf8(serverSeed);
  key = subtle().importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  key.catch(() => keyCache.delete(serverSeed));
  keyCache.set(serverSeed, key);
  if (keyCache.size > KEY_CACHE_LIMIT) keyCache.delete(keyCache.keys().next().value);
  return key;
}

/** HMAC-SHA256(serverSeed as UTF-8 text, message as UTF-8 text) as 32 bytes. */
export async function hmac(serverSeed, message) {
  const key = await hmacKey(serverSeed);
  return new Uint8Array(await subtle().sign('HMAC', key, utf8(message)));
}

const MAX_BATCH = 256;

/**
 * The MACs HMAC(serverSeed, prefix + i) for i = first, first + 1, ... in order.
 *
 * Every scheme here consumes consecutive indices whatever its rejections do
 * (cursor + 1 per attempt, block + 1 per 32 bytes), so the blocks can be
 * signed ahead in parallel batches; WebCrypto's sign is asynchronous and
 * awaiting each one in turn would make long shuffles slow. `batch` is the
 * first batch size (a hint of how many blocks the caller surely needs); later
 * batches double up to MAX_BATCH. At most one batch is signed needlessly.
 */
export class MacSequence {
  constructor(serverSeed, prefix, first = 0, batch = 1) {
    this.serverSeed = serverSeed;
    this.prefix = prefix;
    // Indices may pass 2^53 (a cursor near the top of its range plus a long
    // shuffle), so the running index switches to BigInt before it loses
    // precision.
    this.nextIndex = first;
    this.batch = Math.max(1, Math.min(batch, MAX_BATCH));
    this.queue = [];
    this.head = 0;
  }

  async next() {
    if (this.head === this.queue.length) this.#refill();
    const mac = this.queue[this.head];
    this.queue[this.head++] = undefined;
    return mac;
  }

  #refill() {
    this.queue = [];
    this.head = 0;
    for (let n = 0; n < this.batch; n++) {
      const p = hmac(this.serverSeed, this.prefix + String(this.nextIndex));
      // A rejection is reported when (if ever) the block is consumed; a
      // block signed ahead and never used must not become an unhandled one.
      p.catch(() => {});
      this.queue.push(p);
      this.nextIndex = increment(this.nextIndex);
    }
    this.batch = Math.min(this.batch * 2, MAX_BATCH);
  }
}

/** i + 1, exact beyond 2^53 (switches to BigInt there). */
export function increment(i) {
  if (typeof i === 'number' && i < Number.MAX_SAFE_INTEGER) return i + 1;
  return BigInt(i) + 1n;
}
