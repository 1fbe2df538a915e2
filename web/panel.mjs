// One game's panel: the operator's values, what the player saw, one action
// ("Prüfen"), one verdict above the outcome, and the outcome itself,
// collapsed to the compared range.
//
// Every input change marks the verdict as busy at once and recomputes
// shortly after; a check whose inputs have changed since it started is
// thrown away. So the page never shows a verdict for inputs it no longer
// holds.

import { handValue, strategy } from './js/blackjack.mjs';
import { CURSOR, NUMPY, convertCard } from './js/cards.mjs';
import { stringifyJson } from './js/json.mjs';
import { evaluate as pokerEvaluate } from './js/poker.mjs';
import { deal as selfpokerDeal } from './js/selfpoker.mjs';
import { Cancelled, cancel, run } from './checker.mjs';
import { $, copyButton, el, notice } from './dom.mjs';
import { recognisePasted, roundFragment } from './fragment.mjs';
import { faces, tableCard } from './games.mjs';
import { fieldName, formatAmount, formatInt, germanReason, plural } from './german.mjs';
import { viewOf } from './names.mjs';
import { dropHash, whatNow } from './proofview.mjs';
import { handWords, roundShown, showdown } from './roundview.mjs';

const DEBOUNCE_MS = 250;
const COLLAPSED = 20;

/** The fields of a game (inputs, then what was seen), each with its kind. */
const allFields = (game) => [...game.fields, ...game.observe];

/** A game without a commitment field has no secret (the basic strategy): nothing to commit to, nothing to say about it. */
const secretless = (game) => !game.fields.some((f) => f.commit);

function fieldShown(f, values) {
  if (f.variants && !f.variants.includes(values.variant)) return false;
  if (f.ops && !f.ops.includes(values.op)) return false;
  return true;
}

/** A checkbox with its label beside it; its value is "true" or "false", as a link writes it. */
function buildCheck(id, f) {
  const input = el('input', { id, name: f.name, type: 'checkbox', checked: f.value === 'true', 'aria-describedby': f.hint ? `${id}-hint` : undefined });
  return el('div', { class: 'field check', id: `${id}-field`, 'data-field': f.name },
    el('div', { class: 'check-line' }, input, el('label', { for: id }, f.label)),
    f.hint ? el('span', { class: 'hint', id: `${id}-hint` }, f.hint) : null,
    el('div', { class: 'field-note', id: `${id}-note`, hidden: true }));
}

function buildField(gameId, f) {
  const id = `${gameId}-${f.name}`;
  if (f.kind === 'check') return buildCheck(id, f);
  let input;
  if (f.kind === 'select') {
    input = el('select', { id, name: f.name }, ...f.options.map(([value, label]) => el('option', { value }, label)));
  } else if (f.kind === 'textarea') {
    input = el('textarea', { id, name: f.name, spellcheck: 'false', autocomplete: 'off', rows: 2 });
  } else {
    input = el('input', {
      id, name: f.name, type: 'text', value: f.value ?? '', spellcheck: 'false', autocomplete: 'off',
      inputmode: f.inputmode ?? (f.kind === 'int' ? 'numeric' : f.kind === 'number' ? 'decimal' : undefined),
      class: f.seed || f.commit ? 'mono' : undefined,
      'aria-describedby': f.hint ? `${id}-hint` : undefined,
    });
  }
  if (f.kind === 'textarea' && f.hint) input.setAttribute('aria-describedby', `${id}-hint`);
  if (f.kind === 'select' && f.hint) input.setAttribute('aria-describedby', `${id}-hint`);
  return el('div', { class: `field${f.wide ? ' wide' : ''}`, id: `${id}-field`, 'data-field': f.name },
    el('label', { for: id }, f.label),
    f.hint ? el('span', { class: 'hint', id: `${id}-hint` }, f.hint) : null,
    input,
    el('div', { class: 'field-note', id: `${id}-note`, hidden: true }));
}

/**
 * Builds a game's panel in place of `placeholder`; returns its state.
 * `hooks`: onProof(text) loads a proof pasted into a field; onFragment(hash)
 * opens a pasted link.
 */
export function buildGamePanel(game, placeholder, hooks, shown) {
  const id = game.id;
  const form = el('form', { id: `${id}-form`, novalidate: true, 'aria-label': `${game.title} nachrechnen` });
  if (game.variants) {
    form.append(el('div', { class: 'grid' }, el('div', { class: 'field wide' },
      el('label', { for: `${id}-variant` }, 'Tisch'),
      el('select', { id: `${id}-variant`, name: 'variant' }, ...game.variants.map((v) => el('option', { value: v.id }, v.label))))));
  }
  const [given, seen] = game.legends ?? ['Werte vom Betreiber', 'Was du gesehen hast (zum Vergleichen)'];
  form.append(
    el('fieldset', { class: 'group' }, el('legend', {}, given), el('div', { class: 'grid' }, ...game.fields.map((f) => buildField(id, f)))),
    el('fieldset', { class: 'group compare' }, el('legend', {}, seen), el('div', { class: 'grid' }, ...game.observe.map((f) => buildField(id, f)))),
    el('div', { class: 'actions' },
      el('button', { type: 'submit', class: 'primary', id: `${id}-run` }, 'Prüfen'),
      el('button', { type: 'button', class: 'secondary', id: `${id}-link` }, 'Link zu dieser Prüfung')),
    el('div', { id: `${id}-link-box`, class: 'link-box', hidden: true }),
    el('div', { id: `${id}-notes`, class: 'notes' }),
  );
  const verdict = el('div', { id: `${id}-verdict`, class: 'verdict', 'aria-live': 'polite', 'data-state': 'idle', 'data-run': '0' },
    el('p', { class: 'verdict-head' }, 'Noch nicht geprüft: trage die Werte ein.'));
  const result = el('div', { id: `${id}-result`, class: 'result' });
  const formula = el('details', { class: 'formula' }, el('summary', {}, 'So wird gerechnet'), ...game.formula.map((t) => el('p', {}, t)));
  const state = { game, gen: 0, runs: 0, timer: null, hooks, onChange: [] };
  // A game's own tools beside its check (Stake: the next nonce, a table of nonces; Crash: earlier games).
  const tools = game.tools ? game.tools(toolsApi(state)) : {};
  if (tools.actions) form.querySelector('.actions').append(...tools.actions);
  const section = el('section', {
    class: 'card panel', id: `panel-${id}`, role: 'tabpanel', 'aria-labelledby': `tab-${id}`, hidden: !shown, tabindex: '0',
  }, el('h2', {}, game.title), el('p', { class: 'panel-intro' }, game.intro), form, verdict, result, ...(tools.after ?? []), formula);
  section.hidden = placeholder.hidden && !shown;
  placeholder.replaceWith(section);

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    check(state, { reveal: true });
  });
  form.addEventListener('input', () => changed(state));
  form.addEventListener('change', () => changed(state));
  $(`${id}-link`).addEventListener('click', () => showLink(state));
  updateVisibility(state);
  return state;
}

