// The registry: every scheme this implementation has, and the engine the
// node target and the web page run. A new scheme is its own module
// exporting SCHEME (engine.mjs says what that holds) plus its line below.
// The engine holds the ops of the generated op table (generated/ops.mjs,
// written by the Rust side's `provably vectors`): a scheme whose ops a build
// leaves out (a cargo feature's game) stays listed here and has no ops there,
// so the same tree serves both builds.
//
//   execute(request) -> {ok: {...}} | {error: {kind, message}}   (WebCrypto)
//   createEngine(provider) -> { NAME, OPS, execute, commitmentOf, fieldsOf, declarations }
//                             the same ops over another crypto provider

import { SCHEME as bcgame } from './bcgame.mjs';
import { SCHEME as blackjack } from './blackjack.mjs';
import { SCHEME as cursor } from './cursor.mjs';
import { SCHEME as dice } from './dice.mjs';
import { SCHEME as freebitco } from './freebitco.mjs';
import { makeEngine, registered, within } from './engine.mjs';
import { OPS as TABLE } from './generated/ops.mjs';
import { SCHEME as ladder } from './ladder.mjs';
import { SCHEME as lucky } from './lucky.mjs';
import { SCHEME as poker } from './poker.mjs';
import { SCHEME as selfpoker } from './selfpoker.mjs';
import { SCHEME as shoe } from './shoe.mjs';
import { SCHEME as skinclub } from './skinclub.mjs';
import { SCHEME as stake } from './stake.mjs';
import { SCHEME as crash } from './crash.mjs';
import { SCHEME as csgoempire } from './csgoempire.mjs';
import { SCHEME as toy } from './toy.mjs';
import { WEBCRYPTO } from './webcrypto.mjs';

export const VERSION = '0.1.0';

/**
 * In protocol order: the hello answer lists the ops in this order. Every op
 * declares its statistics, or the registry refuses to start (engine.mjs).
 */
export const SCHEMES = registered([cursor, poker, shoe, dice, selfpoker, ladder, blackjack, stake, crash, lucky, skinclub, freebitco, bcgame, csgoempire, toy]);

/** The schemes as this build has them: only the ops of the generated table. */
export const BUILT = Object.freeze(within(SCHEMES, TABLE));

/**
 * Every op over `provider` (crypto.mjs: { name, hmacSha256, sha256 }). The
 * hello answer names the provider unless it is the default WebCrypto one.
 */
export function createEngine(provider = WEBCRYPTO) {
  const base = `provably-js ${VERSION}`;
  const name = provider === WEBCRYPTO ? base : `${base} over ${provider.name}`;
  return makeEngine({ schemes: BUILT, provider, name });
}

const engine = createEngine();

export const { NAME, OPS, execute, commitmentOf, fieldsOf, declarations } = engine;
