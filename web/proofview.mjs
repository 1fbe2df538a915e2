// A whole proof on the page: pasted, dropped as a file, or opened from
// #proof=…; checked in the worker (web/worker.mjs, reference/js/proof.mjs:
// docs/proofs.md, the rules of `provably audit`), every seed and round
// listed with its verdict, and the overall verdict on
// #proof-verdict[data-verdict].
//
// One state at a time: the card shows the current input (the text in the
// box, a file, a link) and nothing else. Every new input, link, file or
// error replaces the whole result, the text box included; a check still
// running for an older input is cancelled. Typing does not check: it voids
// the verdict, and "Prüfen" (or a paste, a drop, a file, a link) checks.

import { Cancelled, cancel, run } from './checker.mjs';
import { $, copyButton, el } from './dom.mjs';
import { encodedLength, proofFragment, recognisePasted } from './fragment.mjs';
import { faces } from './games.mjs';
import { fieldName, formatInt, germanReason, plural } from './german.mjs';
import { opName } from './names.mjs';
import { statisticsSection } from './statsview.mjs';

const LANE = 'proof';
/** Rounds listed per seed before "alle zeigen" (rounds with findings are listed too, up to NOTABLE). */
const LISTED = 60;
const NOTABLE = 200;
/** A seed's own findings shown under it (the list of findings has the first 500 of all). */
const NOTICES = 20;
/** The longest text put into the box; a longer proof is named instead (a 2 MB textarea alone blocks the page). */
const BOX_MAX = 100_000;
/**
 * The largest file checked. A million seeds (27 MB) take seconds in the
 * worker; past this the worker's memory, not the page, would give out, so
 * the page says so before reading the file.
 */
export const MAX_FILE = 64 * 1000 * 1000;
/** The longest URL Chromium opens (url::kMaxURLChars, 2 MiB); a longer link is refused, so the page offers the file. */
export const MAX_URL = 2 * 1024 * 1024;
/** Links this long get a warning: chat programs and mail cut them. */
const LONG_URL = 32_000;

/** What one item of a list field is called. */
const ITEM_NAMES = { cards: 'Karte', deck: 'Karte', hole: 'Platz', board: 'Board-Karte', order: 'Eintrag', ranks: 'Rang' };

/** source: null (the box), { kind: 'file', name, bytes } or { kind: 'link', fragment }. */
const state = { gen: 0, source: null };

/** Wires the proof card: text box, file input, drop zone, buttons. */
export function setupProofCard() {
  const text = $('proof-text');
  $('proof-form').addEventListener('submit', (e) => {
    e.preventDefault();
    // An empty box after a file or a link still means that file or link.
    if (text.value.trim() === '' && state.source) check(state.source);
    else check(null, text.value);
  });
  text.addEventListener('input', (e) => {
    state.source = null;
    text.placeholder = '';
    dropHash();
    if (e.inputType === 'insertFromPaste' || e.inputType === 'insertFromDrop') check(null, text.value);
    else changed();
  });
  $('proof-file').addEventListener('change', (e) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (file) loadFile(file);
  });
  const drop = $('proof-card');
  drop.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.classList.add('dragging');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('dragging'));
  drop.addEventListener('drop', (e) => {
    // Text dropped into the box is the box's own input event; a file is the card's.
    if (e.target === text && !e.dataTransfer?.files?.length) return;
    e.preventDefault();
    drop.classList.remove('dragging');
    const file = e.dataTransfer?.files?.[0];
    if (file) loadFile(file);
    else if (e.dataTransfer?.getData('text')) loadText(e.dataTransfer.getData('text'));
  });
  $('proof-link').addEventListener('click', showLink);
}

/** The URL no longer says what the card shows: drop its fragment, so the same link opened again is a change. */
export function dropHash() {
  if (location.hash) history.replaceState(null, '', location.pathname + location.search);
  // Nor does a reload bring the link back (boot.js keeps it for one).
  window.provablyKeepLink?.(null);
}

