#!/usr/bin/env node
// The node target with WebCrypto's key cache switched off, to measure what
// the cache is worth (reference/js/bench/mixed-requests.mjs says how).

import { createEngine } from '../provably.mjs';
import { runTarget } from '../serve.mjs';
import { webCrypto } from '../webcrypto.mjs';

runTarget(createEngine(webCrypto({ keyCacheSize: 0 })));
