// A whole proof on the page: pasted, dropped as a file, or opened from
// #proof=…; checked by reference/js/proof.mjs (docs/proofs.md, the rules of
// `provably audit`), every epoch and round listed with its verdict, and the
// overall verdict on #proof-verdict[data-verdict].

import { checkProof } from './js/proof.mjs';
import { $, copyButton, el } from './dom.mjs';
import { proofFragment } from './fragment.mjs';
import { faces } from './games.mjs';
import { fieldName, formatInt, germanReason, plural } from './german.mjs';

const DEBOUNCE_MS = 400;
/** Rounds listed per epoch before "alle zeigen" (rounds with findings are always listed). */
const LISTED = 60;

export const OP_NAMES = Object.freeze({
  'shoe.deal': 'Blackjack, freie Runde',
  'shoe.tournament': 'Turnierhand',
  'dice.roll': 'Würfel',
  'cursor.int': 'Casino-Zahl',
  'cursor.float': 'Kommazahl',
  'cursor.raw': 'Rohwert',
  'cursor.shuffle': 'Mischung',
  'poker.deal': 'Casino-Poker',
  'poker.evaluate': 'Handbewertung',
  'selfpoker.deck': 'Pokerni-Hand',
  'ladder.shuffle': 'Deal or No Deal',
  'blackjack.strategy': 'Basisstrategie',
});

/** What one item of a list field is called. */
const ITEM_NAMES = { cards: 'Karte', deck: 'Karte', hole: 'Platz', board: 'Board-Karte', order: 'Eintrag', ranks: 'Rang' };

const state = { gen: 0, timer: null, source: null };

/** Wires the proof card; `text` input, file input, drop zone, buttons. */
export function setupProofCard() {
  const text = $('proof-text');
  $('proof-form').addEventListener('submit', (e) => {
    e.preventDefault();
    state.source = null;
    checkNow(text.value);
  });
  text.addEventListener('input', () => {
    state.source = null;
    state.gen++; // a check still running is for older text
    busy('Rechnet …');
    clearTimeout(state.timer);
    state.timer = setTimeout(() => checkNow(text.value), DEBOUNCE_MS);
  });
  $('proof-file').addEventListener('change', (e) => {
    const file = e.target.files?.[0];
    if (file) loadFile(file);
  });
  const drop = $('proof-card');
  drop.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.classList.add('dragging');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('dragging'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('dragging');
    const file = e.dataTransfer?.files?.[0];
    if (file) loadFile(file);
    else if (e.dataTransfer?.getData('text')) loadText(e.dataTransfer.getData('text'));
  });
  $('proof-link').addEventListener('click', showLink);
}

async function loadFile(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  state.source = { name: file.name, bytes };
  const text = $('proof-text');
  text.value = bytes.length <= 1 << 20 ? new TextDecoder('utf-8').decode(bytes) : '';
  text.placeholder = bytes.length > 1 << 20 ? `Datei ${file.name} (${formatInt(bytes.length)} Bytes) geladen` : '';
  checkNow(bytes, file.name);
}

/** Puts `text` into the proof card, checks it and brings the card into view. */
export function loadText(text) {
  state.source = null;
  $('proof-text').value = text;
  $('proof-card').scrollIntoView({ block: 'start' });
  return checkNow(text);
}

function busy(message) {
  const v = $('proof-verdict');
  v.dataset.state = 'busy';
  delete v.dataset.verdict;
  v.replaceChildren(el('p', { class: 'verdict-head busy' }, el('span', { class: 'spinner', 'aria-hidden': 'true' }), message));
  $('proof-result').classList.add('stale');
  $('proof-result').setAttribute('aria-busy', 'true');
}

