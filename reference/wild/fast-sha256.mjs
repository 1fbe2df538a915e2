#!/usr/bin/env node
// fast-sha256 (hmac, hash on bytes) with @stablelib/utf8's encode() for
// the text, as Stake-style verifier pages combine them:
//   node fast-sha256.mjs 1.0.0     @stablelib/utf8 1.0.0 (npm alias stablelib-utf8-1.0.0)
//   node fast-sha256.mjs current   @stablelib/utf8 as package.json pins it now
// Manifests: harness/wild/fast-sha256-utf8-1.0.0.toml, fast-sha256-utf8-current.toml.

import sha256 from 'fast-sha256';
import * as utf8Current from '@stablelib/utf8';
import utf8Old from 'stablelib-utf8-1.0.0';
import { installed, serveStack } from './stack.mjs';

const VARIANTS = {
  '1.0.0': { module: utf8Old, pkg: 'stablelib-utf8-1.0.0' },
  current: { module: utf8Current, pkg: '@stablelib/utf8' },
};
const variant = VARIANTS[process.argv[2]];
if (!variant) {
  process.stderr.write(`usage: fast-sha256.mjs ${Object.keys(VARIANTS).join('|')}\n`);
  process.exit(2);
}
const { encode } = variant.module;

serveStack({
  name: `fast-sha256 ${installed('fast-sha256')} + @stablelib/utf8 ${installed(variant.pkg)} (hmac, hash, encode)`,
  hmacSha256: (keyText, messageText) => sha256.hmac(encode(keyText), encode(messageText)),
  sha256: (text) => sha256.hash(encode(text)),
});
