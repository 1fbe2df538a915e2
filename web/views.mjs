// The schemes' own views: a scheme that declares `views` (reference/js/
// <scheme>.mjs, e.g. 'stake.mjs') has a module under web/ with its panels
// and how its rounds are drawn, loaded here before the page starts, so that
// a new game needs no line in games.mjs, roundview.mjs or ui.mjs. Such a
// module exports, each optional:
//
//   GAMES        its panels, in the shape of games.mjs's GAMES
//   shown(round) one short line for a checked round of its ops (roundview.mjs), or null
//
// It may import names.mjs, german.mjs, dom.mjs, input.mjs and reference/js,
// but nothing that imports this module (games.mjs, roundview.mjs, ui.mjs,
// panel.mjs): that would wait for itself. Every registered scheme's module
// is loaded, also one whose ops this build leaves out (the page then shows
// none of its panels), so the page loads the same modules in every build.

import { BUILT, SCHEMES, declarations } from './js/provably.mjs';

const NAME = /^[a-z][a-z0-9-]*\.mjs$/;

async function load(scheme) {
  if (!NAME.test(scheme.views)) throw new Error(`scheme ${scheme.id}: views must name a module of web/ like "${scheme.id}.mjs", not ${JSON.stringify(scheme.views)}`);
  return [scheme.id, await import(`./${scheme.views}`)];
}

/** scheme id → its view module. */
const MODULES = new Map(await Promise.all(SCHEMES.filter((s) => s.views !== undefined).map(load)));

/**
 * The panels of the schemes' own views that this build has ops for, in
 * registry order; a module that several schemes share (bcgame.mjs) gives its
 * panels once, and leaves out itself those whose ops the build lacks.
 */
export const SCHEME_GAMES = Object.freeze([...new Set(BUILT.flatMap((s) => MODULES.get(s.id)?.GAMES ?? []))]);

/** The line of a round drawn by its scheme's own view; undefined when the scheme has none. */
export function schemeShown(round) {
  const shown = MODULES.get(declarations.get(round.op)?.scheme.id)?.shown;
  return shown ? shown(round) : undefined;
}