async function checkNow(input, name) {
  clearTimeout(state.timer);
  const gen = ++state.gen;
  if (typeof input === 'string' && input.trim() === '') {
    const v = $('proof-verdict');
    v.dataset.state = 'idle';
    delete v.dataset.verdict;
    v.replaceChildren();
    $('proof-result').replaceChildren();
    return;
  }
  busy('Prüft …');
  const checked = await checkProof(input, {
    onProgress: (done, total) => gen === state.gen && total > 100 && busy(`Prüft … ${formatInt(done)} von ${plural(total, 'Stelle', 'Stellen')}`),
  });
  if (gen !== state.gen) return;
  render(checked, name);
}

// ---------------------------------------------------------------------------

const place = (f) => [
  f.epoch !== null ? `Epoche ${formatInt(f.epoch + 1)}` : 'Nachweis',
  f.round !== null ? `Runde ${formatInt(f.round + 1)}` : null,
  f.line !== null ? `Zeile ${formatInt(f.line)}` : null,
].filter(Boolean).join(', ');

/** A value of an op's answer field for people: cards as cards, the rest as JSON-ish text. */
function show(op, field, v) {
  if (v === null || v === undefined) return 'nichts';
  if (Array.isArray(v)) return v.map((x) => show(op, field, x)).join(' ');
  if (field === 'cards' && typeof v === 'string') return faces.shoe(v).text;
  if ((field === 'hole' || field === 'board') && typeof v === 'number') return faces.cursor(v).text;
  if (field === 'deck' && typeof v === 'number') return faces.numpy(v).text;
  if (typeof v === 'number') return String(v).replace('.', ',');
  if (typeof v === 'object') return JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? String(x) : x));
  return String(v);
}

/** One finding in German. */
export function describeFinding(f, op) {
  switch (f.kind) {
    case 'mismatch': {
      const what = f.index !== null ? `${ITEM_NAMES[f.field] ?? 'Eintrag'} an Position ${formatInt(f.index + 1)} (ab 1)` : fieldName(f.field);
      const more = f.differences > 1 ? ` – ${plural(f.differences, 'Abweichung', 'Abweichungen')} in diesem Feld` : '';
      return `${what}: berechnet ${show(op, f.field, f.derived)}, im Nachweis ${show(op, f.field, f.observed)}${more}.`;
    }
    case 'commit':
      return `Commitment passt nicht: aus dem Seed berechnet ${f.derived}, im Nachweis ${f.observed}.`;
    case 'skipped':
      return `Übersprungen, kommt nicht aus dem Seed (${f.reason === 'telegram' ? 'Telegram-Würfel' : `„${f.reason}“`}).`;
    case 'unobserved':
      return 'Nichts beobachtet: berechnet, aber nicht verglichen.';
    default:
      return germanReason(f.field, f.reason ?? '');
  }
}

function headline(report) {
  const counts = `${plural(report.epochs, 'Epoche', 'Epochen')}, ${plural(report.rounds, 'Runde', 'Runden')}`;
  switch (report.verdict) {
    case 'match':
      return ['✓ Der Nachweis stimmt', `${counts}: ${plural(report.match, 'Runde stimmt', 'Runden stimmen')}${report.commitOk ? `, ${plural(report.commitOk, 'Commitment passt', 'Commitments passen')}` : ''}${report.skipped ? `, ${plural(report.skipped, 'Runde übersprungen', 'Runden übersprungen')}` : ''}.`];
    case 'mismatch':
      return ['✗ Der Nachweis stimmt NICHT', `${counts}: ${plural(report.mismatch, 'Runde weicht', 'Runden weichen')} ab${report.commitMismatch ? `, ${plural(report.commitMismatch, 'Commitment passt', 'Commitments passen')} nicht` : ''}.`];
    case 'invalid':
      return ['✗ Der Nachweis ist fehlerhaft', `${plural(report.findings.filter((f) => f.kind === 'invalid').length, 'Stelle ist', 'Stellen sind')} nicht lesbar oder ungültig; ${counts}.`];
    default:
      return ['Nichts zu vergleichen', `${counts}: weder ein Commitment noch etwas Beobachtetes, das sich vergleichen ließe.`];
  }
}