/**
 * What a game's tools may do with its panel: read the form as a check reads
 * it, set a field and check at once, run a job of the game's own in the
 * worker (its `series`, web/worker.mjs: a lane of its own, so a check does
 * not cancel it), and hear of every change of the form (a table drawn for
 * other inputs must not stand).
 */
function toolsApi(state) {
  const { game } = state;
  const lane = `series:${game.id}`;
  return {
    values: () => readValues(game).values,
    setFields(values) {
      for (const [name, value] of Object.entries(values)) $(`${game.id}-${name}`).value = value;
      dropHash();
      updateVisibility(state);
      return check(state, { reveal: true });
    },
    // A list replaced by a newer one (or cancelled) resolves as { cancelled: true }.
    // A whole proof the tool built (a pasted bet history, bcgame.mjs), checked on the proof card.
    proof: (text) => state.hooks.onProof(text),
    series: (job, onProgress) => run(lane, 'series', { game: game.id, values: readValues(game).values, job }, { onProgress })
      .catch((e) => {
        if (e instanceof Cancelled) return { cancelled: true };
        throw e;
      }),
    cancelSeries: () => cancel(lane),
    onChange: (f) => state.onChange.push(f),
  };
}

/** An input changed: the verdict is void at once (a check still running will be thrown away), a check follows shortly. */
function changed(state) {
  for (const f of state.onChange) f();
  state.gen++;
  dropHash();
  updateVisibility(state);
  setBusy(state);
  clearTimeout(state.timer);
  state.timer = setTimeout(() => check(state), DEBOUNCE_MS);
}

function updateVisibility(state) {
  const values = rawValues(state.game);
  for (const f of allFields(state.game)) $(`${state.game.id}-${f.name}-field`).hidden = !fieldShown(f, values);
}

function setBusy(state) {
  const v = $(`${state.game.id}-verdict`);
  v.dataset.state = 'busy';
  delete v.dataset.verdict;
  v.replaceChildren(el('p', { class: 'verdict-head busy' }, el('span', { class: 'spinner', 'aria-hidden': 'true' }), 'Rechnet …'));
  const r = $(`${state.game.id}-result`);
  r.setAttribute('aria-busy', 'true');
  r.classList.add('stale');
}

function rawValues(game) {
  const v = {};
  for (const f of allFields(game)) {
    const input = $(`${game.id}-${f.name}`);
    v[f.name] = f.kind === 'check' ? String(input.checked) : input.value;
  }
  if (game.variants) v.variant = $(`${game.id}-variant`).value;
  return v;
}

/** Characters a seed can hold that nobody sees: they change the HMAC key, so the result differs silently. */
const INVISIBLE = [
  [/[\u200E\u200F\u202A-\u202E\u2066-\u2069\u061C]/u, 'Zeichen, die die Schreibrichtung ändern'],
  [/[\u200B-\u200D\u2060-\u2064\uFEFF]/u, 'Zeichen ohne Breite'],
  [/\u00AD/u, 'weiches Trennzeichen'],
];
const invisibleIn = (text) => INVISIBLE.filter(([re]) => re.test(text)).map(([, name]) => name);

/** The form's values with seeds trimmed, and a note for each trim (and for invisible characters in a seed). */
export function readValues(game) {
  const raw = rawValues(game);
  const values = { ...raw };
  const notes = [];
  for (const f of allFields(game)) {
    if (!fieldShown(f, raw)) {
      values[f.name] = f.kind === 'textarea' || f.seed ? '' : values[f.name];
      if (f.seed || f.kind === 'textarea') continue;
    }
    const text = raw[f.name];
    if (f.seed || f.commit) {
      const trimmed = text.trim();
      if (trimmed !== text && trimmed !== '' && f.seed) {
        notes.push({ field: f.name, text: `${f.label}: Leerzeichen oder Zeilenumbruch am Anfang oder Ende entfernt – die kommen meist vom Kopieren und gehören nicht zum Seed.` });
      }
      values[f.name] = trimmed;
      const hidden = f.seed ? invisibleIn(trimmed) : [];
      if (hidden.length) {
        notes.push({ field: f.name, kind: 'invisible', text: `${f.label}: Der Seed enthält unsichtbare Zeichen (${hidden.join(', ')}). Sie zählen beim Rechnen mit: das Ergebnis ist ein anderes als für den Seed, den du siehst. Kopiere ihn noch einmal aus dem Original.` });
      }
    }
  }
  if (values.seats) {
    const lines = values.seats.split('\n');
    if (lines.some((l) => /:\s*\S.*\s+$/.test(l) || /:\s{2,}\S/.test(l))) notes.push({ field: 'seats', text: 'Platz-Seeds: Leerzeichen am Ende einer Zeile entfernt.' });
  }
  return { values, notes };
}

