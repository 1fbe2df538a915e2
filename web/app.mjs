// The verification page. Every number on it comes from reference/js (served
// at /js/), the same code the conformance harness holds to the published
// references; the page refuses to compute until that code has reproduced
// every vector of /vectors/selftest.json in this very browser.
//
//   selftest.mjs   the self-test (valid and invalid vectors)
//   games.mjs      the games by their names, and how a round becomes a proof
//   panel.mjs      a game's form, its one verdict and its outcome
//   proofview.mjs  a whole proof: pasted, dropped or from #proof=…
//   fragment.mjs   the URL fragment (docs/links.md)
//   german.mjs     the page's German: names, plurals, amounts, messages

import { stringifyJson, parseJson } from './js/json.mjs';
import { NAME, execute } from './js/provably.mjs';
import { $, el } from './dom.mjs';
import { parseFragment } from './fragment.mjs';
import { GAMES } from './games.mjs';
import { formatInt } from './german.mjs';
import { buildGamePanel, check } from './panel.mjs';
import { loadText, setupProofCard } from './proofview.mjs';
import { runVectors } from './selftest.mjs';

const FIRST_TAB = 'blackjack';
const panels = new Map();

// ---------------------------------------------------------------------------
// Self-test

function pretty(value) {
  const text = stringifyJson(value);
  try {
    return JSON.stringify(JSON.parse(text), null, 1);
  } catch {
    return text;
  }
}