async function loadFile(file) {
  dropHash();
  if (file.size > MAX_FILE) {
    clearResult();
    state.source = null;
    $('proof-text').value = '';
    $('proof-text').placeholder = '';
    const v = setVerdict('done', 'invalid', [
      el('p', { class: 'verdict-head' }, '✗ Die Datei ist zu groß für diese Seite'),
      el('p', { class: 'verdict-detail' }, `„${file.name}“ hat ${sizeText(file.size)}; diese Seite prüft Dateien bis ${sizeText(MAX_FILE)}. Lass dir den Nachweis in kleineren Teilen geben, oder prüfe ihn auf einem Computer mit dem Programm provably („provably audit“).`),
    ]);
    v.dataset.file = 'too-big';
    v.scrollIntoView({ block: 'start' });
    return;
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const source = { kind: 'file', name: file.name, bytes };
  const text = $('proof-text');
  const small = bytes.length <= BOX_MAX;
  text.value = small ? new TextDecoder('utf-8').decode(bytes) : '';
  text.placeholder = small ? '' : `Datei „${file.name}“ geladen (${sizeText(bytes.length)}). Zum Prüfen einer anderen: einfügen, hierher ziehen oder „Datei wählen …“.`;
  check(source);
}

/** Puts `text` into the proof card, checks it and brings the card into view. */
export function loadText(text) {
  $('proof-text').value = text;
  $('proof-text').placeholder = '';
  return check(null, text);
}

/** Opens the value of a #proof= fragment: decoded and checked in the worker. */
export function loadFragment(fragment) {
  $('proof-text').value = '';
  $('proof-text').placeholder = `Nachweis aus dem Link (${formatInt(fragment.length)} Zeichen).`;
  return check({ kind: 'link', fragment });
}

const sizeText = (n) => (n >= 1e6 ? `${String(Math.round(n / 1e5) / 10).replace('.', ',')} MB` : n >= 1e3 ? `${formatInt(Math.round(n / 1e3))} kB` : plural(n, 'Zeichen', 'Zeichen'));

function setVerdict(stateName, verdict, nodes) {
  const v = $('proof-verdict');
  v.dataset.state = stateName;
  if (verdict) v.dataset.verdict = verdict;
  else delete v.dataset.verdict;
  for (const k of ['firstEpoch', 'firstRound', 'firstIndex']) delete v.dataset[k];
  v.replaceChildren(...nodes.filter(Boolean));
  return v;
}

/** Clears the card's result; the verdict says `message` (or nothing). */
function clearResult(message) {
  cancel(LANE);
  state.gen++;
  setVerdict('idle', null, message ? [el('p', { class: 'verdict-detail' }, message)] : []);
  $('proof-result').replaceChildren();
  $('proof-link-box').hidden = true;
}

function changed() {
  clearResult($('proof-text').value.trim() ? 'Geändert – zum Prüfen „Prüfen“ drücken.' : '');
}

function busy(gen, done, total) {
  if (gen !== state.gen) return;
  const cancelButton = el('button', { type: 'button', class: 'secondary small', id: 'proof-cancel' }, 'Abbrechen');
  cancelButton.addEventListener('click', () => {
    clearResult();
    setVerdict('cancelled', null, [el('p', { class: 'verdict-head' }, 'Abgebrochen'), el('p', { class: 'verdict-detail' }, 'Nichts geprüft. „Prüfen“ startet von vorn.')]);
  });
  const where = total ? `Runde ${formatInt(Math.min(done, total))} von ${formatInt(total)}` : 'Liest den Nachweis …';
  const bar = total ? el('progress', { id: 'proof-progress', max: String(total), value: String(Math.min(done, total)), 'aria-label': 'Fortschritt' }) : null;
  setVerdict('busy', null, [
    el('p', { class: 'verdict-head busy' }, el('span', { class: 'spinner', 'aria-hidden': 'true' }), `Prüft … ${where}`),
    bar, el('div', { class: 'actions' }, cancelButton),
  ]);
}

/**
 * Checks the current input: `source` (a file or a link) or the box's `text`.
 * Everything shown before belongs to another input and goes at once.
 */
async function check(source, text) {
  clearResult();
  state.source = source;
  const gen = state.gen;
  if (!source && text.trim() === '') return;
  if (!source) {
    const pasted = recognisePasted(text);
    if (pasted?.kind === 'link') {
      // A round's link: its game opens it, and the card says so (roundLinkOpened).
      return openLink(pasted.hash);
    }
  }
  $('proof-card').scrollIntoView({ block: 'start' });
  busy(gen, 0, 0);
  const job = source?.kind === 'file' ? { bytes: source.bytes } : source?.kind === 'link' ? { fragment: source.fragment, keepText: BOX_MAX } : { text };
  let result;
  const parts = [];
  try {
    result = await run(LANE, 'proof', job, { onProgress: (done, total) => busy(gen, done, total), onPart: (p) => parts.push(p) });
  } catch (e) {
    if (e instanceof Cancelled || gen !== state.gen) return;
    setVerdict('done', 'invalid', [el('p', { class: 'verdict-head' }, '✗ Prüfung fehlgeschlagen'), el('p', { class: 'verdict-detail' }, `Diese Seite konnte den Nachweis nicht prüfen (${e.message.split('\n')[0]}). Bitte melden.`)]);
    return;
  }
  if (gen !== state.gen) return;
  for (const p of parts) for (const r of p.rounds) result.epochs[p.epoch].rounds.push(r);
  if (result.unreadable) return linkProblem(source.fragment, { cut: 'cut', utf8: 'damaged' }[result.unreadable] ?? null);
  if (source?.kind === 'link' && cutOff(result.report, result.length)) return linkProblem(source.fragment, 'cut');
  if (source?.kind === 'link' && result.text !== null) {
    $('proof-text').value = result.text;
    $('proof-text').placeholder = '';
  }
  render(result, source);
}

/** The hook for a link pasted into the box: ui.mjs opens it like any link. */
let openLink = () => {};
export const setLinkOpener = (f) => (openLink = f);

/** A text that breaks off at its end: what a link cut by a mail or chat program decodes to. */
function cutOff(report, length) {
  return report.verdict === 'invalid' && report.findings.some((f) => {
    const m = /^not JSON: (.*?)(?: at character (\d+))?$/s.exec(f.reason ?? '');
    return m && (/unexpected end|unterminated/.test(m[1]) || Number(m[2]) >= length - 1);
  });
}

/**
 * A link that cannot be opened: `why` 'cut' (it breaks off, as a mail or
 * chat program cuts long links), 'damaged' (whole, but characters in it are
 * broken: no program that cuts links does that), 'none' (a fragment that is
 * neither a proof nor a round), 'unknown' (a game this page does not know;
 * `detail` names it), or null: a #proof= `fragment` that does not decode,
 * cut if it holds only link characters, else unreadable.
 */
export function linkProblem(fragment, why, detail) {
  clearResult();
  $('proof-text').value = '';
  $('proof-text').placeholder = '';
  const kind = why ?? (/^[A-Za-z0-9_-]*$/.test(fragment ?? '') ? 'cut' : 'unreadable');
  const texts = {
    cut: ['✗ Link unvollständig', 'Der Link bricht mitten im Nachweis ab: er wurde beim Kopieren oder von einem Programm gekürzt. Kopiere den ganzen Link noch einmal, oder lass dir den Nachweis als Datei geben.'],
    unreadable: ['✗ Der Link ist nicht lesbar', 'Hinter „#proof=“ steht etwas, das kein Link dieser Seite erzeugt. Kopiere den Link noch einmal vollständig, oder lass dir den Nachweis als Datei geben.'],
    damaged: ['✗ Der Link ist beschädigt', detail ?? 'Der Link ist vollständig, aber Zeichen darin sind verfälscht: so kürzt kein Mail- oder Chatprogramm. Lass dir den Link noch einmal schicken, oder den Nachweis als Datei.'],
    none: ['✗ Dieser Link enthält keinen lesbaren Nachweis', 'Hinter dem „#“ im Link steht weder ein Nachweis noch eine Runde, die diese Seite kennt. Kopiere den Link noch einmal vollständig, oder lass dir den Nachweis als Datei geben.'],
    unknown: ['✗ Ein Spiel, das diese Seite nicht kennt', detail],
  }[kind];
  const v = setVerdict('done', 'invalid', [el('p', { class: 'verdict-head' }, texts[0]), el('p', { class: 'verdict-detail' }, texts[1])]);
  v.dataset.link = kind;
  $('proof-card').scrollIntoView({ block: 'start' });
}

/** A round's link was opened: the card lets go of the proof it showed and says where the round is. */
export function roundLinkOpened() {
  clearResult('Der Link gehört zu einer einzelnen Runde: sie ist unter „Eine Runde nachrechnen“ geöffnet.');
  state.source = null;
  $('proof-text').value = '';
  $('proof-text').placeholder = '';
}

// ---------------------------------------------------------------------------

/** "Seed 2, Runde 5, Zeile 7": where a finding is, counted from 1. */
const place = (f) => [
  f.epoch !== null ? `Seed ${formatInt(f.epoch + 1)}` : 'Nachweis',
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
  if (typeof v === 'bigint') return formatInt(v);
  if (typeof v === 'object') return JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? String(x) : x));
  return String(v);
}