/** Something in a field that is not a value but a proof or a page link. */
function pastedProof(game, values) {
  for (const f of allFields(game)) {
    if (!fieldShown(f, values)) continue;
    const found = recognisePasted(values[f.name] ?? '');
    if (found) return { field: f, found };
  }
  return null;
}

/** Runs the check for the current inputs, unless newer inputs arrive meanwhile. */
/** `reveal`: the player asked (Prüfen, a link): the verdict comes into view, a match too. */
export async function check(state, { reveal = false } = {}) {
  const { game } = state;
  clearTimeout(state.timer);
  const gen = ++state.gen;
  // A link or a tool sets fields without an input event: the tools hear of it here.
  for (const f of state.onChange) f();
  setBusy(state);
  let outcome;
  try {
    outcome = await evaluate(game);
  } catch (e) {
    if (e instanceof Cancelled) return;
    throw e;
  }
  if (gen !== state.gen) return; // the inputs changed: a newer check owns the verdict
  state.runs++;
  render(state, outcome, reveal);
}

async function evaluate(game) {
  const { values, notes } = readValues(game);
  const pasted = pastedProof(game, values);
  if (pasted) return { values, notes, pasted };
  const secretField = game.fields.find((f) => f.seed && (f.name === 'serverSeed' || f.name === 'seed'));
  if (secretField && values[secretField.name] === '') {
    return { values, notes, error: { field: secretField.name, message: `Bitte den ${secretField.label} eintragen. Ohne ihn lässt sich nichts nachrechnen – ein leerer Seed würde eine ganz andere Folge ergeben.` } };
  }
  // Built and checked in the worker (web/worker.mjs), as every check: a game's round can be costly too.
  const r = await run(`game:${game.id}`, 'round', { game: game.id, values });
  if (r.error) return { values, notes, error: r.error };
  return { values, notes, built: r.built, checked: r.checked };
}

// ---------------------------------------------------------------------------
// Rendering

function render(state, outcome, reveal) {
  const { game } = state;
  const id = game.id;
  const notes = $(`${id}-notes`);
  notes.replaceChildren(...outcome.notes.map((n) => notice(n.kind === 'invisible' ? 'warn' : 'info', n.text, { 'data-note': n.kind ?? 'trimmed', 'data-field': n.field })));
  for (const f of allFields(game)) $(`${id}-${f.name}-note`).hidden = true;
  const verdict = $(`${id}-verdict`);
  const result = $(`${id}-result`);
  result.removeAttribute('aria-busy');
  result.classList.remove('stale');
  const v = outcome.pasted ? pastedVerdict(state, outcome) : outcome.error ? errorVerdict(game, outcome.error) : judge(game, outcome);
  verdict.replaceChildren(...v.nodes);
  verdict.dataset.verdict = v.verdict;
  verdict.dataset.state = 'done';
  verdict.dataset.run = String(state.runs);
  if (v.firstMismatch !== undefined) verdict.dataset.firstMismatch = String(v.firstMismatch);
  else delete verdict.dataset.firstMismatch;
  result.replaceChildren(...(outcome.checked ? resultNodes(game, outcome, v) : []));
  if (reveal || v.verdict === 'mismatch') verdict.scrollIntoView({ block: reveal ? 'start' : 'nearest' });
}

function errorVerdict(game, error) {
  const f = allFields(game).find((x) => x.name === error.field);
  if (f) {
    const note = $(`${game.id}-${f.name}-note`);
    note.replaceChildren(notice('bad', error.message));
    note.hidden = false;
  }
  return { verdict: 'invalid', nodes: [el('p', { class: 'verdict-head' }, '✗ Eingabe nicht verwendbar'), el('p', { class: 'verdict-detail', 'data-error': error.field ?? '' }, error.message)] };
}

function pastedVerdict(state, { pasted }) {
  const { field, found } = pasted;
  const what = found.kind === 'proof' ? 'ein ganzer Nachweis (JSON)' : 'ein Link zu einer Prüfung';
  const load = el('button', { type: 'button', class: 'primary', id: `${state.game.id}-load-pasted` }, found.kind === 'proof' ? 'Als Nachweis prüfen' : 'Link öffnen');
  load.addEventListener('click', () => (found.kind === 'proof' ? state.hooks.onProof(found.text) : state.hooks.onFragment(found.hash)));
  const note = $(`${state.game.id}-${field.name}-note`);
  note.replaceChildren(notice('warn', `Hier steht ${what}, kein einzelner Wert.`));
  note.hidden = false;
  return {
    verdict: 'invalid',
    nodes: [
      el('p', { class: 'verdict-head' }, `Im Feld „${field.label}“ steht ${what}`),
      el('p', { class: 'verdict-detail' }, 'Als Seed verwendet ergäbe das eine ganz andere Folge. Soll die Seite das Ganze prüfen?'),
      el('div', { class: 'actions' }, load),
    ],
  };
}

