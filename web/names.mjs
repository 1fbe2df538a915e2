// What the page knows of each op, read off its declaration in its scheme
// module (reference/js/<scheme>.mjs, the op's `page`; engine.mjs): one table
// for the whole page, and no op named here. Every member is optional:
//
//   name    its name for players: Stake's games as Stake shows them („Stake
//           Dice“), the others as the page's games call them („Würfel“);
//           the op itself when not declared
//   short   its name inside its own panel („Dice“ in the Stake panel)
//   view    the id of the panel that opens its links (a game of games.mjs,
//           or of its scheme's `views`, views.mjs)
//   steps   what its rounds are in a sequence, in the plural („Würfe“):
//           the statistics' serial tests name them; „Wetten“ for a bet,
//           „Runden“ otherwise
//   tests   [[RegExp, (match, words) => German]]: its statistics' tests for
//           players, tried before the shared ones of statsview.mjs; `words`
//           holds formatInt, nth, plural and the family's `params`
//   fields  { field: German name } for its fields german.mjs does not name
//
// No DOM and no top-level await: the worker, every view module and the node
// tests import it.

import { declarations } from './js/provably.mjs';

/** The page declaration of `op` ({} when it declares none or this build lacks it). */
export const pageOf = (op) => declarations.get(op)?.page ?? {};

/** An op's name for players: „Stake Dice“, „Würfel“; the op itself when it declares none. */
export const opName = (op) => pageOf(op).name ?? op;

/** An op's name inside its own panel: „Dice“. */
export const shortName = (op) => pageOf(op).short ?? opName(op);

/** The panel that opens a round of `op` from a link, or undefined. */
export const viewOf = (op) => pageOf(op).view;

/** Every op of this build with its name for players, in protocol order: the one table. */
export const OP_NAMES = Object.freeze(Object.fromEntries([...declarations.keys()].map((op) => [op, opName(op)])));

/** The ops whose links open panel `view`, in protocol order. */
export const opsOfView = (view) => [...declarations.keys()].filter((op) => viewOf(op) === view);

/** Whether `op` is a bet of its seed pair's nonce sequence (its declaration's `bet`). */
export const isBet = (op) => declarations.get(op)?.bet === true;

/** Whether `op`'s scheme has bets, so that its rounds make a bet history (with gaps to count). */
export const keepsBets = (op) => Object.values(declarations.get(op)?.scheme.ops ?? {}).some((d) => d.bet === true);

/** What the rounds of `op` are in a sequence, in the plural: „Würfe“, „Wetten“, „Runden“. */
export const stepsOf = (op) => pageOf(op).steps ?? (isBet(op) ? 'Wetten' : 'Runden');

/** The German names the ops declare for their fields. */
export const DECLARED_FIELDS = Object.freeze(Object.assign({}, ...[...declarations.keys()].map((op) => pageOf(op).fields ?? {})));