/** The client seed a gap finding names: its reason quotes it as JSON (reference/js/proof.mjs, src/proof/bets.rs). */
function gapClient(reason) {
  const m = /client seed ("(?:[^"\\]|\\.)*") (?:is|are) not in the history/.exec(reason ?? '');
  if (!m) return null;
  try {
    return JSON.parse(m[1]);
  } catch {
    return null;
  }
}

/** A gap in a bet history: missing nonces of one client seed, or a history too scattered to follow; or games missing from a crash history. */
function describeGap(f) {
  if (f.field === 'game' && Array.isArray(f.observed)) {
    const [first, last] = f.observed;
    return first === last
      ? `Spiel ${formatInt(first)} fehlt im Verlauf: es lässt sich nicht prüfen.`
      : `Spiele ${formatInt(first)} … ${formatInt(last)} fehlen im Verlauf: sie lassen sich nicht prüfen.`;
  }
  if (!Array.isArray(f.observed)) {
    return 'Diese Wett-Historie ist zu zerstückelt, um sie weiter zu verfolgen: ob darin Wetten fehlen oder doppelt vorkommen, prüft diese Seite für diesen Seed nicht.';
  }
  const [first, last] = f.observed;
  const client = gapClient(f.reason);
  const whose = client === null ? '' : ` (Client-Seed „${client}“)`;
  return first === last
    ? `Nonce ${formatInt(first)}${whose} fehlt in der Historie: diese Wette lässt sich nicht prüfen.`
    : `Nonces ${formatInt(first)} … ${formatInt(last)}${whose} fehlen in der Historie: diese Wetten lassen sich nicht prüfen.`;
}