/** The verdict of a checked game: one headline combining commitment and outcome. */
function judge(game, outcome) {
  const { report, epochs } = outcome.checked;
  const epoch = epochs[0];
  const invalid = report.findings.find((f) => f.kind === 'invalid');
  if (invalid) {
    const message = germanReason(invalid.field, invalid.reason ?? '');
    const f = allFields(game).find((x) => x.name === invalid.field && fieldShown(x, outcome.values));
    if (f) return errorVerdict(game, { field: f.name, message });
    return errorVerdict(game, { field: null, message });
  }
  const commit = epoch.commit?.verdict;
  const rounds = epoch.rounds;
  const mismatches = report.findings.filter((f) => f.kind === 'mismatch');
  // The cut is compared like a card but is not one: it is named on its own.
  const cutSeen = rounds.some((r) => r.observed?.cut !== undefined);
  const compared = rounds.reduce((n, r) => n + (r.comparison?.compared ?? 0), 0) - (cutSeen ? 1 : 0);
  const nodes = [];
  const lines = [];
  let firstMismatch;
  if (commit === 'mismatch') {
    lines.push('Das Commitment passt NICHT: SHA-256 des offengelegten Seeds ist nicht der Wert, der vor dem Spiel gezeigt wurde. Der Seed war also nicht der, auf den sich der Betreiber festgelegt hatte – oder das Commitment ist falsch abgeschrieben.');
  }
  if (mismatches.length) {
    const first = mismatches[0];
    const d = describeMismatch(game, outcome, first);
    firstMismatch = d.index;
    const more = mismatches.reduce((n, f) => n + (f.differences ?? 1), 0) - 1;
    lines.push(`Erste Abweichung: ${d.where}: gesehen ${d.observed}, berechnet ${d.derived}.${more > 0 ? ` Dazu ${plural(more, 'weitere Abweichung', 'weitere Abweichungen')}.` : ''}`);
    if (d.hint) lines.push(d.hint);
    if (d.first) {
      lines.push(`Schon das Erste, was verglichen wurde, weicht ab. Das spricht eher für einen falsch übertragenen Wert als für Betrug: prüfe ${game.firstHint ?? 'die eingetragenen Werte'} (und ob der Server-Seed vollständig kopiert ist), bevor du etwas anderes annimmst.`);
    }
  }
  let head;
  let verdict = report.verdict;
  if (verdict === 'mismatch') {
    const passed = commit === 'ok' ? ' – Commitment passt' : '';
    head = commit === 'mismatch' && !mismatches.length ? '✗ Commitment passt nicht' : commit === 'mismatch' ? '✗ Commitment und Ergebnis passen nicht' : `${game.mismatchHead ?? '✗ Das Ergebnis passt nicht zu den Seeds'}${passed}`;
  }
  else if (verdict === 'match') {
    // A game whose items have no name a player uses (a Plinko path and its multiplier are not "13 Angaben") names none.
    const unit = game.unit ?? ['Angabe', 'Angaben'];
    const generic = unit[0] === 'Angabe';
    const all = generic ? 'alles Eingetragene stimmt' : compared === 1 ? `${plural(1, unit[0], unit[1])} stimmt` : `alle ${plural(compared, unit[0], unit[1])} stimmen`;
    const seen = compared ? `${all}${cutSeen ? ', die Cut-Card auch' : ''}` : cutSeen ? 'die Cut-Card stimmt' : 'nichts Gesehenes eingetragen';
    head = commit === 'ok' ? `✓ Stimmt: Commitment passt, ${seen}` : `✓ Stimmt: ${seen}`;
    if (!compared && !cutSeen) lines.push('Trage unten ein, was du gesehen hast, dann vergleicht die Seite Stück für Stück.');
  } else {
    verdict = 'unobserved';
    head = 'Berechnet – noch nichts verglichen';
    lines.push(game.unobservedHint ?? 'Trage das Commitment und, was du gesehen hast, ein: dann sagt die Seite, ob beides passt.');
  }
  const skipped = rounds.filter((r) => r.verdict === 'skipped').length;
  if (skipped) lines.push(skipped === 1 ? 'Ein Telegram-Wurf übersprungen: er kommt nicht aus dem Seed und lässt sich nicht nachrechnen.' : `${formatInt(skipped)} Telegram-Würfe übersprungen: sie kommen nicht aus dem Seed und lassen sich nicht nachrechnen.`);
  nodes.push(el('p', { class: 'verdict-head' }, head), ...lines.map((t) => el('p', { class: 'verdict-detail' }, t)), ...meaningNodes(game, verdict, commit, outcome));
  return { verdict, nodes, firstMismatch };
}

/** The two short lines beside a game's verdict (what it proves, what not), and "Was jetzt?" on a mismatch. */
function meaningNodes(game, verdict, commit, outcome) {
  const id = game.id;
  const line = (key, text) => el('p', { class: 'verdict-means', id: `${id}-${key}` }, text);
  // A game whose proof is no seed (a crash game's hash and salt) says its own.
  const own = game.means?.(verdict, outcome);
  if (own) return own.map(([key, text]) => line(key, text));
  if (verdict === 'match') {
    if (secretless(game)) return [line('proves', 'Das beweist: Die veröffentlichte Tabelle spielt diese Lage so.'), line('not', 'Das beweist nicht: dass am Tisch nach der Tabelle gespielt wurde.')];
    return [
      line('proves', commit === 'ok' ? 'Das beweist: Was du gesehen hast, folgt aus dem Seed, auf den sich der Betreiber vorher festgelegt hatte.' : 'Das beweist: Was du gesehen hast, folgt aus diesem Seed.'),
      line('not', commit === 'ok' ? 'Das beweist nicht: dass der Seed zufällig gezogen wurde, und nichts über Runden, die du nicht eingetragen hast.' : 'Das beweist nicht: dass der Seed vorher feststand – dafür fehlt das Commitment.'),
    ];
  }
  if (verdict !== 'mismatch') return [];
  return [
    line('proves', 'Das heißt: Was du eingetragen hast, folgt nicht aus diesen Werten – entweder wich das Spiel ab, oder ein Wert ist falsch übertragen.'),
    line('not', 'Das heißt nicht sicher, dass betrogen wurde: ein einziger falsch kopierter Wert ergibt dasselbe Bild.'),
    whatNow({ id, keep: 'Bewahre die Werte auf, am einfachsten als „Link zu dieser Prüfung“.', what: 'diesen Link' }),
  ];
}

const cardText = (face) => face.text;
const showCards = (list, show) => list.map((c) => (c === null || c === undefined ? '?' : cardText(show(c)))).join(' ');