function render(checked, name) {
  const { report, epochs } = checked;
  const v = $('proof-verdict');
  const [head, detail] = headline(report);
  const first = report.findings.find((f) => f.kind === (report.verdict === 'invalid' ? 'invalid' : 'mismatch')) ?? report.findings.find((f) => f.kind === 'commit');
  const opOf = (f) => epochs[f.epoch]?.rounds.find((r) => r.round === f.round)?.op;
  v.replaceChildren(...[
    el('p', { class: 'verdict-head' }, head),
    el('p', { class: 'verdict-detail' }, detail),
    first && report.verdict !== 'match' ? el('p', { class: 'verdict-detail', id: 'proof-first' }, `Zuerst: ${place(first)} – ${describeFinding(first, opOf(first))}`) : null,
  ].filter(Boolean));
  v.dataset.verdict = report.verdict;
  v.dataset.state = 'done';
  for (const k of ['epoch', 'round', 'index']) {
    if (first && first[k] !== null && report.verdict !== 'match') v.dataset[`first${k[0].toUpperCase()}${k.slice(1)}`] = String(first[k]);
    else delete v.dataset[`first${k[0].toUpperCase()}${k.slice(1)}`];
  }
  const out = $('proof-result');
  out.classList.remove('stale');
  out.removeAttribute('aria-busy');
  out.replaceChildren(...[
    el('p', { class: 'muted small' }, `${checked.format === 'document' ? 'Nachweis-Dokument' : 'JSON-Zeilen (eine Epoche je Zeile)'}${checked.title ? `: „${checked.title}“` : ''}${name ? ` aus ${name}` : ''}.`),
    counts(report),
    findingsList(report, opOf),
    ...epochs.map((e) => epochSection(e)),
  ].filter(Boolean));
}

function counts(r) {
  const row = (label, n) => [el('dt', {}, label), el('dd', {}, formatInt(n))];
  return el('dl', { class: 'kv counts', id: 'proof-counts' },
    ...row('Epochen', r.epochs), ...row('Runden', r.rounds), ...row('stimmen', r.match), ...row('weichen ab', r.mismatch),
    ...row('übersprungen', r.skipped), ...row('ungültig', r.invalid + r.invalidOther), ...row('nicht verglichen', r.unobserved),
    ...row('Commitments passen', r.commitOk), ...row('Commitments passen nicht', r.commitMismatch), ...row('ohne Commitment', r.commitAbsent));
}

function findingsList(report, opOf) {
  const shown = report.findings.filter((f) => f.kind !== 'unobserved');
  if (!shown.length) return null;
  return el('div', {},
    el('h3', {}, `Befunde (${formatInt(shown.length)})`),
    el('ol', { class: 'findings', id: 'proof-findings' }, ...shown.slice(0, 500).map((f) => el('li', {
      class: f.kind, 'data-kind': f.kind, 'data-epoch': f.epoch ?? '', 'data-round': f.round ?? '', 'data-field': f.field ?? '', 'data-index': f.index ?? '',
    }, el('strong', {}, `${place(f)}: `), describeFinding(f, opOf(f))))),
    shown.length > 500 ? el('p', { class: 'muted small' }, `… und ${plural(shown.length - 500, 'weiterer Befund', 'weitere Befunde')}.`) : null);
}

const VERDICT_TEXT = { match: '✓ stimmt', mismatch: '✗ weicht ab', skipped: '↷ übersprungen', invalid: '✗ ungültig', unobserved: '· nicht verglichen' };
const COMMIT_TEXT = { ok: '✓ Commitment passt', mismatch: '✗ Commitment passt nicht', absent: 'ohne Commitment', invalid: '✗ Commitment ungültig' };