/** One finding in German. */
export function describeFinding(f, op) {
  switch (f.kind) {
    case 'mismatch': {
      // A nonce bet twice: nothing is derived for it, the round's nonce is what was seen.
      if (f.field === 'nonce' && f.derived === null && f.index === null) {
        return `Nonce ${formatInt(f.observed)} dieses Seed-Paars wurde schon in einer früheren Runde gesetzt: ein Seed-Paar vergibt jede Nonce nur an eine Wette.`;
      }
      // A crash history's game: its hash off the chain, or shown twice (docs/proofs.md, "Crash histories").
      if (f.field === 'hash' && f.derived === null) {
        const links = /in (\d+) links/.exec(f.reason ?? '')?.[1];
        return `Dieser Hash führt nicht${links ? ` in ${formatInt(links)} Schritten` : ''} zum Endhash der Kette: das Spiel gehört nicht zur vorher festgelegten Kette.`;
      }
      if (f.field === 'game' && f.derived === null) {
        return `Spiel ${formatInt(f.observed)} steht schon weiter oben im Verlauf: eine Kette gibt jedem Spiel nur einen Hash.`;
      }
      const what = f.index !== null ? `${ITEM_NAMES[f.field] ?? 'Eintrag'} ${formatInt(f.index + 1)}` : fieldName(f.field);
      const more = f.differences > 1 ? ` – ${plural(f.differences, 'Abweichung', 'Abweichungen')} in diesem Feld` : '';
      return `${what}: berechnet ${show(op, f.field, f.derived)}, im Nachweis ${show(op, f.field, f.observed)}${more}.`;
    }
    case 'commit':
      return 'Das Commitment passt nicht: SHA-256 des offengelegten Seeds ist nicht der Wert, der vorher gezeigt wurde.';
    case 'skipped':
      return `Übersprungen: ${f.reason === 'telegram' ? 'ein Telegram-Würfel' : `„${f.reason}“`} kommt nicht aus dem Seed.`;
    case 'unobserved':
      // A crash game shown without its hash: its point was seen, nothing derives it.
      if (f.derived === null && f.observed !== null) return 'Ohne Hash: der Crash-Punkt lässt sich nicht nachrechnen; er zählt nur für die Statistik.';
      return 'Nichts Gesehenes eingetragen: berechnet, aber nicht verglichen.';
    case 'gap':
      return describeGap(f);
    default:
      return germanReason(f.field, f.reason ?? '');
  }
}

/** An op the page does not know, named by the round that holds it. */
const unknownOp = (report) => report.findings.find((f) => f.kind === 'invalid' && f.field === 'op' && /is not an op a round can hold/.test(f.reason ?? ''));
/** Nothing in the text was read as JSON: not a proof at all ("hallo welt"). */
const notAProof = (report) => report.rounds === 0 && report.findings.length > 0 && report.findings.every((f) => f.kind === 'invalid' && /^not JSON/.test(f.reason ?? ''));

/** "; 2 Lücken in der Wett-Historie" when bets are missing (they change no verdict, but a player should know). */
const gapsText = (report) => (report.gaps ? `; ${plural(report.gaps, 'Lücke', 'Lücken')} in der Wett-Historie` : '');

/**
 * " – aber es fehlen 2 Wetten (Nonces 2 … 3)" when a bet history has gaps:
 * a match must not read as if every bet had been checked. Counted from the
 * gap findings the page has (the first 1,000 findings).
 */
function missingBets(report) {
  if (!report.gaps) return '';
  const gaps = report.findings.filter((f) => f.kind === 'gap');
  const ranges = gaps.filter((f) => Array.isArray(f.observed)).map((f) => f.observed.map(BigInt));
  const counted = ranges.length === gaps.length && gaps.length === report.gaps;
  const n = ranges.reduce((sum, [a, b]) => sum + b - a + 1n, 0n);
  const named = ranges.slice(0, 3).map(([a, b]) => (a === b ? formatInt(a) : `${formatInt(a)} … ${formatInt(b)}`)).join(', ');
  // A crash history misses games, a bet history bets.
  const games = gaps.every((f) => f.field === 'game');
  const [one, many, key, keys] = games ? ['Spiel', 'Spiele', 'Spiel', 'Spiele'] : ['Wette', 'Wetten', 'Nonce', 'Nonces'];
  const nonces = ranges.length ? ` (${n === 1n && counted ? key : keys} ${named}${ranges.length > 3 || !counted ? ' …' : ''})` : '';
  if (!counted) return ` – aber es fehlen ${many}${nonces}`;
  return n === 1n ? ` – aber es fehlt 1 ${one}${nonces}` : ` – aber es fehlen ${formatInt(n)} ${many}${nonces}`;
}