/** Where a mismatch is, in the game's own words, and whether it is the first thing compared. */
function describeMismatch(game, outcome, f) {
  const { epochs } = outcome.checked;
  const round = epochs[0].rounds[f.round];
  const firstSeen = (list) => list.findIndex((x) => x !== null);
  const values = outcome.values;
  switch (game.id) {
    case 'blackjack':
    case 'tournament': {
      if (f.field === 'cut') return { where: 'Cut-Card', observed: `nach Karte ${f.observed}`, derived: `nach Karte ${f.derived}`, first: false };
      const show = values.variant === 'table' && game.id === 'blackjack' ? faces.table : faces.shoe;
      const list = round.observed.cards ?? round.observed.order;
      return { where: `Karte ${formatInt(f.index + 1)}`, observed: cardText(show(f.observed)), derived: f.derived === null ? 'keine (der Schuh ist zu Ende)' : cardText(show(f.derived)), index: f.index, first: f.index === firstSeen(list) };
    }
    case 'dice': {
      const seenRounds = epochs[0].rounds.filter((r) => r.comparison?.compared);
      return { where: `Wurf Nummer ${formatInt(round.request.n)}`, observed: String(f.observed), derived: String(f.derived), index: f.round, first: seenRounds[0] === round };
    }
    case 'numbers': {
      if (f.field === 'order') return { where: `Stelle ${formatInt(f.index + 1)} der Mischung`, observed: String(f.observed), derived: f.derived === null ? 'keine' : String(f.derived), index: f.index, first: f.index === firstSeen(round.observed.order) };
      return { where: fieldName(f.field), observed: String(f.observed), derived: String(f.derived), first: true };
    }
    case 'poker': {
      // The hole cards come first in the op's answer: a wrong seat is the first thing compared.
      if (f.field === 'hole') return { where: `Platz ${f.index + 1}`, observed: showCards(f.observed, faces.cursor), derived: showCards(f.derived ?? [], faces.cursor), index: f.index, first: true };
      return { where: `Board-Karte ${f.index + 1}`, observed: cardText(faces.cursor(f.observed)), derived: f.derived === null ? 'keine' : cardText(faces.cursor(f.derived)), index: f.index, first: !round.observed.hole && f.index === firstSeen(round.observed.board) };
    }
    case 'pokerni': {
      const n = outcome.built.players;
      const where = f.index < 2 * n ? `Platz ${Math.floor(f.index / 2) + 1}, Karte ${(f.index % 2) + 1}` : `Board-Karte ${f.index - 2 * n + 1}`;
      return { where: `${where} (Stapelposition ${f.index + 1})`, observed: cardText(faces.numpy(f.observed)), derived: f.derived === null ? 'keine' : cardText(faces.numpy(f.derived)), index: f.index, first: f.index === firstSeen(round.observed.deck) };
    }
    case 'strategy':
      return {
        where: 'Aktion', observed: ACTION_NAMES[f.observed] ?? String(f.observed), derived: ACTION_NAMES[f.derived] ?? String(f.derived), first: false,
        hint: 'Die veröffentlichte Tabelle spielt diese Lage anders. Prüfe zuerst die Karten, die Dealerkarte und die Häkchen: ob Verdoppeln und Teilen erlaubt sind, ändert die Antwort.',
      };
    case 'dond': {
      const show = ladderShow(outcome.built.ladder);
      return { where: `Koffer ${formatInt(f.index + 1)}`, observed: show(f.observed), derived: f.derived === null ? 'keiner' : show(f.derived), index: f.index, first: f.index === firstSeen(round.observed.order) };
    }
    default:
      if (game.describeMismatch) return game.describeMismatch(f, round, outcome);
      return { where: fieldName(f.field), observed: stringifyJson(f.observed), derived: stringifyJson(f.derived), first: false };
  }
}

const ladderShow = (ladder) => (i) => (ladder ? `${formatAmount(ladder[i].value)}${/€|EUR/i.test(ladder[i].text) ? ' €' : ''}` : `Platz ${i + 1}`);

// ---------------------------------------------------------------------------
// The outcome: commitment line, then the items, collapsed to the compared range

function commitLine(game, outcome) {
  const epoch = outcome.checked.epochs[0];
  const actual = epoch.commit?.derived ?? null;
  const label = epoch.secret?.field === 'seed' ? 'SHA-256("selfpoker:" + Seed)' : 'SHA-256 des Server-Seeds';
  return el('dl', { class: 'kv' },
    el('dt', {}, label),
    el('dd', {}, el('code', { id: `${game.id}-commit-actual` }, actual ?? '—'), actual ? copyButton('Berechnetes Commitment', actual, { id: `${game.id}-commit-copy` }) : null),
    el('dt', {}, 'Commitment'),
    el('dd', { id: `${game.id}-commit-verdict`, 'data-verdict': epoch.commit?.verdict ?? 'absent' }, { ok: '✓ passt', mismatch: '✗ passt nicht', absent: 'nicht eingetragen', invalid: 'ungültig' }[epoch.commit?.verdict] ?? '—'));
}

/** Per item: 'match', 'mismatch' or undefined (not seen), from a round's observation and differences. */
function marksOf(observed, differences, field) {
  const marks = [];
  if (!Array.isArray(observed)) return marks;
  observed.forEach((o, i) => {
    if (o !== null && !(Array.isArray(o) && o.every((x) => x === null))) marks[i] = 'match';
  });
  for (const d of differences ?? []) if (d.field === field && d.path.length) marks[d.path[0]] = 'mismatch';
  return marks;
}

/**
 * Chips built at once: a list this long is kept whole (hidden outside the
 * range shown); a longer one (a 100,000-entry shuffle: one task of most of
 * a second) builds only the range shown, and the rest in pieces
 * when asked for.
 */
