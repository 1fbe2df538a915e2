#!/usr/bin/env node
// @noble/hashes: hmac(sha256, key, message) and sha256 on bytes from its own
// utf8ToBytes. Manifest: harness/wild/noble-hashes.toml.

import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { installed, serveStack } from './stack.mjs';

serveStack({
  name: `@noble/hashes ${installed('@noble/hashes')} (hmac, sha256, utf8ToBytes)`,
  hmacSha256: (keyText, messageText) => hmac(sha256, utf8ToBytes(keyText), utf8ToBytes(messageText)),
  sha256: (text) => sha256(utf8ToBytes(text)),
});