function roundItem(r) {
  const req = r.request ?? {};
  const facts = [
    ['nonce', 'Nonce'], ['hand', 'Hand'], ['n', 'n ='], ['tournamentId', 'Turnier'], ['players', 'Spieler'], ['size', 'Koffer'], ['count', 'Anzahl'], ['cursor', 'Cursor'], ['range', 'Spanne'], ['dealer', 'Dealer'],
  ].filter(([k]) => req[k] !== undefined).map(([k, label]) => `${label} ${typeof req[k] === 'number' || typeof req[k] === 'bigint' ? formatInt(req[k]) : req[k]}`);
  if (r.seats) facts.push(plural(r.seats.length, 'Platz', 'Plätze'));
  const li = el('li', { 'data-round': r.round, 'data-verdict': r.verdict, class: `round ${r.verdict}` },
    el('span', { class: 'round-no' }, `Runde ${formatInt(r.round + 1)}`),
    el('span', { class: 'round-op' }, OP_NAMES[r.op] ?? r.op ?? '—'),
    facts.length ? el('span', { class: 'muted' }, facts.join(' · ')) : null,
    el('span', { class: `badge ${r.verdict}` }, VERDICT_TEXT[r.verdict] ?? r.verdict));
  for (const f of r.findings.filter((x) => x.kind !== 'unobserved')) li.append(el('span', { class: 'round-finding' }, describeFinding(f, r.op)));
  return li;
}

function epochSection(e) {
  const commit = e.commit?.verdict;
  const secret = e.secret ? `${fieldName(e.secret.field)} ${typeof e.secret.value === 'string' && e.secret.value.length > 20 ? `${e.secret.value.slice(0, 10)}…${e.secret.value.slice(-6)}` : String(e.secret.value)}` : 'kein Seed';
  const notable = (r) => r.verdict !== 'match' && r.verdict !== 'unobserved';
  const listed = e.rounds.filter((r, i) => i < LISTED || notable(r));
  const ol = el('ol', { class: 'rounds' }, ...listed.map(roundItem));
  const section = el('section', { class: 'epoch', 'data-epoch': e.epoch, 'data-commit': commit ?? 'none' },
    el('h3', {}, `Epoche ${formatInt(e.epoch + 1)}${e.line !== null ? ` (Zeile ${formatInt(e.line)})` : ''}`),
    el('p', { class: 'epoch-head' }, el('span', { class: `badge ${commit === 'ok' ? 'match' : commit === 'mismatch' || commit === 'invalid' ? 'mismatch' : 'unobserved'}` }, COMMIT_TEXT[commit] ?? 'kein Commitment geprüft'), el('span', { class: 'muted mono' }, secret)),
    ...e.findings.map((f) => el('p', { class: 'notice bad' }, describeFinding(f))),
    ol);
  if (listed.length < e.rounds.length) {
    const more = el('button', { type: 'button', class: 'secondary small' }, `Alle ${plural(e.rounds.length, 'Runde', 'Runden')} zeigen`);
    more.addEventListener('click', () => {
      ol.replaceChildren(...e.rounds.map(roundItem));
      more.remove();
    });
    section.append(more);
  }
  return section;
}

function showLink() {
  const text = state.source ? new TextDecoder('utf-8').decode(state.source.bytes) : $('proof-text').value;
  const box = $('proof-link-box');
  if (!text.trim()) {
    box.replaceChildren(el('p', { class: 'notice info' }, 'Erst einen Nachweis einfügen.'));
    box.hidden = false;
    return;
  }
  const hash = proofFragment(text.trim());
  history.replaceState(null, '', hash);
  const url = location.href;
  box.replaceChildren(
    el('input', { type: 'text', readonly: true, class: 'mono', id: 'proof-link-url', value: url, 'aria-label': 'Link zu dieser Prüfung' }),
    copyButton('Link', url, { id: 'proof-link-copy' }),
    ...(url.length > 32000 ? [el('p', { class: 'notice info' }, `Der Link ist ${formatInt(url.length)} Zeichen lang; manche Programme kürzen so lange Links. Für große Nachweise lieber die Datei weitergeben.`)] : []),
  );
  box.hidden = false;
}