const EAGER = 2000;
const CHIPS_PER_TASK = 1000;

/** An <ol> of chips; only the compared range (or the first few) shown until "alle zeigen". */
function chipList(id, items, { marks = [], cut, unit }) {
  const ol = el('ol', { class: 'seq', id: `${id}-grid` });
  const eager = items.length <= EAGER;
  let marked = [];
  marks.forEach((m, i) => m && marked.push(i));
  const lo = marked.length ? Math.max(0, marked[0] - 2) : 0;
  let hi = marked.length ? Math.min(items.length - 1, marked.at(-1) + 2) : Math.min(items.length, COLLAPSED) - 1;
  if (!eager) hi = Math.min(hi, lo + EAGER - 1);
  marked = null;
  const chip = (i) => {
    const item = items[i];
    const mark = marks[i];
    return el('li', {
      class: [item.red ? 'red' : '', cut === i ? 'cut' : '', mark ?? ''].filter(Boolean).join(' ') || undefined,
      'data-pos': i, 'data-value': item.value, 'data-mark': mark,
      title: `${item.label}${mark === 'mismatch' ? ' – weicht ab' : mark === 'match' ? ' – stimmt' : ''}`,
    }, el('span', { class: 'pos' }, item.short ?? String(i + 1)), item.text);
  };
  const range = (a, b) => {
    const lis = [];
    for (let i = a; i <= b; i++) lis.push(chip(i));
    return lis;
  };
  if (eager) {
    for (const li of range(0, items.length - 1)) {
      const i = Number(li.dataset.pos);
      li.hidden = i < lo || i > hi;
      ol.append(li);
    }
  } else {
    ol.append(...range(lo, hi));
  }
  const nodes = [ol];
  if (lo > 0 || hi < items.length - 1) {
    const shownCount = hi - lo + 1;
    const toggle = el('button', { type: 'button', class: 'secondary small', id: `${id}-show-all`, 'aria-controls': `${id}-grid`, 'aria-expanded': 'false' }, `Alle ${plural(items.length, unit[0], unit[1])} zeigen`);
    let pass = 0;
    toggle.addEventListener('click', () => {
      const all = toggle.getAttribute('aria-expanded') !== 'true';
      const mine = ++pass;
      if (eager) [...ol.children].forEach((li, i) => (li.hidden = !all && (i < lo || i > hi)));
      else if (!all) ol.replaceChildren(...range(lo, hi));
      else {
        ol.replaceChildren();
        let at = 0;
        const step = () => {
          if (mine !== pass) return;
          ol.append(...range(at, Math.min(items.length, at + CHIPS_PER_TASK) - 1));
          at += CHIPS_PER_TASK;
          if (at < items.length) setTimeout(step, 0);
        };
        step();
      }
      toggle.setAttribute('aria-expanded', String(all));
      toggle.textContent = all ? `Nur ${plural(shownCount, unit[0], unit[1])} zeigen` : `Alle ${plural(items.length, unit[0], unit[1])} zeigen`;
    });
    nodes.unshift(el('p', { class: 'muted small' }, `Gezeigt: ${unit[1]} ${formatInt(lo + 1)} bis ${formatInt(hi + 1)} von ${formatInt(items.length)}.`));
    nodes.push(toggle);
  }
  return nodes;
}

