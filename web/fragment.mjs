// The URL fragment (docs/links.md). A fragment never reaches a server, so an
// operator can link a round's end screen straight to its check:
//
//   #proof=<base64url of the UTF-8 proof document>
//   #<op>&<key>=<value>&…        one round, e.g. #shoe.deal&serverSeed=…&nonce=3
//
// Values are percent-encoded UTF-8 (encodeURIComponent); "+" is a plus sign,
// not a space. A key may repeat (seat=7:abc&seat=2:xyz).

/** base64url (padding optional; "+" and "/" accepted too) -> the UTF-8 text, or null. */
export function decodeBase64url(value) {
  const r = readBase64url(value);
  return r.text ?? null;
}

/**
 * base64url -> { text } or { error }: 'base64' (not base64url: a character
 * no link of this page holds, or a length none has), 'cut' (the bytes end
 * inside a UTF-8 character: where a cut link breaks off) or 'utf8' (bytes
 * that are no UTF-8 before the end: the link was damaged, not cut).
 */
export function readBase64url(value) {
  const b64 = value.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/]*$/.test(b64) || b64.length % 4 === 1) return { error: 'base64' };
  let bytes;
  try {
    const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  } catch {
    return { error: 'base64' };
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    // Whole up to its last 1-3 bytes: a character cut in two at the end.
    const decoder = new TextDecoder('utf-8', { fatal: true });
    try {
      decoder.decode(bytes, { stream: true });
      return { error: 'cut' };
    } catch {
      return { error: 'utf8' };
    }
  }
}

/** The UTF-8 text as base64url without padding. */
export function encodeBase64url(text) {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Reads a fragment (with or without "#"):
 *   { kind: 'proof', text } | { kind: 'proof', error } |
 *   { kind: 'round', op, params: Map<key, [values]>, damaged } | null (empty or unknown).
 * `damaged` lists the keys (or the text) of pairs whose %-encoding is broken:
 * such a pair is left out, and the page says the link is damaged instead of
 * asking for the value it could not read.
 */
export function parseFragment(hash) {
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!h) return null;
  if (h.startsWith('proof=')) {
    const text = decodeBase64url(h.slice('proof='.length));
    return text === null ? { kind: 'proof', error: 'bad-base64' } : { kind: 'proof', text };
  }
  const [head, ...pairs] = h.split('&');
  const op = safeDecode(head);
  // An op's name: words of letters and digits joined by dots (`crash.v2`, `stake.crash.chain`).
  if (!op || !/^[a-z][a-z0-9]*(?:\.[a-z][a-z0-9]*)+$/i.test(op)) return null;
  const params = new Map();
  const damaged = [];
  for (const pair of pairs) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const key = safeDecode(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : safeDecode(pair.slice(eq + 1));
    if (key === null || value === null) {
      damaged.push(key ?? pair.slice(0, eq === -1 ? pair.length : eq));
      continue;
    }
    if (!params.has(key)) params.set(key, []);
    params.get(key).push(value);
  }
  return { kind: 'round', op, params, damaged };
}

function safeDecode(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

/** "#<op>&k=v&…" from [key, value] pairs (values left out when empty). */
export function roundFragment(op, pairs) {
  const parts = [encodeURIComponent(op).replace(/%2E/g, '.')];
  for (const [k, v] of pairs) {
    if (v === undefined || v === null || v === '') continue;
    parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  }
  return `#${parts.join('&')}`;
}

/** The length of the base64url of `text`'s UTF-8, without encoding it. */
export function encodedLength(text) {
  const bytes = new TextEncoder().encode(text).length;
  return Math.ceil((bytes * 4) / 3);
}

/** The value of a "#proof=…" fragment (with or without "#"), or null for any other fragment. */
export function proofValue(hash) {
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  return h.startsWith('proof=') ? h.slice('proof='.length) : null;
}

/** "#proof=…" for a proof text. */
export const proofFragment = (text) => `#proof=${encodeBase64url(text)}`;

/**
 * Whether a field's text is a whole proof (or a link to one) rather than a
 * value: JSON with "proof", "epochs" or "rounds", or a page link with a
 * fragment. Returns { kind: 'proof', text } | { kind: 'link', hash } | null.
 * A proof's text is the field's as pasted: trim() takes more than JSON's
 * white space (a form feed), and the check must read what the audit reads.
 */
export function recognisePasted(value) {
  const t = value.trim();
  if (t.replace(/^\uFEFF/, '').startsWith('{') && /"(proof|epochs|rounds)"\s*:/.test(t)) return { kind: 'proof', text: value };
  const hashAt = t.indexOf('#');
  if (/^https?:\/\//i.test(t) && hashAt !== -1) {
    const hash = t.slice(hashAt);
    if (parseFragment(hash)) return { kind: 'link', hash };
  }
  if (/^#(proof=|[a-z]+\.[a-z]+&)/i.test(t)) return { kind: 'link', hash: t };
  return null;
}
