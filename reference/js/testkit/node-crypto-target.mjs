#!/usr/bin/env node
// Every op of reference/js over node:crypto instead of WebCrypto: the whole
// of a target on another crypto stack. Our scheme code runs on top; the
// HMAC, the SHA-256 and the UTF-8 encoding of keys and messages are theirs.
//   provably diff --target-cmd 'node reference/js/testkit/node-crypto-target.mjs'

import { createHash, createHmac } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { createEngine } from '../provably.mjs';
import { runTarget } from '../serve.mjs';

export const NODE_CRYPTO = {
  name: `node:crypto (OpenSSL ${process.versions.openssl})`,
  hmacSha256: (keyText, messageText) => createHmac('sha256', keyText).update(messageText, 'utf8').digest(),
  hmacSha512: (keyText, messageText) => createHmac('sha512', keyText).update(messageText, 'utf8').digest(),
  sha256: (text) => createHash('sha256').update(text, 'utf8').digest(),
};

// Imported by a test for the provider alone, run as a program for the protocol.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) runTarget(createEngine(NODE_CRYPTO));