async function runSelftest() {
  const box = $('selftest');
  const show = (state, status) => {
    box.dataset.state = state;
    $('selftest-status').textContent = status;
  };
  let bundle;
  try {
    const response = await fetch('/vectors/selftest.json', { cache: 'no-store' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    // json.mjs keeps integers past 2^53 exact and rejects duplicate keys.
    bundle = parseJson(await response.text());
    if (!Array.isArray(bundle?.tests)) throw new Error('kein Feld "tests"');
  } catch (e) {
    show('failed', `Selbsttest nicht ladbar (${e.message}) — die Eingaben bleiben gesperrt.`);
    return false;
  }
  const tests = bundle.tests;
  const total = formatInt(tests.length);
  $('selftest-total').textContent = total;
  const counts = (passed, failed) => {
    $('selftest-passed').textContent = formatInt(passed);
    $('selftest-failed').textContent = formatInt(failed);
  };
  const { passed, failed, first } = await runVectors(tests, execute, { onProgress: counts });
  counts(passed, failed);
  if (first) {
    const { t } = first;
    $('selftest-failure').hidden = false;
    $('selftest-failure-tcid').textContent = String(t.tcId);
    $('selftest-failure-op').textContent = `${t.scheme ?? ''} · ${t.input?.op ?? (t.result === 'invalid' ? 'ungültige Anfrage' : '?')}`;
    $('selftest-failure-comment').textContent = t.comment ?? '';
    $('selftest-failure-where').textContent = `Erste Abweichung bei: ${first.diff}`;
    $('selftest-failure-expected').textContent = t.result === 'invalid' ? `abgelehnt (invalid): ${t.line}` : pretty(t.expected);
    $('selftest-failure-got').textContent = pretty(first.got);
    show('failed', `${formatInt(failed)} von ${total} Prüfungen fehlgeschlagen — diese Seite rechnet hier nicht richtig, die Eingaben bleiben gesperrt.`);
    return false;
  }
  const declared = Number(bundle.numberOfTests);
  if (tests.length === 0 || declared !== tests.length) {
    show('failed', `Selbsttest unvollständig (${tests.length} Tests, angekündigt ${bundle.numberOfTests}) — die Eingaben bleiben gesperrt.`);
    return false;
  }
  show('passed', `${formatInt(passed)} von ${total} Prüfungen bestanden — die Eingaben sind frei.`);
  return true;
}

// ---------------------------------------------------------------------------
// Tabs: one per game, arrow keys move between them (WAI-ARIA tabs pattern)

function selectTab(id, { focus = false } = {}) {
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

function buildPanels() {
  const tabs = $('tabs');
  const bench = $('workbench');
  const hooks = { onProof: (text) => loadText(text), onFragment: (hash) => openFragment(hash) };
  for (const game of GAMES) {
    const shown = game.id === FIRST_TAB;
    const tab = el('button', {
      type: 'button', role: 'tab', id: `tab-${game.id}`, 'data-game': game.id,
      'aria-controls': `panel-${game.id}`, 'aria-selected': shown ? 'true' : 'false', tabindex: shown ? '0' : '-1',
    }, game.tab);
    tab.addEventListener('click', () => selectTab(game.id));
    tab.addEventListener('keydown', onTabKey);
    tabs.append(tab);
    panels.set(game.id, buildGamePanel(game, bench, hooks, shown));
  }
}

// ---------------------------------------------------------------------------
// Fragments (docs/links.md)

const GAME_OF_OP = {
  'shoe.deal': 'blackjack', 'shoe.tournament': 'tournament', 'dice.roll': 'dice', 'cursor.int': 'numbers', 'cursor.float': 'numbers',
  'cursor.raw': 'numbers', 'cursor.shuffle': 'numbers', 'cursor.hash': 'numbers', 'poker.deal': 'poker', 'selfpoker.deck': 'pokerni', 'ladder.shuffle': 'dond',
};
/** Keys a link may use for a form field of another name. */
const ALIASES = { dice: { n: 'from' }, pokerni: {}, blackjack: {}, numbers: {} };

function linkProblem(text) {
  const box = $('proof-verdict');
  box.dataset.state = 'done';
  box.dataset.verdict = 'invalid';
  box.replaceChildren(el('p', { class: 'verdict-head' }, '✗ Der Link ist nicht lesbar'), el('p', { class: 'verdict-detail' }, text));
  $('proof-card').scrollIntoView({ block: 'start' });
}

/** Opens a fragment: a proof into the proof card, a round into its game's form (then checks it). */
export function openFragment(hash) {
  const f = parseFragment(hash);
  if (!f) return false;
  if (f.kind === 'proof') {
    if (f.error) linkProblem('Der Teil nach „#proof=“ ist kein gültiges base64url eines UTF-8-Textes.');
    else loadText(f.text);
    return true;
  }
  const gameParam = f.params.get('game')?.[0];
  const gameId = gameParam === 'blackjack-table' ? 'blackjack' : gameParam && panels.has(gameParam) ? gameParam : GAME_OF_OP[f.op];
  const state = panels.get(gameId);
  if (!state) {
    linkProblem(`Die Rechnung „${f.op}“ im Link kennt diese Seite nicht.`);
    return true;
  }
  const { game } = state;
  const set = (name, value) => {
    const input = $(`${game.id}-${name}`);
    if (input) input.value = value;
  };
  if (game.variants) set('variant', gameParam === 'blackjack-table' || (f.op === 'cursor.shuffle' && gameId === 'blackjack') ? 'table' : 'shoe');
  if (game.id === 'numbers') set('op', f.op);
  const alias = ALIASES[game.id] ?? {};
  for (const fld of [...game.fields, ...game.observe]) {
    if (fld.kind === 'select' && fld.name === 'op') continue;
    const key = [...f.params.keys()].find((k) => k === fld.name || alias[k] === fld.name);
    if (fld.name === 'seats') set('seats', (f.params.get('seat') ?? []).map((s) => s.replace(/^(\d+):/, '$1: ')).join('\n'));
    else if (key !== undefined) set(fld.name, f.params.get(key)[0]);
    else if (fld.name !== 'variant') set(fld.name, fld.value ?? '');
  }
  if (game.id === 'dice' && f.params.has('n') && !f.params.has('rolls')) set('rolls', '1');
  selectTab(game.id);
  $(`panel-${game.id}`).scrollIntoView({ block: 'start' });
  check(state);
  return true;
}

// ---------------------------------------------------------------------------

buildPanels();
setupProofCard();
$('engine-name').textContent = NAME;
runSelftest().then((ok) => {
  $('workbench').disabled = !ok;
  document.body.dataset.selftest = ok ? 'passed' : 'failed';
  if (!ok) return;
  if (location.hash) openFragment(location.hash);
  window.addEventListener('hashchange', () => openFragment(location.hash));
});
