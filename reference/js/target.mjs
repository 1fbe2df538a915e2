#!/usr/bin/env node
// Protocol v1 target (docs/protocol.md) over stdin/stdout: every op of
// provably.mjs over WebCrypto, served by serve.mjs.
//   node reference/js/target.mjs

import { createEngine } from './provably.mjs';
import { runTarget } from './serve.mjs';

runTarget(createEngine());