function resultNodes(game, outcome) {
  const nodes = secretless(game) ? [] : [commitLine(game, outcome)];
  const rounds = outcome.checked.epochs[0].rounds;
  const derivedText = [];
  const add = (...n) => nodes.push(...n);
  const r = rounds[0];
  switch (game.id) {
    case 'blackjack':
    case 'tournament': {
      if (!r.derived) break;
      const table = game.id === 'blackjack' && outcome.values.variant === 'table';
      const list = table ? r.derived.order : r.derived.cards;
      const show = table ? faces.table : faces.shoe;
      const items = list.map((c, i) => ({ value: String(c), ...show(c), label: `Karte ${i + 1}` }));
      derivedText.push(items.map((x) => x.text).join(' '));
      const deal = table ? null : roundShown(r);
      if (deal) add(el('p', { class: 'round-shown', id: `${game.id}-shown` }, deal));
      if (!table) add(el('p', {}, `${plural(list.length, 'Karte', 'Karten')}; die Cut-Card liegt nach Karte `, el('strong', { id: `${game.id}-derived-cut` }, String(r.derived.cut)), '.'));
      else add(el('p', {}, `${plural(list.length, 'Karte', 'Karten')} (6 Decks): sechsmal dieselben 52 Karten, in der Reihenfolge der Mischung.`));
      add(...chipList(game.id, items, { marks: marksOf(r.observed?.cards ?? r.observed?.order, r.comparison?.differences, table ? 'order' : 'cards'), cut: table ? undefined : r.derived.cut, unit: ['Karte', 'Karten'] }));
      break;
    }
    case 'dice': {
      const items = rounds.map((x) => {
        const n = x.request?.n;
        const face = x.derived?.face;
        const text = x.verdict === 'skipped' ? `T${x.observed?.face ?? ''}` : face ? `${'⚀⚁⚂⚃⚄⚅'[face - 1]} ${face}` : '—';
        return { value: String(face ?? ''), text, short: `Nr. ${formatInt(n)}`, label: `Wurf Nummer ${formatInt(n)}${x.verdict === 'skipped' ? ' (Telegram, übersprungen)' : ''}` };
      });
      const marks = rounds.map((x) => (x.verdict === 'match' ? 'match' : x.verdict === 'mismatch' ? 'mismatch' : x.verdict === 'skipped' ? 'skipped' : undefined));
      derivedText.push(rounds.map((x) => x.derived?.face ?? '?').join(' '));
      add(el('p', {}, `Würfe Nummer ${formatInt(rounds[0].request.n)} bis ${formatInt(rounds.at(-1).request.n)}.`));
      add(...chipList(game.id, items, { marks, unit: ['Wurf', 'Würfe'] }));
      break;
    }
    case 'numbers': {
      if (!r.derived) break;
      const dl = el('dl', { class: 'kv', id: 'numbers-out' });
      for (const [k, v] of Object.entries(r.derived)) {
        if (k === 'order') continue;
        dl.append(el('dt', {}, fieldName(k)), el('dd', { 'data-key': k, id: `numbers-out-${k}` }, typeof v === 'number' ? String(v).replace('.', ',') : String(v)));
        derivedText.push(String(v));
      }
      add(dl);
      if (r.derived.order) {
        const items = r.derived.order.map((x, i) => ({ value: String(x), text: String(x), label: `Stelle ${i + 1}` }));
        derivedText.push(r.derived.order.join(' '));
        add(...chipList(game.id, items, { marks: marksOf(r.observed?.order, r.comparison?.differences, 'order'), unit: ['Stelle', 'Stellen'] }));
      }
      break;
    }
    case 'poker':
      if (r.derived) add(handsBlock(game.id, r.derived.hole, r.derived.board, CURSOR, r));
      if (r.derived) derivedText.push([...r.derived.hole.map((h) => showCards(h, faces.cursor)), showCards(r.derived.board, faces.cursor)].join(' | '));
      break;
    case 'pokerni': {
      if (!r.derived) break;
      const { hole, board } = selfpokerDeal(r.derived.deck, outcome.built.players);
      add(handsBlock(game.id, hole, board, NUMPY, null));
      const items = r.derived.deck.map((c, i) => ({ value: String(c), ...faces.numpy(c), label: `Stapelposition ${i + 1}` }));
      derivedText.push(items.map((x) => x.text).join(' '));
      add(el('p', { class: 'muted small' }, 'Der ganze Stapel (Hände, dann Board, dann die nicht ausgeteilten Karten):'));
      add(...chipList(game.id, items, { marks: marksOf(r.observed?.deck, r.comparison?.differences, 'deck'), unit: ['Karte', 'Karten'] }));
      break;
    }
    case 'strategy':
      if (!r.derived) break;
      add(...strategyNodes(r, outcome.built));
      derivedText.push(`${showCards(r.request.cards, faces.cursor)} gegen ${upCard(r.request.dealer)}: ${ACTION_NAMES[r.derived.action]}`);
      break;
    case 'dond': {
      if (!r.derived) break;
      const show = ladderShow(outcome.built.ladder);
      const items = r.derived.order.map((x, k) => ({ value: String(x), text: show(x), short: `Koffer ${k + 1}`, label: `Koffer ${k + 1}` }));
      derivedText.push(items.map((x) => `${x.short}: ${x.text}`).join('\n'));
      add(...chipList(game.id, items, { marks: marksOf(r.observed?.order, r.comparison?.differences, 'order'), unit: ['Koffer', 'Koffer'] }));
      break;
    }
    default:
      // A game that draws its own result (web/stake.mjs).
      if (game.resultNodes && r) add(...game.resultNodes(r, outcome).filter(Boolean));
      if (game.resultText && r?.derived && game.resultText(r)) derivedText.push(game.resultText(r));
      break;
  }
  if (derivedText.length) add(el('div', { class: 'actions' }, copyButton('Berechnetes Ergebnis', derivedText.join('\n'), { id: `${game.id}-copy-result` }, 'Berechnetes Ergebnis kopieren')));
  return nodes;
}

// ---------------------------------------------------------------------------
// The basic strategy: the decision, and the cell of the table it came from

/** The op's action words as a player reads them. */
const ACTION_NAMES = { teilen: 'Teilen', verdoppeln: 'Verdoppeln', stehen: 'Stehen', ziehen: 'Ziehen' };
const ACTION_MEANING = { teilen: 'die zwei Karten zu zwei Händen teilen', verdoppeln: 'den Einsatz verdoppeln, genau eine Karte dazu', stehen: 'keine Karte mehr', ziehen: 'noch eine Karte' };

const upCard = (dealer) => (dealer === 11 ? 'A (11)' : String(dealer));
const cardCount = (card) => (card % 13 === 0 ? 11 : Math.min((card % 13) + 1, 10));

/**
 * The chart, row and column that decided, read the way the op reads them
 * (pairs, then soft 13 and up, then hard): which chart it was follows from
 * the answer, so nothing of the tables is restated here.
 */
export function strategyCell(request, action) {
  const { cards, dealer, canSplit } = request;
  const column = `Dealer ${upCard(dealer)}`;
  const pair = cardCount(cards[0]);
  const pairRow = pair === 11 ? 'A,A' : `${pair},${pair}`;
  if (canSplit && action === 'teilen') return `Paare, Zeile ${pairRow}, Spalte ${column}`;
  const { total, soft } = handValue(cards);
  const row = soft && total >= 13 ? `Soft-Hände, Zeile Soft ${total}` : `Harte Hände, Zeile Hart ${total}${soft ? ' (Soft 12 wird wie Hart 12 gespielt)' : ''}`;
  return `${canSplit ? `Paare: ${pairRow} nicht teilen; dann ` : ''}${row}, Spalte ${column}`;
}

/** "Verdoppeln, sonst Ziehen" when the cell doubles (two cards only), else null. */
function doubleCell(request) {
  if (request.cards.length !== 2) return null;
  const withDouble = strategy({ ...request, canDouble: true });
  const without = strategy({ ...request, canDouble: false });
  return withDouble === without ? null : `${ACTION_NAMES[withDouble]}, sonst ${ACTION_NAMES[without]}`;
}