/** A bet history's seeds are seed pairs to a player (server and client seed, Stake's „Seed-Paar“). */
const seedWord = (bets) => (bets ? ['Seed-Paar', 'Seed-Paare'] : ['Seed', 'Seeds']);

/** [headline, counts line] of a report; `bets`: the proof is a bet history. */
function headline(report, bets) {
  const seeds = plural(report.epochs, ...seedWord(bets));
  const rounds = plural(report.rounds, 'Runde', 'Runden');
  const commits = report.commitOk + report.commitMismatch;
  switch (report.verdict) {
    case 'match':
      return [`✓ Der Nachweis stimmt${missingBets(report)}`, `${seeds}, ${rounds}: ${plural(report.match, 'Runde stimmt', 'Runden stimmen')}${report.commitOk ? `, ${plural(report.commitOk, 'Commitment passt', 'Commitments passen')}` : ''}${report.skipped ? `, ${plural(report.skipped, 'Runde', 'Runden')} übersprungen` : ''}${gapsText(report)}.`];
    case 'mismatch': {
      const commit = report.commitMismatch
        ? `${plural(report.commitMismatch, 'Commitment passt', 'Commitments passen')} nicht`
        : commits ? (commits === 1 ? 'das Commitment passt' : `alle ${formatInt(commits)} Commitments passen`) : 'ohne Commitment';
      if (report.commitMismatch && !report.mismatch) return ['✗ Das Commitment passt nicht', `${seeds}, ${rounds}: ${commit}; die Runden folgen aus dem offengelegten Seed, aber der war vorher nicht festgelegt.`];
      return [report.commitMismatch ? '✗ Commitment und Runden passen nicht' : `✗ Der Nachweis stimmt NICHT – ${commits ? 'Commitment passt, ' : ''}Runden weichen ab`,
        `${seeds}, ${rounds}: ${commit}, ${plural(report.mismatch, 'Runde weicht', 'Runden weichen')} ab${gapsText(report)}.`];
    }
    case 'invalid': {
      if (notAProof(report)) return ['✗ Das ist kein Nachweis', 'Hier steht nichts, was ein Betreiber als Nachweis ausgibt: ein Nachweis nennt die Seeds und jede Runde. Kopiere ihn noch einmal vollständig, oder öffne die Datei mit „Datei wählen …“.'];
      const op = unknownOp(report);
      if (op) return ['✗ Ein Spiel, das diese Seite nicht kennt', `${place(op)} gehört zu „${/^"(.*)"/.exec(op.reason)?.[1] ?? '?'}“. Das kann diese Seite nicht nachrechnen; frag den Betreiber, womit sich dieses Spiel prüfen lässt.`];
      return ['✗ Der Nachweis ist fehlerhaft', `${plural(report.findings.filter((f) => f.kind === 'invalid').length, 'Stelle ist', 'Stellen sind')} nicht lesbar oder ungültig; ${seeds}, ${rounds}.`];
    }
    default:
      return ['Nichts zu vergleichen', `${seeds}, ${rounds}: weder ein Commitment noch etwas Gesehenes, das sich vergleichen ließe${gapsText(report)}.`];
  }
}

/** The two short lines beside the verdict: what it proves, and what it does not. */
function meaning(report) {
  const noCommit = report.commitOk + report.commitMismatch === 0;
  switch (report.verdict) {
    case 'match':
      return [noCommit
        ? 'Das beweist: Jede verglichene Runde folgt aus dem offengelegten Seed.'
        : 'Das beweist: Jede verglichene Runde folgt aus dem Seed, auf den sich der Betreiber vorher festgelegt hatte.',
      noCommit
        ? 'Das beweist nicht: dass der Seed vorher feststand (ohne Commitment), dass er zufällig war, oder etwas über Runden, die nicht im Nachweis stehen.'
        : 'Das beweist nicht: dass der Seed zufällig gezogen wurde, und nichts über Runden, die nicht im Nachweis stehen.'];
    case 'mismatch':
      return ['Das heißt: Was im Nachweis steht, folgt nicht aus dem Seed, auf den sich der Betreiber festgelegt hatte – oder es wurde falsch abgeschrieben.',
        'Das heißt nicht sicher, dass betrogen wurde: ein einziger falsch kopierter Wert ergibt dasselbe Bild.'];
    default:
      return null;
  }
}

