// The page's interactive part: the tab list of games, their panels, the
// proof card and the URL fragment. app.mjs builds it right after starting
// the self-test, while the self-test waits for its first WebCrypto answers.

import { $, el } from './dom.mjs';
import { parseFragment, proofValue } from './fragment.mjs';
import { GAMES } from './games.mjs';
import { viewOf } from './names.mjs';
import { buildGamePanel, check } from './panel.mjs';
import { linkProblem, loadFragment, loadText, roundLinkOpened, setLinkOpener, setupProofCard } from './proofview.mjs';
import { fieldName } from './german.mjs';

const FIRST_TAB = 'blackjack';
const panels = new Map();

// ---------------------------------------------------------------------------
// Tabs: one per game, arrow keys move between them (WAI-ARIA tabs pattern)

/** The panel of game `id`, built on first use (a hidden placeholder until then). */
function ensurePanel(id) {
  if (!panels.has(id)) {
    const game = GAMES.find((g) => g.id === id);
    panels.set(id, buildGamePanel(game, $(`panel-${id}`), hooks, false));
  }
  return panels.get(id);
}

function selectTab(id, { focus = false } = {}) {
  ensurePanel(id);
  for (const game of GAMES) {
    const on = game.id === id;
    const tab = $(`tab-${game.id}`);
    tab.setAttribute('aria-selected', on ? 'true' : 'false');
    tab.tabIndex = on ? 0 : -1;
    $(`panel-${game.id}`).hidden = !on;
    if (on && focus) tab.focus();
  }
}

function onTabKey(e) {
  const ids = GAMES.map((g) => g.id);
  const at = ids.indexOf(e.currentTarget.dataset.game);
  const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: ids.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  selectTab(ids[(to + ids.length) % ids.length], { focus: true });
}

const hooks = { onProof: (text) => loadText(text), onFragment: (hash) => openFragment(hash) };

/**
 * Builds the tabs, the first game's panel and the proof card (still locked:
 * the workbench is disabled). The other panels are hidden placeholders,
 * built when their tab is first chosen or once the page is idle.
 */
export function buildPage() {
  const tabs = $('tabs');
  const bench = $('workbench');
  for (const game of GAMES) {
    const shown = game.id === FIRST_TAB;
    const tab = el('button', {
      type: 'button', role: 'tab', id: `tab-${game.id}`, 'data-game': game.id,
      'aria-controls': `panel-${game.id}`, 'aria-selected': shown ? 'true' : 'false', tabindex: shown ? '0' : '-1',
    }, game.tab);
    tab.addEventListener('click', () => selectTab(game.id));
    tab.addEventListener('keydown', onTabKey);
    tabs.append(tab);
    const placeholder = el('section', { class: 'card panel', id: `panel-${game.id}`, role: 'tabpanel', 'aria-labelledby': `tab-${game.id}`, hidden: true });
    bench.append(placeholder);
    if (shown) panels.set(game.id, buildGamePanel(game, placeholder, hooks, true));
  }
  setupProofCard();
  setLinkOpener((hash) => openFragment(hash));
}

/** Builds the panels not built yet, one per idle moment. */
export function buildRest() {
  const rest = GAMES.filter((g) => !panels.has(g.id));
  const next = () => {
    const game = rest.shift();
    if (!game) return;
    ensurePanel(game.id);
    setTimeout(next, 0);
  };
  setTimeout(next, 0);
}

// ---------------------------------------------------------------------------
// Fragments (docs/links.md)

/** Keys a link may use for a form field of another name (`action`: the op's answer field). */
const ALIASES = { dice: { n: 'from' }, pokerni: {}, blackjack: {}, numbers: {}, strategy: { action: 'observed' } };
/** How a link writes a checkbox that is ticked. */
const TICKED = /^(true|1|ja|yes|on)$/i;


