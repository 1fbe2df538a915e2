// The default crypto provider (crypto.mjs): WebCrypto and TextEncoder. The
// same file runs in node 20+ and in browsers, so it touches nothing but
// `globalThis.crypto.subtle`.

const encoder = new TextEncoder();

function subtle() {
  const s = globalThis.crypto?.subtle;
  // WebCrypto is only exposed in secure contexts (https, localhost); say so
  // instead of failing later with "cannot read properties of undefined".
  if (!s) throw new Error('WebCrypto (crypto.subtle) is not available in this context');
  return s;
}

/**
 * A WebCrypto provider. `keyCacheSize` bounds its cache of imported HMAC
 * keys (least recently used out first): importKey costs far more than one
 * sign, a 312-card shoe signs a few dozen blocks with one key and a cursor
 * shuffle of 312 hundreds, and the requests of a session reuse a handful of
 * seeds. The cache holds promises, so that concurrent requests for one seed
 * share one import.
 */
export function webCrypto({ keyCacheSize = 128 } = {}) {
  const caches = { 'SHA-256': new Map(), 'SHA-512': new Map() };

  function hmacKey(keyText, hash = 'SHA-256') {
    const keys = caches[hash];
    let key = keys.get(keyText);
    if (key) {
      // Refresh recency: Map iteration order is insertion order.
      keys.delete(keyText);
      keys.set(keyText, key);
      return key;
    }
    // WebCrypto refuses a zero-length HMAC key, yet an empty server seed is a
    // valid string. HMAC pads every key shorter than its block (64 bytes for
    // SHA-256, 128 for SHA-512) with zeros (RFC 2104, section 2), so a
    // block of zero bytes gives the very same MAC.
    const block = hash === 'SHA-512' ? 128 : 64;
    const bytes = keyText === '' ? new Uint8Array(block) : encoder.encode(keyText);
    key = subtle().importKey('raw', bytes, { name: 'HMAC', hash }, false, ['sign']);
    key.catch(() => keys.delete(keyText));
    keys.set(keyText, key);
    if (keys.size > keyCacheSize) keys.delete(keys.keys().next().value);
    return key;
  }

  return Object.freeze({
    name: 'WebCrypto',
    async hmacSha256(keyText, messageText) {
      return new Uint8Array(await subtle().sign('HMAC', await hmacKey(keyText), bytesOf(messageText)));
    },
    async hmacSha512(keyText, messageText) {
      return new Uint8Array(await subtle().sign('HMAC', await hmacKey(keyText, 'SHA-512'), encoder.encode(messageText)));
    },
    async sha256(text) {
      return new Uint8Array(await subtle().digest('SHA-256', bytesOf(text)));
    },
  });
}

/** A message's bytes: a text's UTF-8, or raw bytes (crypto.mjs hmacOfBytes) as they are. */
function bytesOf(message) {
  return typeof message === 'string' ? encoder.encode(message) : message;
}

/** The provider the page, the node target and the tests use. */
export const WEBCRYPTO = webCrypto();