/**
 * "Was jetzt?" under a mismatch: keep the evidence, check the copy, then
 * whom to ask. `keep` is the sentence that says what to keep, `what` what to send.
 */
export function whatNow({ id, keep, what }) {
  return el('div', { class: 'what-now', id: `${id}-what-now` },
    el('p', { class: 'verdict-detail' }, el('strong', {}, 'Was jetzt? '),
      `${keep} Prüfe, ob alles vollständig kopiert ist. Bleibt die Abweichung, schick ${what} an den Kundendienst des Betreibers; antwortet er nicht, an die Aufsicht, die er in seinem Impressum nennt. `,
      el('a', { href: 'spieler.html#was-jetzt' }, 'Anleitung für Spieler')));
}

function firstOf(report) {
  const f = report.findings;
  if (report.verdict === 'invalid') return f.find((x) => x.kind === 'invalid');
  if (report.verdict !== 'mismatch') return null;
  // A failed commitment is the first thing to know: every round of its seed is then in doubt.
  return f.find((x) => x.kind === 'commit') ?? f.find((x) => x.kind === 'mismatch');
}

function render(view, source) {
  const { report, epochs } = view;
  const [head, detail] = headline(report, view.bets);
  const first = firstOf(report);
  const opOf = (f) => f.op ?? epochs[f.epoch]?.rounds.find((r) => r.round === f.round)?.op;
  const lines = meaning(report);
  const what = source?.kind === 'file' ? 'die Datei' : source?.kind === 'link' ? 'den Link' : 'den Nachweis';
  const kept = { id: 'proof', keep: `Bewahre ${what} auf, so wie du ${source?.kind === 'file' ? 'sie' : 'ihn'} bekommen hast, und lass dir keinen neuen geben.`, what };
  // 'drawing' until the rest below is drawn too: a test or a reader waiting for 'done' finds it all.
  const v = setVerdict('drawing', report.verdict, [
    el('p', { class: 'verdict-head' }, head),
    el('p', { class: 'verdict-detail' }, detail),
    first && !notAProof(report) ? el('p', { class: 'verdict-detail', id: 'proof-first' }, `${first.kind === 'invalid' ? 'Erster Fehler' : 'Erste Abweichung'}: ${place(first)} – ${describeFinding(first, opOf(first))}`) : null,
    lines ? el('p', { class: 'verdict-means', id: 'proof-proves' }, lines[0]) : null,
    lines ? el('p', { class: 'verdict-means', id: 'proof-not' }, lines[1]) : null,
    report.verdict === 'mismatch' ? whatNow(kept) : null,
  ]);
  if (first) {
    for (const k of ['epoch', 'round', 'index']) if (first[k] !== null) v.dataset[`first${k[0].toUpperCase()}${k.slice(1)}`] = String(first[k]);
  }
  // The verdict is drawn, laid out and scrolled to in a task of its own, the
  // rest from the next one: verdict, statistics and the first seeds in one
  // task were 100 ms at a 4× slower CPU.
  v.scrollIntoView({ block: 'start' });
  const gen = state.gen;
  setTimeout(() => {
    if (gen !== state.gen) return;
    renderResult(view, source);
    v.dataset.state = 'done';
  }, 0);
}

/** Everything under the verdict: where the proof came from, the counts, the statistics, the findings and the seeds (in pieces). */
function renderResult(view, source) {
  const { report, epochs } = view;
  const opOf = (f) => f.op ?? epochs[f.epoch]?.rounds.find((r) => r.round === f.round)?.op;
  const format = view.format === 'document' ? 'Nachweis-Dokument' : 'Nachweis mit einer Zeile je Seed';
  const from = source?.kind === 'file' ? ` aus der Datei „${source.name}“` : source?.kind === 'link' ? ' aus dem Link' : '';
  const total = view.epochsTotal ?? epochs.length;
  const result = $('proof-result');
  result.replaceChildren(...[
    el('p', { class: 'muted small', id: 'proof-source' }, `${format}${view.title ? `: „${view.title}“` : ''}${from}.`),
    counts(report, view.bets),
    statisticsSection(view.statistics),
    findingsList(report, opOf),
    total > epochs.length ? el('p', { class: 'muted small', id: 'proof-epochs-shown' }, `Aufgelistet ${epochs.length === 1 ? 'ist der erste' : `sind die ersten ${formatInt(epochs.length)}`} von ${plural(total, ...seedWord(view.bets))}; geprüft und gezählt sind alle.`) : null,
  ].filter(Boolean));
  appendInPieces(result, epochs, epochSection, SECTIONS_AT_ONCE, state.gen);
}