/** Opens a fragment: a proof into the proof card, a round into its game's form (then checks it). */
export function openFragment(hash) {
  // A proof's value is decoded in the worker: a 2 MB link decoded here would block the page.
  const proof = proofValue(hash);
  if (proof !== null) {
    // Out of the address bar at once, as boot.js does for the first link (why: there).
    if (location.hash.startsWith('#proof=')) {
      window.provablyKeepLink?.(location.hash);
      history.replaceState(null, '', location.pathname + location.search);
    }
    loadFragment(proof);
    return true;
  }
  // Any other link replaces what a reload would open.
  window.provablyKeepLink?.(null);
  const f = parseFragment(hash);
  if (!f) {
    // Not a link of this page. An anchor of the page itself (the skip link's
    // "#main") is navigation; anything else replaces what the proof card
    // showed, so an old verdict never stands beside a link that says nothing.
    const h = hash.replace(/^#/, '');
    if (h === '' || anchorOfPage(h)) return false;
    linkProblem(null, 'none');
    return true;
  }
  if (f.damaged.length) {
    const names = [...new Set(f.damaged.map((k) => `„${fieldName(k)}“`))].join(', ');
    linkProblem(null, 'damaged', `Der Link ist vollständig, aber im Wert von ${names} sind Zeichen verfälscht: so kürzt kein Mail- oder Chatprogramm. Lass dir den Link noch einmal schicken.`);
    return true;
  }
  const gameParam = f.params.get('game')?.[0];
  const known = (id) => GAMES.some((g) => g.id === id);
  // The panel the link names, else the one the op declares (names.mjs).
  const gameId = gameParam === 'blackjack-table' ? 'blackjack' : known(gameParam) ? gameParam : viewOf(f.op);
  const state = known(gameId) && ensurePanel(gameId);
  if (!state) {
    linkProblem(null, 'unknown', `Der Link gehört zu „${f.op}“, einem Spiel, das diese Seite nicht kennt. Frag den Betreiber, womit sich dieses Spiel prüfen lässt.`);
    return true;
  }
  const { game } = state;
  const set = (name, value) => {
    const input = $(`${game.id}-${name}`);
    if (input?.type === 'checkbox') input.checked = TICKED.test(value.trim());
    else if (input) input.value = value;
  };
  // A game of variants: the one whose op the link names (blackjack's table deals a cursor.shuffle).
  const variantOfOp = game.variants?.find((x) => game.opFor({ variant: x.id }) === f.op)?.id;
  if (game.variants) set('variant', gameParam === 'blackjack-table' ? 'table' : variantOfOp ?? 'shoe');
  if (game.id === 'numbers' || game.id === 'stake') set('op', f.op);
  const alias = ALIASES[game.id] ?? {};
  for (const fld of [...game.fields, ...game.observe]) {
    if (fld.kind === 'select' && fld.name === 'op') continue;
    const key = [...f.params.keys()].find((k) => k === fld.name || alias[k] === fld.name);
    if (fld.name === 'seats') set('seats', (f.params.get('seat') ?? []).map((s) => s.replace(/^(\d+):/, '$1: ')).join('\n'));
    else if (key !== undefined) set(fld.name, f.params.get(key)[0]);
    else if (fld.name !== 'variant') set(fld.name, fld.value ?? '');
  }
  if (game.id === 'dice' && f.params.has('n') && !f.params.has('rolls')) set('rolls', '1');
  // The proof card showed another input: it must not keep its verdict beside this round's.
  roundLinkOpened();
  selectTab(game.id);
  $(`panel-${game.id}`).scrollIntoView({ block: 'start' });
  check(state, { reveal: true });
  return true;
}

function anchorOfPage(h) {
  try {
    return document.getElementById(decodeURIComponent(h)) !== null;
  } catch {
    return false;
  }
}

/** After the self-test passed: open the link the page was opened with, and any later one. */
export function followFragments() {
  buildRest();
  // boot.js took a #proof= link out of the URL before the page was built.
  const first = window.provablyLink ?? location.hash;
  delete window.provablyLink;
  if (first) openFragment(first);
  window.addEventListener('hashchange', () => openFragment(location.hash));
}
