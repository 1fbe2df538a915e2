#!/usr/bin/env node
// js-sha256: sha256.hmac.array(key, message) and sha256.array(text) on
// strings, with the package's own UTF-8 encoding. The pure-JavaScript build
// (build/sha256.cjs, what browsers run): under node the package's default
// entry hands everything to node:crypto instead. Manifest:
// harness/wild/js-sha256.toml.

import { createRequire } from 'node:module';
import { installed, serveStack } from './stack.mjs';

const sha256 = createRequire(import.meta.url)('js-sha256/build/sha256.cjs');

serveStack({
  name: `js-sha256 ${installed('js-sha256')} (sha256.hmac, pure-JS build)`,
  hmacSha256: (keyText, messageText) => sha256.hmac.array(keyText, messageText),
  sha256: (text) => sha256.array(text),
});
