#!/usr/bin/env node
// A reconstruction, not a package: the float output step of a public
// Stake-style verifier page (issue 13), which prints each float with
// toFixed(12), over the stack that page is built on (fast-sha256 with
// @stablelib/utf8 1.0.0). Neither package rounds; the toFixed(12) step is
// the page's, written here from that description so that the finding has
// a reproduction in the report. Only cursor.float: the stack's other ops
// are the target fast-sha256-utf8-1.0.0's.
// Manifest: harness/wild/stake-verifier-float.toml.

import sha256 from 'fast-sha256';
import { encode } from 'stablelib-utf8-1.0.0';
import { SEEDED, floatOf, raw } from '../js/cursor.mjs';
import { makeEngine } from '../js/engine.mjs';
import { runTarget } from '../js/serve.mjs';
import { MAX_INT, int } from '../js/validate.mjs';
import { installed } from './stack.mjs';

const provider = {
  name: `fast-sha256 ${installed('fast-sha256')} + @stablelib/utf8 ${installed('stablelib-utf8-1.0.0')}, floats printed with toFixed(12)`,
  hmacSha256: (keyText, messageText) => sha256.hmac(encode(keyText), encode(messageText)),
  sha256: (text) => sha256.hash(encode(text)),
};

const FLOAT_ONLY = {
  id: 'cursor',
  ops: {
    'cursor.float': {
      fields: { ...SEEDED, cursor: int(0, MAX_INT) },
      // The page shows x.toFixed(12); whoever reads that text back gets this Number.
      run: async (p, f) => {
        const x = floatOf(await raw(p, f.serverSeed, f.clientSeed, f.nonce, f.cursor));
        return { float: Number(x.toFixed(12)) };
      },
    },
  },
};

runTarget(makeEngine({ schemes: [FLOAT_ONLY], provider, name: provider.name }));