/** Seed sections drawn per task: hundreds at once were one long task. */
const SECTIONS_AT_ONCE = 20;

/** Appends `make(item)` for each item to `parent`, `n` per task, until the card shows another input. */
function appendInPieces(parent, items, make, n, gen) {
  let at = 0;
  const step = () => {
    if (gen !== state.gen) return;
    const nodes = [];
    for (const item of items.slice(at, at + n)) nodes.push(make(item));
    parent.append(...nodes);
    at += n;
    if (at < items.length) setTimeout(step, 0);
  };
  step();
}

function counts(r, betsKept) {
  const row = (label, n) => [el('dt', {}, label), el('dd', {}, formatInt(n))];
  // Only a bet history (a scheme with bets, as its ops declare) can have gaps: elsewhere the row would always say 0.
  const bets = r.gaps > 0 || betsKept;
  return el('dl', { class: 'kv counts', id: 'proof-counts' },
    ...row(seedWord(betsKept)[1], r.epochs), ...row('Runden', r.rounds), ...row('stimmen', r.match), ...row('weichen ab', r.mismatch),
    ...row('übersprungen', r.skipped), ...row('ungültig', r.invalid + r.invalidOther), ...row('nicht verglichen', r.unobserved),
    ...row('Commitments passen', r.commitOk), ...row('Commitments passen nicht', r.commitMismatch), ...row('ohne Commitment', r.commitAbsent),
    ...(bets ? row('Lücken in der Wett-Historie', r.gaps ?? 0) : []));
}

function findingsList(report, opOf) {
  const shown = report.findings.filter((f) => f.kind !== 'unobserved').slice(0, 500);
  if (!shown.length) return null;
  const total = report.findingsTotal - report.unobserved;
  return el('div', {},
    el('h3', {}, `Befunde (${formatInt(total)})`),
    el('ol', { class: 'findings', id: 'proof-findings' }, ...shown.map((f) => el('li', {
      class: f.kind, 'data-kind': f.kind, 'data-epoch': f.epoch ?? '', 'data-round': f.round ?? '', 'data-field': f.field ?? '', 'data-index': f.index ?? '',
    }, el('strong', {}, `${place(f)}: `), describeFinding(f, opOf(f))))),
    total > shown.length ? el('p', { class: 'muted small' }, `… und ${plural(total - shown.length, 'weiterer Befund', 'weitere Befunde')}.`) : null);
}

const VERDICT_TEXT = { match: '✓ stimmt', mismatch: '✗ weicht ab', skipped: '↷ übersprungen', invalid: '✗ ungültig', unobserved: '· nicht verglichen' };
const COMMIT_TEXT = { ok: '✓ Commitment passt', mismatch: '✗ Commitment passt nicht', absent: 'ohne Commitment', invalid: '✗ Commitment ungültig' };

function roundItem(r) {
  const li = el('li', { 'data-round': r.round, 'data-verdict': r.verdict, class: `round ${r.verdict}` },
    el('span', { class: 'round-no' }, `Runde ${formatInt(r.round + 1)}`),
    el('span', { class: 'round-op' }, r.op ? opName(r.op) : '—'),
    r.facts ? el('span', { class: 'muted' }, r.facts) : null,
    el('span', { class: `badge ${r.verdict}` }, VERDICT_TEXT[r.verdict] ?? r.verdict));
  if (r.shown) li.append(el('span', { class: 'round-shown', 'data-shown': 'yes' }, r.shown));
  for (const f of r.findings.filter((x) => x.kind !== 'unobserved')) li.append(el('span', { class: 'round-finding' }, describeFinding(f, r.op)));
  return li;
}

/** Appends `rounds` to `ol` a few hundred at a time, so even 10,000 never block the page. */
function appendRounds(ol, rounds) {
  let at = 0;
  const step = () => {
    ol.append(...rounds.slice(at, at + 300).map(roundItem));
    at += 300;
    if (at < rounds.length) setTimeout(step, 0);
  };
  step();
}

