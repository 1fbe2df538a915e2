// Format sniffing: a proof document or JSON lines (docs/proofs.md), from a
// text or from a file's bytes, a leading byte order mark set aside.

import { skipSpace } from '../json.mjs';

/**
 * Document or JSON lines: `{`, optional white space, then `"proof"` makes a
 * document. A byte order mark before it is no part of the text (editors on
 * Windows write one), so it does not make a document JSON lines.
 */
export function isDocument(text) {
  const brace = skipSpace(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  return text[brace] === '{' && text.startsWith('"proof"', skipSpace(text, brace + 1));
}

/** The text without a leading byte order mark. */
const withoutBom = (text) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** The lines of `bytes` (split at \n), each decoded on its own: a string, or the bytes if not UTF-8. */
function splitBytes(bytes) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const out = [];
  let start = 0;
  for (;;) {
    const end = bytes.indexOf(0x0a, start);
    const part = bytes.subarray(start, end === -1 ? bytes.length : end);
    try {
      out.push(decoder.decode(part));
    } catch {
      out.push(part);
    }
    if (end === -1) return out;
    start = end + 1;
  }
}

/**
 * What `input` (a text, or a file's bytes) holds, as the walk reads it:
 * { format: 'document', text } (`text` null when the bytes are not UTF-8),
 * or { format: 'lines', lines } (each line a string, or its bytes when not UTF-8).
 */
export function sniff(input) {
  if (typeof input === 'string') {
    if (isDocument(input)) return { format: 'document', text: withoutBom(input) };
    return { format: 'lines', lines: input === '' ? [] : input.split('\n') };
  }
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  const head = new TextDecoder('utf-8').decode(bytes.subarray(0, 64));
  if (!isDocument(head)) return { format: 'lines', lines: bytes.length ? splitBytes(bytes) : [] };
  try {
    return { format: 'document', text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { format: 'document', text: null };
  }
}