function strategyNodes(r, built) {
  const req = r.request;
  const action = r.derived.action;
  const { total, soft } = handValue(req.cards);
  const isPair = req.cards.length === 2 && cardCount(req.cards[0]) === cardCount(req.cards[1]);
  const cell = doubleCell(req);
  const dl = el('dl', { class: 'kv words', id: 'strategy-out' },
    el('dt', {}, 'Hand'), el('dd', { id: 'strategy-out-hand' }, ...cardSpans(req.cards, faces.cursor), `– ${soft ? 'Soft' : 'Hart'} ${total}${isPair ? ', ein Paar' : ''}`),
    el('dt', {}, 'Dealer zeigt'), el('dd', { id: 'strategy-out-dealer' }, upCard(req.dealer)),
    el('dt', {}, 'Tabellenfeld'), el('dd', { id: 'strategy-out-cell' }, strategyCell(req, action)),
    cell ? el('dt', {}, 'Im Feld steht') : null, cell ? el('dd', { id: 'strategy-out-double' }, `${cell}${req.canDouble ? '' : ' – Verdoppeln ist hier nicht erlaubt'}`) : null);
  const nodes = [
    el('p', { class: 'strategy-action' }, 'Die Tabelle sagt: ', el('strong', { id: 'strategy-out-action', 'data-action': action }, ACTION_NAMES[action]), ` – ${ACTION_MEANING[action]}.`),
    dl,
  ];
  if (isPair && !req.canSplit) nodes.push(notice('info', 'Die Karten sind ein Paar, „Teilen erlaubt“ ist aber nicht angekreuzt: das ist die Entscheidung ohne Teilen.', { id: 'strategy-note-pair' }));
  if (built.numbered?.length) {
    const read = built.numbered.map((t) => `${t} = ${faces.cursor(Number(t)).text}`).join(', ');
    nodes.push(notice('info', `Als Kartennummern gelesen: ${read}. Meinst du den Rang, schreib die Karte mit Farbe, z. B. „7♠“.`, { id: 'strategy-note-numbers' }));
  }
  return nodes;
}


function cardSpans(cards, show, marks = []) {
  return cards.map((c, i) => {
    const f = show(c);
    return el('span', { class: ['card-text', f.red ? 'red-suit' : '', marks[i] ?? ''].filter(Boolean).join(' '), 'data-mark': marks[i] }, f.text);
  });
}

/** Board and hands; each hand rated with poker.evaluate (cursor numbering). */
function handsBlock(id, hole, board, numbering, round) {
  const show = numbering === CURSOR ? faces.cursor : faces.numpy;
  const diffs = round?.comparison?.differences ?? [];
  const boardMarks = round ? marksOf(round.observed?.board, diffs, 'board') : [];
  const box = el('div', { class: 'hands', id: `${id}-hands` });
  const won = showdown(hole, board, numbering);
  if (won) {
    box.append(el('p', { class: 'round-shown', id: `${id}-winner` }, won.seats.length === 1
      ? `Gewinner: Platz ${won.seats[0]} mit ${won.hand.withText}`
      : `Geteilter Pot: Plätze ${won.seats.join(', ')} mit ${won.hand.withText}`));
  }
  box.append(el('div', { class: 'hand' }, el('strong', {}, 'Board'), el('span', {}, ...cardSpans(board, show, boardMarks))));
  const seenHole = round?.observed?.hole ?? [];
  hole.forEach((cards, i) => {
    const seen = seenHole[i];
    const marks = Array.isArray(seen) ? seen.map((c, j) => (c === null ? undefined : diffs.some((d) => d.field === 'hole' && d.path[0] === i && d.path[1] === j) ? 'mismatch' : 'match')) : [];
    const rated = rate([...cards, ...board].map((c) => convertCard(numbering, CURSOR, c)));
    box.append(el('div', { class: 'hand', 'data-seat': i + 1 }, el('strong', {}, `Platz ${i + 1}`), el('span', {}, ...cardSpans(cards, show, marks)), el('span', { class: 'muted' }, rated)));
  });
  return box;
}

/** The category of the best five of 5–7 cursor cards, in German. */
function rate(cards) {
  // poker.evaluate is synchronous at heart; the engine answers it without crypto.
  const r = evaluateSync(cards);
  return r ? handWords(r).text : '';
}

function evaluateSync(cards) {
  if (cards.length < 5 || cards.length > 7 || new Set(cards).size !== cards.length) return null;
  return pokerEvaluate(cards);
}

// ---------------------------------------------------------------------------
// The link to this check

/** The fragment for the panel's current inputs (docs/links.md). */
export function panelFragment(game) {
  const { values } = readValues(game);
  const pairs = [];
  if (game.id === 'blackjack') pairs.push(['game', values.variant === 'table' ? 'blackjack-table' : 'blackjack']);
  // An op that more than one game plays opens the game its link names (docs/links.md).
  else if (viewOf(game.opFor(values)) !== game.id) pairs.push(['game', game.id]);
  for (const f of allFields(game)) {
    if (!fieldShown(f, values) || f.name === 'op') continue;
    if (f.name === 'seats') {
      for (const line of values.seats.split('\n').map((l) => l.trim()).filter(Boolean)) {
        const m = /^(?:spieler|platz|player)?\s*(\d+)\s*[:=\t]\s?(.*)$/iu.exec(line);
        pairs.push(['seat', m ? `${m[1]}:${m[2].trim()}` : line]);
      }
      continue;
    }
    pairs.push([f.name, values[f.name]]);
  }
  return roundFragment(game.opFor(values), pairs);
}

function showLink(state) {
  const hash = panelFragment(state.game);
  history.replaceState(null, '', hash);
  const url = location.href;
  const box = $(`${state.game.id}-link-box`);
  const input = el('input', { type: 'text', readonly: true, class: 'mono', id: `${state.game.id}-link-url`, value: url, 'aria-label': 'Link zu dieser Prüfung' });
  box.replaceChildren(input, copyButton('Link', url, { id: `${state.game.id}-link-copy` }));
  box.hidden = false;
}