function epochSection(e) {
  const commit = e.commit?.verdict;
  const secret = e.chain ? `Kette bis zum Endhash ${e.chain}` : e.secret ? `${fieldName(e.secret.field)} ${e.secret.text}` : 'kein Seed';
  const notable = (r) => r.verdict !== 'match' && r.verdict !== 'unobserved';
  let extra = 0;
  const listed = e.rounds.filter((r, i) => i < LISTED || (notable(r) && extra++ < NOTABLE));
  const ol = el('ol', { class: 'rounds' }, ...listed.map(roundItem));
  const section = el('section', { class: 'epoch', 'data-epoch': e.epoch, 'data-commit': commit ?? 'none' },
    el('h3', {}, `Seed ${formatInt(e.epoch + 1)}${e.line !== null ? ` (Zeile ${formatInt(e.line)})` : ''}`),
    el('p', { class: 'epoch-head' }, el('span', { class: `badge ${commit === 'ok' ? 'match' : commit === 'mismatch' || commit === 'invalid' ? 'mismatch' : 'unobserved'}` }, COMMIT_TEXT[commit] ?? (e.chain ? 'Crash-Verlauf: jeder Hash gegen den Endhash geprüft' : 'kein Commitment geprüft')), el('span', { class: 'muted mono' }, secret)),
    // A gap is a warning, not a fault: bets the history leaves out, no verdict changed.
    ...e.findings.slice(0, NOTICES).map((f) => el('p', { class: `notice ${f.kind === 'gap' ? 'warn' : 'bad'}`, 'data-kind': f.kind }, describeFinding(f))),
    e.findings.length > NOTICES ? el('p', { class: 'muted small' }, `… und ${plural(e.findings.length - NOTICES, 'weiterer Befund', 'weitere Befunde')} zu diesem Seed.`) : null,
    ol);
  const total = e.roundsTotal ?? e.rounds.length;
  if (total > e.rounds.length) {
    section.append(el('p', { class: 'muted small', 'data-unlisted': total - e.rounds.length }, `${e.rounds.length ? `Aufgelistet sind die ersten ${formatInt(e.rounds.length)}` : 'Keine aufgelistet'} von ${plural(total, 'Runde', 'Runden')}; geprüft und gezählt sind alle.`));
  }
  if (listed.length < e.rounds.length) {
    const more = el('button', { type: 'button', class: 'secondary small' }, `Alle ${e.rounds.length < total ? 'aufgelisteten ' : ''}${plural(e.rounds.length, 'Runde', 'Runden')} zeigen`);
    more.addEventListener('click', () => {
      ol.replaceChildren();
      appendRounds(ol, e.rounds);
      more.remove();
    });
    section.append(more);
  }
  return section;
}

/** The proof's text for a link: the file's, the link's or the box's. */
function currentText() {
  if (state.source?.kind === 'file') return new TextDecoder('utf-8').decode(state.source.bytes);
  if (state.source?.kind === 'link' && !$('proof-text').value) return null;
  return $('proof-text').value;
}

/** A download of the proof as a file: what to pass on when a link would be too long. */
function fileButton(text) {
  const name = state.source?.kind === 'file' ? state.source.name : 'nachweis.json';
  const a = el('a', { class: 'button primary', id: 'proof-download', download: name, href: URL.createObjectURL(new Blob([text], { type: 'application/json' })) }, `Als Datei speichern („${name}“)`);
  return a;
}

function showLink() {
  const box = $('proof-link-box');
  box.hidden = false;
  if (state.source?.kind === 'link') {
    // The address bar no longer holds it (boot.js says why): the link is given back as it came.
    const url = `${location.href.replace(/#.*$/, '')}#proof=${state.source.fragment}`;
    box.replaceChildren(
      el('p', { class: 'notice info' }, 'Das ist der Link, mit dem du die Seite geöffnet hast:'),
      el('input', { type: 'text', readonly: true, class: 'mono', id: 'proof-link-url', value: url, 'aria-label': 'Link zu dieser Prüfung' }),
      copyButton('Link', url, { id: 'proof-link-copy' }));
    return;
  }
  const text = (currentText() ?? '').trim();
  if (!text) {
    box.replaceChildren(el('p', { class: 'notice info' }, 'Erst einen Nachweis einfügen.'));
    return;
  }
  const base = location.href.replace(/#.*$/, '');
  const length = base.length + '#proof='.length + encodedLength(text);
  if (length > MAX_URL) {
    box.dataset.too = 'long';
    box.replaceChildren(
      el('p', { class: 'notice warn', id: 'proof-link-too-long' }, `Dieser Nachweis ist zu groß für einen Link: der Link hätte ${formatInt(length)} Zeichen, Browser öffnen höchstens etwa 2 Millionen. Gib ihn als Datei weiter – wer sie bekommt, öffnet sie hier mit „Datei wählen …“.`),
      el('div', { class: 'actions' }, fileButton(text)));
    return;
  }
  delete box.dataset.too;
  const hash = proofFragment(text);
  history.replaceState(null, '', hash);
  const url = location.href;
  box.replaceChildren(
    el('input', { type: 'text', readonly: true, class: 'mono', id: 'proof-link-url', value: url, 'aria-label': 'Link zu dieser Prüfung' }),
    copyButton('Link', url, { id: 'proof-link-copy' }),
    ...(url.length > LONG_URL ? [el('p', { class: 'notice info' }, `Der Link ist ${formatInt(url.length)} Zeichen lang; Chat- und Mailprogramme kürzen so lange Links oft. Sicherer ist die Datei:`), el('div', { class: 'actions' }, fileButton(text))] : []),
  );
}
