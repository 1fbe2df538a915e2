#!/usr/bin/env node
// node:crypto's createHmac and createHash (OpenSSL), the strings encoded by
// node's Buffer. The provider is reference/js/testkit's; this target claims
// only the ops that go through it. Manifest: harness/wild/node-crypto.toml.

import { NODE_CRYPTO } from '../js/testkit/node-crypto-target.mjs';
import { serveStack } from './stack.mjs';

serveStack({ ...NODE_CRYPTO, name: `node ${process.versions.node} ${NODE_CRYPTO.name} (createHmac, createHash)` });
