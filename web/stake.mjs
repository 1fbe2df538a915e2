// Stake's games on the page, the stake scheme's own views (its `views`,
// views.mjs): two panels in the shape of games.mjs's GAMES (a round becomes
// a proof of one epoch, proof.mjs checks it), and how each result is drawn
// the way Stake draws it: the dice number, the limbo multiplier, the plinko
// board with the ball's way, the 5×5 mines field, the keno board 1 … 40, the
// roulette pocket, the wheel, cards, gems. The games and their names are the
// stake ops' declarations (names.mjs).

import { STAKE, parseCard } from './js/cards.mjs';
import { PLINKO, SEGMENTS, WHEEL } from './js/stake.mjs';
import { el } from './dom.mjs';
import { InputError, tokens } from './input.mjs';
import { formatInt, germanError, plural } from './german.mjs';
import { opsOfView, shortName } from './names.mjs';
import { GEM_NAMES, WINNER_NAMES, baccaratTotal, blackjackDeal, blackjackWords, pocketColour, pocketText, stakeCard, stakeCells, stakeShown, tileName, times, twoDecimals } from './stakeview.mjs';

const refuse = (message, field) => {
  throw new InputError(message, field);
};
const UNKNOWN = new Set(['?', '–', '-', '_', '…']);

/** The games of the Stake panel (the ops that declare it as their view), by Stake's names. */
const GAME_NAMES = opsOfView('stake').map((op) => [op, shortName(op)]);
const GAME_LIST = `${GAME_NAMES.slice(0, -1).map(([, n]) => n).join(', ')} und ${GAME_NAMES.at(-1)?.[1]}`;
const RISKS = [['low', 'Niedrig'], ['medium', 'Mittel'], ['high', 'Hoch']];

/** "470,07", "×470,07", "470.07x" → 470.07; null when nothing was typed. */
function readDecimal(text, field, label) {
  const t = (text ?? '').trim().replace(/^[×x]\s*/iu, '').replace(/\s*[×x]$/iu, '');
  if (t === '' || UNKNOWN.has(t)) return null;
  if (!/^\d+(?:[.,]\d+)?$/.test(t)) refuse(`„${text.trim()}“ ist keine Zahl für „${label}“. Beispiel: „48,35“ oder „×2,50“.`, field);
  return Number(t.replace(',', '.'));
}

/** Whole numbers from `lo` to `hi` typed with spaces or commas, as the player counts them. */
function readNumbers(text, field, lo, hi, what) {
  const seen = tokens(text).filter((t) => !UNKNOWN.has(t));
  const out = seen.map((t) => {
    if (!/^\d+$/.test(t) || Number(t) < lo || Number(t) > hi) refuse(`„${t}“ ist ${what}: eine Zahl von ${lo} bis ${hi}.`, field);
    return Number(t);
  });
  if (new Set(out).size !== out.length) refuse(`Eine Zahl steht zweimal in „${field === 'hits' ? 'Treffer' : 'Minen'}“.`, field);
  return out;
}

const stakeCardOf = (field) => (t) => {
  if (UNKNOWN.has(t)) return null;
  const c = parseCard(STAKE, t);
  if (c === null) refuse(`„${t}“ ist keine Karte. Schreibweise z. B. „A♠“, „10♦“ oder „KH“; „?“ für eine Karte, die du nicht gesehen hast.`, field);
  return c;
};

const GEM_WORDS = new Map([
  ...['grün', 'gruen', 'green', 'g'].map((w) => [w, 'green']), ...['lila', 'violett', 'purple', 'p'].map((w) => [w, 'purple']),
  ...['gelb', 'yellow', 'y'].map((w) => [w, 'yellow']), ...['rot', 'red', 'r'].map((w) => [w, 'red']),
  ...['türkis', 'tuerkis', 'cyan', 'hellblau', 'c'].map((w) => [w, 'cyan']), ...['orange', 'o'].map((w) => [w, 'orange']),
  ...['blau', 'blue', 'b'].map((w) => [w, 'blue']),
]);

/**
 * A set the player saw (keno hits, mines) in the op's draw order: a number
 * the derived draw has sits where the draw has it, the others fill the
 * remaining places, so each of those is one difference.
 */
function inDrawOrder(seen, derived) {
  const set = new Set(seen);
  const out = derived.map((x) => (set.has(x) ? x : null));
  const extra = seen.filter((x) => !derived.includes(x));
  for (let i = 0; i < out.length && extra.length; i++) if (out[i] === null) out[i] = extra.shift();
  return [...out, ...extra];
}

/** What the player saw, in the op's terms (undefined when nothing was typed). */
async function observedOf(v, request, ctx) {
  const op = v.op;
  const one = (name, value) => (value === null ? undefined : { [name]: value });
  switch (op) {
    case 'stake.dice':
      return one('roll', readDecimal(v.roll, 'roll', 'Gezeigte Zahl'));
    case 'stake.limbo':
    case 'stake.wheel':
      return one('multiplier', readDecimal(v.multiplier, 'multiplier', 'Multiplikator'));
    case 'stake.plinko': {
      const seen = {};
      const path = tokens((v.path ?? '').replace(/([lr])(?=[lr])/giu, '$1 ')).map((t) => {
        if (/^(l|links|left)$/iu.test(t)) return 0;
        if (/^(r|rechts|right)$/iu.test(t)) return 1;
        return refuse(`„${t}“ ist keine Richtung: „L“ für links, „R“ für rechts, z. B. „L R R L“.`, 'path');
      });
      if (path.length) seen.path = path;
      const m = readDecimal(v.multiplier, 'multiplier', 'Multiplikator');
      if (m !== null) seen.multiplier = m;
      return Object.keys(seen).length ? seen : undefined;
    }
    case 'stake.roulette': {
      const t = (v.pocket ?? '').trim();
      if (t === '') return undefined;
      const n = /^\d+/.exec(t);
      if (!n || Number(n[0]) > 36) refuse(`„${t}“ ist kein Feld des Roulettes: 0 bis 36.`, 'pocket');
      return { pocket: Number(n[0]) };
    }
    case 'stake.keno':
    case 'stake.mines': {
      const keno = op === 'stake.keno';
      const field = keno ? 'hits' : 'tiles';
      const seen = keno ? readNumbers(v.hits, field, 1, 40, 'kein Feld des Keno-Bretts') : readNumbers(v.tiles, field, 1, 25, 'kein Feld des Minenfelds').map((x) => x - 1);
      if (!seen.length) return undefined;
      const derived = await ctx.execute({ ...request, serverSeed: v.serverSeed });
      const list = derived.ok ? derived.ok[keno ? 'hits' : 'mines'] : [];
      return { [keno ? 'hits' : 'mines']: inDrawOrder(seen, list) };
    }
    case 'stake.hilo':
    case 'stake.blackjack':
    case 'stake.videopoker': {
      const cards = tokens(v.cards).map(stakeCardOf('cards'));
      return cards.length ? { cards } : undefined;
    }
    case 'stake.baccarat': {
      const seen = {};
      const player = tokens(v.player).map(stakeCardOf('player'));
      const banker = tokens(v.banker).map(stakeCardOf('banker'));
      if (player.length) seen.player = player;
      if (banker.length) seen.banker = banker;
      return Object.keys(seen).length ? seen : undefined;
    }
    case 'stake.diamonds': {
      const gems = tokens(v.gems).map((t) => {
        if (UNKNOWN.has(t)) return null;
        const g = GEM_WORDS.get(t.toLowerCase());
        if (!g) refuse(`„${t}“ ist keine Farbe eines Diamanten: Grün, Lila, Gelb, Rot, Türkis, Orange oder Blau.`, 'gems');
        return g;
      });
      return gems.length ? { gems } : undefined;
    }
    default:
      return undefined;
  }
}

/** The op's request from the form, seeds aside. */
function requestOf(v) {
  const request = { op: v.op, clientSeed: v.clientSeed, nonce: /^\d+$/.test(v.nonce.trim()) ? Number(v.nonce.trim()) : v.nonce.trim() };
  if (v.op === 'stake.plinko') Object.assign(request, { rows: /^\d+$/.test(v.rows.trim()) ? Number(v.rows.trim()) : v.rows.trim(), risk: v.risk });
  if (v.op === 'stake.wheel') Object.assign(request, { segments: Number(v.segments), risk: v.risk });
  if (v.op === 'stake.mines') request.mines = /^\d+$/.test(v.mines.trim()) ? Number(v.mines.trim()) : v.mines.trim();
  return request;
}

// ---------------------------------------------------------------------------
// Lists beside a check: Stake's bets of one seed pair nonce by nonce, and
// Crash's earlier games. Computed in the worker (the game's `series`, run by
// web/worker.mjs), at most SERIES_ROWS rows, drawn ROWS_PER_TASK per task.

/** Rows of one list at most: 1,000 bets are a long session at Stake, and a few seconds in the worker. */
export const SERIES_ROWS = 1000;
const ROWS_PER_TASK = 100;
const MAX_INT = Number.MAX_SAFE_INTEGER;

/** A whole number from 0 typed into a list's field. */
function readCount(text, field, label, lo = 0) {
  const t = (text ?? '').trim().replace(/[.\s]/gu, '');
  if (!/^\d+$/.test(t)) refuse(`„${label}“: bitte eine ganze Zahl eintragen, z. B. „${lo === 0 ? '0' : '10'}“.`, field);
  const n = Number(t);
  if (!Number.isSafeInteger(n)) refuse(`„${label}“: ${t} ist zu groß (höchstens ${formatInt(MAX_INT)}).`, field);
  if (n < lo) refuse(`„${label}“: mindestens ${formatInt(lo)}.`, field);
  return n;
}

/** An engine error of a list's request, in German, for the panel's form. */
function engineRefuse(error) {
  const field = /^([A-Za-z]+)\b/.exec(error.message)?.[1] ?? null;
  refuse(germanError(error.message), field);
}

/**
 * A list's section below a panel: its fields, a button, a status line
 * (`data-state` busy, done, invalid or idle) and the table. The table is
 * dropped at once when the panel's form changes: it belonged to the old
 * inputs. Rows are drawn ROWS_PER_TASK per task, so 1,000 rows keep the
 * page answering.
 */
function seriesSection(api, { id, title, intro, fields, button, columns, depends, job, row, summary }) {
  const inputs = fields.map((f) => el('input', { id: `${id}-${f.name}`, name: f.name, type: 'text', value: f.value ?? '', inputmode: f.inputmode ?? 'numeric', spellcheck: 'false', autocomplete: 'off', class: f.mono ? 'mono' : undefined, 'aria-describedby': f.hint ? `${id}-${f.name}-hint` : undefined }));
  const go = el('button', { type: 'button', class: 'secondary', id: `${id}-run` }, button);
  const status = el('p', { class: 'series-status', id: `${id}-status`, 'data-state': 'idle' });
  const out = el('div', { class: 'series-out', id: `${id}-out` });
  let pass = 0;
  // The form's values the list depends on (`depends`), as it was computed: what was seen, or the nonce, do not void it.
  const keyOf = () => {
    const v = api.values();
    return JSON.stringify(depends.map((k) => v[k]));
  };
  let key = null;
  const say = (state, text) => {
    status.dataset.state = state;
    status.textContent = text;
  };
  api.onChange(() => {
    if (status.dataset.state === 'idle' || keyOf() === key) return;
    pass++;
    api.cancelSeries();
    out.replaceChildren();
    say('idle', `Die Werte oben haben sich geändert: „${button}“ rechnet die Liste neu.`);
  });
  go.addEventListener('click', async () => {
    const mine = ++pass;
    key = keyOf();
    out.replaceChildren();
    say('busy', 'Rechnet …');
    const values = Object.fromEntries(fields.map((f, i) => [f.name, inputs[i].value]));
    let r;
    try {
      r = await api.series(job(values), (done, total) => mine === pass && say('busy', `Rechnet … ${formatInt(done)} von ${formatInt(total)}`));
    } catch (e) {
      if (mine === pass) say('invalid', `Die Liste ließ sich nicht berechnen: ${e.message}`);
      return;
    }
    if (mine !== pass || r.cancelled) return;
    if (r.error) {
      say('invalid', r.error.message);
      return;
    }
    const body = el('tbody', {});
    out.replaceChildren(el('table', { class: 'series-table', id: `${id}-table` }, el('thead', {}, el('tr', {}, ...columns.map((c) => el('th', { scope: 'col' }, c)))), body));
    say('busy', `Zeichnet ${plural(r.rows.length, 'Zeile', 'Zeilen')} …`);
    let at = 0;
    const piece = () => {
      if (mine !== pass) return;
      body.append(...r.rows.slice(at, at + ROWS_PER_TASK).map(row));
      at += ROWS_PER_TASK;
      if (at < r.rows.length) setTimeout(piece, 0);
      else say('done', summary(r));
    };
    piece();
  });
  return el('section', { class: 'series', id, 'aria-labelledby': `${id}-title` },
    el('h3', { id: `${id}-title` }, title),
    el('p', { class: 'hint' }, intro),
    el('div', { class: 'grid' }, ...fields.map((f, i) => el('div', { class: `field${f.wide ? ' wide' : ''}` },
      el('label', { for: `${id}-${f.name}` }, f.label), f.hint ? el('span', { class: 'hint', id: `${id}-${f.name}-hint` }, f.hint) : null, inputs[i]))),
    el('div', { class: 'actions' }, go),
    status, out);
}

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** The nonce after `text` (BigInt: a nonce goes up to 2^53 − 1), or null if `text` is no nonce. */
const nextNonce = (text) => (/^\d+$/.test(text.trim()) ? String(BigInt(text.trim()) + 1n) : null);

const only = (...ops) => ops;
const WHERE = 'Wo: bei Stake unter „Fairness“ (Seeds); nach dem Wechsel des Seed-Paares auch der Server-Seed.';

export const STAKE_GAME = {
  id: 'stake',
  firstHint: 'Spiel, Client-Seed und Nonce (jede Wette zählt die Nonce um eins hoch)',
  tab: 'Stake',
  unit: ['Angabe', 'Angaben'],
  opFor: (v) => v.op || 'stake.dice',
  title: 'Stake-Spiele',
  intro: `Eine Wette bei Stake (oder einer Seite mit Stakes Verfahren) nachrechnen: ${GAME_LIST}, aus Server-Seed, Client-Seed und Nonce.`,
  fields: [
    { name: 'op', label: 'Spiel', kind: 'select', options: GAME_NAMES },
    { name: 'serverSeed', label: 'Server-Seed', hint: `${WHERE} So einfügen, wie er dort steht.`, wide: true, trim: true, seed: true },
    { name: 'clientSeed', label: 'Client-Seed', hint: 'Wo: unter „Fairness“ (Seeds), „Aktiver Client-Seed“; du kannst ihn dort selbst wählen.', wide: true, trim: true, seed: true },
    { name: 'nonce', label: 'Nonce', kind: 'int', value: '0', hint: 'Wo: in der Wette unter „Fairness“; die wievielte Wette mit diesem Seed-Paar, ab 0 gezählt.' },
    { name: 'rows', label: 'Reihen', kind: 'int', value: '16', hint: '8 bis 16, wie im Spiel eingestellt.', ops: only('stake.plinko') },
    { name: 'segments', label: 'Segmente', kind: 'select', options: SEGMENTS.map((n) => [String(n), String(n)]), ops: only('stake.wheel') },
    { name: 'risk', label: 'Risiko', kind: 'select', options: RISKS, ops: only('stake.plinko', 'stake.wheel') },
    { name: 'mines', label: 'Anzahl Minen', kind: 'int', value: '3', hint: '1 bis 24.', ops: only('stake.mines') },
    { name: 'commit', label: 'Commitment (vor dem Spiel gezeigt)', hint: 'Wo: unter „Fairness“ (Seeds), „Aktiver Server-Seed (gehasht)“, solange das Seed-Paar läuft. Leer lassen, wenn du es nicht hast.', wide: true, commit: true },
  ],
  observe: [
    { name: 'roll', label: 'Gezeigte Zahl', kind: 'text', hint: 'Die Zahl der Wette, z. B. „48,35“.', ops: only('stake.dice') },
    { name: 'multiplier', label: 'Multiplikator', kind: 'text', hint: 'Wie im Spiel gezeigt, z. B. „×470,07“ oder „2,5“.', ops: only('stake.limbo', 'stake.plinko', 'stake.wheel') },
    { name: 'path', label: 'Weg der Kugel (optional)', kind: 'text', hint: '„L“ für links, „R“ für rechts, von oben nach unten, z. B. „L R R L …“.', wide: true, ops: only('stake.plinko') },
    { name: 'pocket', label: 'Feld', kind: 'text', hint: 'Die Zahl, auf der die Kugel liegt, 0 bis 36.', ops: only('stake.roulette') },
    { name: 'tiles', label: 'Felder mit Minen', kind: 'text', hint: 'Felder 1 bis 25, zeilenweise von oben links gezählt (oben links = 1, oben rechts = 5, unten rechts = 25), z. B. „3 17 22“.', wide: true, ops: only('stake.mines') },
    { name: 'hits', label: 'Gezogene Zahlen', kind: 'text', hint: 'Die zehn Zahlen des Bretts (1 bis 40), in beliebiger Reihenfolge.', wide: true, ops: only('stake.keno') },
    { name: 'cards', label: 'Gesehene Karten', kind: 'textarea', hint: 'In der Reihenfolge, in der sie kamen, z. B. „A♠ 10♦ KH“; „?“ für eine Karte, die du nicht gesehen hast.', wide: true, ops: only('stake.hilo', 'stake.blackjack', 'stake.videopoker') },
    { name: 'player', label: 'Karten des Spielers', kind: 'text', hint: 'Z. B. „9♠ 10♦“ (auch die dritte Karte, falls gezogen).', ops: only('stake.baccarat') },
    { name: 'banker', label: 'Karten der Bank', kind: 'text', hint: 'Z. B. „K♥ 5♣ 2♦“.', ops: only('stake.baccarat') },
    { name: 'gems', label: 'Diamanten', kind: 'text', hint: 'Die fünf Farben von links nach rechts: Grün, Lila, Gelb, Rot, Türkis, Orange, Blau.', wide: true, ops: only('stake.diamonds') },
  ],
  formula: [
    'Zufall: HMAC-SHA256(Server-Seed, "Client-Seed:Nonce:Runde") für Runde 0, 1, 2 …; je 4 Bytes ergeben eine Kommazahl b0/256 + b1/256² + b2/256³ + b3/256⁴ (Stakes Seiten „Implementation“ und „Conversions“).',
    'Dice: ⌊Kommazahl × 10001⌋ / 100. Limbo: 1e8 / (Kommazahl × 1e8) × 0,99, auf zwei Stellen abgerundet, mindestens 1. Roulette: ⌊Kommazahl × 37⌋. Wheel: ⌊Kommazahl × Segmente⌋. Plinko: je Reihe ⌊Kommazahl × 2⌋ (0 links, 1 rechts), das Fach ist die Zahl der Schritte nach rechts.',
    'Keno, Mines und Video Poker ziehen ohne Zurücklegen: jede Kommazahl mal der Zahl der noch freien Felder (Karten) wählt aus den übrigen, in ihrer Reihenfolge. Hilo, Blackjack und Baccarat ziehen mit Zurücklegen: Karte ⌊Kommazahl × 52⌋ in Stakes Reihenfolge ♦2 ♥2 ♠2 ♣2 ♦3 … ♣A. Diamonds: ⌊Kommazahl × 7⌋ in der Reihenfolge Grün, Lila, Gelb, Rot, Türkis, Orange, Blau (Stakes Seite „Game Events“).',
    'Baccarat: sechs Karten; die ersten zwei bekommt der Spieler, die nächsten zwei die Bank (so rechnet Stakes Code im Browser), dann die dritte Karte nach der Tabelle des Spiels. Commitment = SHA-256 des Server-Seeds.',
  ],
  async build(v, ctx) {
    const request = requestOf(v);
    const observed = await observedOf(v, request, ctx);
    const { op, ...round } = request;
    return { epoch: { commit: v.commit, serverSeed: v.serverSeed, rounds: [{ op, ...round, ...(observed ? { observed } : {}) }] } };
  },
  resultNodes: (r, outcome) => stakeNodes(r, outcome),
  resultText: (r) => stakeShown(r.request.op, r.derived, r.request),
  describeMismatch: (f, round) => stakeMismatch(f, round),
  tools(api) {
    // Stake counts every bet of a seed pair up by one: the next bet is one click, checked at once.
    const next = el('button', { type: 'button', class: 'secondary', id: 'stake-next-nonce', title: 'Nonce um eins erhöhen und gleich prüfen. Die Felder unter „Was du gesehen hast“ werden geleert: sie gehörten zur vorigen Wette.' }, 'Nächste Nonce');
    next.addEventListener('click', () => {
      const { nonce } = api.values();
      const n = nextNonce(nonce);
      const cleared = Object.fromEntries(STAKE_GAME.observe.map((f) => [f.name, '']));
      api.setFields(n === null ? {} : { ...cleared, nonce: n });
    });
    const table = seriesSection(api, {
      id: 'stake-series',
      title: 'Mehrere Wetten auf einmal: Nonce von … bis …',
      intro: `Dasselbe Spiel und Seed-Paar wie oben, eine Zeile je Nonce – zum Vergleich mit deiner Wett-Liste bei Stake. Höchstens ${formatInt(SERIES_ROWS)} Zeilen.`,
      fields: [
        { name: 'from', label: 'Nonce von', value: '0' },
        { name: 'to', label: 'bis', value: '99' },
      ],
      button: 'Liste berechnen',
      columns: ['Nonce', 'Ergebnis'],
      depends: ['op', 'serverSeed', 'clientSeed', 'rows', 'risk', 'segments', 'mines'],
      job: (x) => ({ from: x.from, to: x.to }),
      row: (x) => el('tr', { 'data-nonce': x.nonce }, el('td', { class: 'num' }, formatInt(x.nonce)), el('td', { 'data-value': x.value }, x.text)),
      summary: (r) => `${plural(r.rows.length, 'Wette', 'Wetten')}, Nonce ${formatInt(r.rows[0].nonce)} bis ${formatInt(r.rows.at(-1).nonce)} (${shortName(r.op)}).`,
    });
    return { actions: [next], after: [table] };
  },
  /** The bets of nonces `from` … `to` of the form's seed pair and game, in the worker. */
  async series(v, job, { execute, onProgress }) {
    const from = readCount(job.from, 'from', 'Nonce von');
    const to = readCount(job.to, 'to', 'bis');
    if (to < from) refuse(`„bis“ (${formatInt(to)}) liegt vor „Nonce von“ (${formatInt(from)}).`, 'to');
    if (to - from + 1 > SERIES_ROWS) refuse(`Höchstens ${formatInt(SERIES_ROWS)} Nonces auf einmal: ab Nonce ${formatInt(from)} also bis ${formatInt(Math.min(MAX_INT, from + SERIES_ROWS - 1))}.`, 'to');
    if (v.serverSeed === '') refuse('Bitte oben den Server-Seed eintragen: ohne ihn lässt sich nichts nachrechnen.', 'serverSeed');
    const base = { ...requestOf(v), serverSeed: v.serverSeed };
    const rows = [];
    for (let nonce = from; nonce <= to; nonce++) {
      const request = { ...base, nonce };
      const r = await execute(request);
      if (r.error) engineRefuse(r.error);
      rows.push({ nonce, ...stakeCells(v.op, r.ok, request) });
      onProgress(rows.length, to - from + 1);
    }
    return { op: v.op, rows };
  },
};

export const CRASH_GAME = {
  id: 'crash',
  firstHint: 'den Hash der Runde und den Salt',
  tab: 'Stake Crash',
  unit: ['Angabe', 'Angaben'],
  opFor: () => 'stake.crash',
  title: 'Stake Crash',
  intro: 'Eine Crash-Runde bei Stake nachrechnen: aus dem Hash der Runde und dem Salt (dem Hash eines Bitcoin-Blocks, vor dem Start festgelegt).',
  fields: [
    { name: 'hash', label: 'Hash der Runde', hint: 'Wo: bei der Runde unter „Fairness“; 64 Zeichen 0–9 und a–f.', wide: true, trim: true },
    { name: 'salt', label: 'Salt', value: '0000000000000000001b34dc6a1e86083f95500b096231436e9b25cbdd0075c4', hint: 'Der Hash des Bitcoin-Blocks 584.500, wie Stake ihn beim Start von Crash angekündigt hat.', wide: true, trim: true },
  ],
  observe: [
    { name: 'crashPoint', label: 'Crash bei', kind: 'text', hint: 'Der Multiplikator, bei dem die Runde endete, z. B. „×1,98“.' },
  ],
  formula: [
    'HMAC-SHA256(Schlüssel = Hash der Runde als Text, Nachricht = Salt); die ersten 8 Hex-Zeichen als Zahl z; Crash bei max(1, 2³² / (z + 1) × 0,99), auf zwei Stellen abgerundet (Stakes Ankündigung des Crash-Seedings).',
    'Frühere Spiele: der Hash des Spiels davor ist SHA-256 des Hashs dieses Spiels, als Hex-Text (Stakes Kette wird rückwärts gespielt); so geht die Liste Spiel für Spiel zurück, wie „stake.crash.chain“ die Kette geht. Ob sie bis zum veröffentlichten letzten Hash der Kette reicht (bis zu 10 Millionen Schritte), prüft diese Seite nicht.',
  ],
  async build(v) {
    const seen = readDecimal(v.crashPoint, 'crashPoint', 'Crash bei');
    const round = { op: 'stake.crash', hash: v.hash.trim(), salt: v.salt.trim(), ...(seen === null ? {} : { observed: { crashPoint: seen } }) };
    return { epoch: { commit: null, rounds: [round] } };
  },
  tools(api) {
    const chain = seriesSection(api, {
      id: 'crash-chain',
      title: 'Frühere Spiele der Kette',
      intro: `Vom Hash oben Spiel für Spiel zurück: jedes frühere Spiel mit seinem Hash und wo es crashte – zum Vergleich mit Stakes Liste der letzten Spiele. Höchstens ${formatInt(SERIES_ROWS)} Spiele zurück.`,
      fields: [
        { name: 'back', label: 'Wie viele Spiele zurück', value: '10' },
        { name: 'find', label: 'Hash eines früheren Spiels (optional)', hint: 'Steht er unter den berechneten Spielen, wird er markiert: dann gehören beide Spiele zur selben Kette.', wide: true, mono: true, inputmode: 'text' },
      ],
      button: 'Frühere Spiele berechnen',
      columns: ['Spiele zurück', 'Hash', 'Crash bei'],
      depends: ['hash', 'salt'],
      job: (x) => ({ back: x.back, find: x.find }),
      row: (x) => el('tr', { 'data-back': x.back, 'data-hash': x.hash, class: x.found ? 'found' : undefined },
        el('td', { class: 'num' }, formatInt(x.back)), el('td', {}, el('code', { title: x.hash }, x.hash)), el('td', { class: 'num', 'data-value': String(x.crashPoint) }, times(x.crashPoint))),
      summary: (r) => {
        const n = r.rows.length;
        const listed = `${n === 1 ? 'Das Spiel' : `Die ${formatInt(n)} Spiele`} vor diesem, das jüngste zuerst.`;
        if (!r.find) return listed;
        if (r.found === 0) return `${listed} Der gesuchte Hash ist der Hash oben, dieses Spiel selbst.`;
        if (r.found !== null) return `${listed} Der gesuchte Hash ist das Spiel ${plural(r.found, 'Spiel', 'Spiele')} vor diesem: beide gehören zur selben Kette.`;
        return `${listed} Der gesuchte Hash ist nicht darunter: er liegt weiter zurück, nach diesem Spiel, oder gehört nicht zu dieser Kette.`;
      },
    });
    return { after: [chain] };
  },
  /** The games before the form's one: SHA-256 of its hash's hex text, again and again, each with its crash point (in the worker). */
  async series(v, job, { execute, sha256, onProgress }) {
    const back = readCount(job.back, 'back', 'Wie viele Spiele zurück', 1);
    if (back > SERIES_ROWS) refuse(`Höchstens ${formatInt(SERIES_ROWS)} Spiele zurück auf einmal.`, 'back');
    const find = (job.find ?? '').trim().toLowerCase();
    if (find !== '' && !/^[0-9a-f]{64}$/.test(find)) refuse(`„Hash eines früheren Spiels“: „${find.length > 20 ? `${find.slice(0, 20)}…` : find}“ sind nicht 64 Zeichen 0–9 und a–f.`, 'find');
    const hash = v.hash.trim();
    const salt = v.salt.trim();
    const first = await execute({ op: 'stake.crash', hash, salt });
    if (first.error) engineRefuse(first.error);
    const rows = [];
    let h = hash;
    for (let k = 1; k <= back; k++) {
      h = hex(await sha256(h));
      const r = await execute({ op: 'stake.crash', hash: h, salt });
      if (r.error) engineRefuse(r.error);
      rows.push({ back: k, hash: h, crashPoint: r.ok.crashPoint });
      onProgress(k, back);
    }
    // The walk is the op's: stake.crash.chain must find the last game listed exactly `back` steps from this one.
    const walked = await execute({ op: 'stake.crash.chain', hash, terminatingHash: h, limit: back });
    if (walked.ok?.distance !== back) throw new Error(`stake.crash.chain: ${JSON.stringify(walked)} for ${back} steps`);
    let found = null;
    if (find !== '') {
      const f = await execute({ op: 'stake.crash.chain', hash, terminatingHash: find, limit: back });
      found = f.ok ? f.ok.distance : null;
      if (found) rows[found - 1].found = true;
    }
    return { rows, find: find || null, found };
  },
  resultNodes: (r) => (r.derived ? [el('p', { class: 'stake-big', id: 'crash-shown' }, times(r.derived.crashPoint))] : []),
  resultText: (r) => stakeShown('stake.crash', r.derived),
  describeMismatch: (f) => ({ where: 'Crash bei', observed: times(f.observed), derived: times(f.derived), first: true }),
};

// ---------------------------------------------------------------------------
// Drawing a result the way Stake draws it

const diffIndex = (r, field) => new Set((r.comparison?.differences ?? []).filter((d) => d.field === field).map((d) => d.path[0]));

/**
 * Cards as chips, each marked where the player's card at its place (in the
 * op's list `field`) agreed or differed. `at`: the places in that list
 * (a hand: some of the dealt cards); `name(i, k)`: the chip's title.
 */
function cardChips(id, cards, r, field, { at = null, pos = (i) => String(i + 1), name = (i) => `Karte ${i + 1}` } = {}) {
  const bad = diffIndex(r, field);
  const seen = r.observed?.[field] ?? [];
  const places = at ?? cards.map((_, i) => i);
  return el('ol', { class: 'seq stake-cards', id },
    ...places.map((i, k) => {
      const c = at ? cards[i] : cards[k];
      const f = stakeCard(c);
      const mark = bad.has(i) ? 'mismatch' : seen[i] !== undefined && seen[i] !== null ? 'match' : undefined;
      return el('li', { class: [f.red ? 'red' : '', mark ?? ''].filter(Boolean).join(' ') || undefined, 'data-value': String(c), 'data-place': i + 1, 'data-mark': mark, title: name(i, k) },
        el('span', { class: 'pos' }, pos(i, k)), f.text);
    }));
}

const range = (a, b) => Array.from({ length: b - a }, (_, i) => a + i);
const WITH_REPLACEMENT = 'mit Zurücklegen: eine Karte kann mehrmals kommen';

/** Stake Blackjack as a table: the player's two cards, the dealer's up card and hole card, the cards drawn next. */
function blackjackHands(d, r) {
  const h = blackjackDeal(d.cards);
  const upText = stakeCard(h.up).text;
  return [
    el('div', { class: 'hands', id: 'stake-out-blackjack' },
      el('div', { class: 'hand', 'data-side': 'player' }, el('strong', {}, `Spieler: ${blackjackWords(h.player)}`),
        cardChips('stake-out-bj-player', d.cards, r, 'cards', { at: h.playerAt, name: (i, k) => `Karte ${i + 1}: deine ${k + 1}. Karte` })),
      el('div', { class: 'hand', 'data-side': 'dealer' }, el('strong', {}, `Dealer zeigt ${upText}`),
        cardChips('stake-out-bj-dealer', d.cards, r, 'cards', { at: h.dealerAt, name: (i, k) => `Karte ${i + 1}: ${k === 0 ? 'offen' : 'verdeckt'}` })),
      el('div', { class: 'hand', 'data-side': 'next' }, el('strong', {}, 'Die nächsten Karten'),
        el('span', { class: 'muted small' }, ' für Ziehen, Verdoppeln und Teilen, danach die des Dealers – in dieser Reihenfolge'),
        cardChips('stake-out-bj-next', d.cards, r, 'cards', { at: range(h.next, Math.min(d.cards.length, h.next + 8)) }))),
    el('p', { class: 'muted small', id: 'stake-out-bj-order' }, 'Stake sagt nicht, welche der ersten Karten wem gehören. Die Seite teilt sie aus, wie es am Tisch üblich ist: Spieler, Dealer, Spieler, Dealer (die zweite des Dealers verdeckt).'),
  ];
}

/** Stake Video Poker: the five dealt, then the cards that replace the ones laid down, in order. */
function videoPokerHands(d, r) {
  return [
    el('div', { class: 'hands', id: 'stake-out-videopoker' },
      el('div', { class: 'hand', 'data-side': 'dealt' }, el('strong', {}, 'Ausgeteilt'),
        cardChips('stake-out-vp-dealt', d.cards, r, 'cards', { at: range(0, 5) })),
      el('div', { class: 'hand', 'data-side': 'draw' }, el('strong', {}, 'Ersatzkarten'),
        cardChips('stake-out-vp-draw', d.cards, r, 'cards', { at: range(5, 10), pos: (i, k) => `E${k + 1}`, name: (i, k) => `Karte ${i + 1}: Ersatzkarte ${k + 1}` }))),
    el('p', { class: 'muted small', id: 'stake-out-vp-held' }, 'Welche Karten du gehalten hast, steht nicht in den Seeds. Die Ersatzkarten kommen in dieser Reihenfolge: wer zwei Karten ablegt, bekommt E1 und E2, wer fünf ablegt, E1 bis E5.'),
  ];
}

function plinkoBoard(d) {
  const rows = d.path.length;
  const board = el('div', { class: 'plinko', id: 'stake-out-plinko', 'data-bucket': d.bucket });
  let at = 0;
  d.path.forEach((step, row) => {
    // Row r has r + 1 gaps the ball can be in before it falls on: it is in gap `at`.
    const line = el('div', { class: 'plinko-row', 'data-row': row + 1, 'data-dir': step ? 'R' : 'L' });
    for (let g = 0; g <= row; g++) line.append(el('span', { class: g === at ? 'peg ball' : 'peg' }, g === at ? '●' : '·'));
    line.append(el('span', { class: 'plinko-step' }, step ? '↘ rechts' : '↙ links'));
    board.append(line);
    at += step;
  });
  const buckets = el('ol', { class: 'plinko-buckets', id: 'stake-out-plinko-buckets' },
    ...PLINKO[d.risk ?? 'low'][rows].map((m, i) => el('li', { class: i === d.bucket ? 'hit' : undefined, 'data-bucket': i, 'aria-current': i === d.bucket ? 'true' : undefined }, times(m))));
  return [board, buckets];
}

function minesGrid(d, r) {
  const mines = new Set(d.mines);
  const seen = new Set((r.observed?.mines ?? []).filter((x) => x !== null));
  const grid = el('div', { class: 'stake-grid mines', id: 'stake-out-mines', role: 'grid', 'aria-label': 'Minenfeld, 5 × 5' });
  for (let row = 0; row < 5; row++) {
    const line = el('div', { class: 'stake-grid-row', role: 'row' });
    for (let col = 0; col < 5; col++) {
      const i = row * 5 + col;
      const mine = mines.has(i);
      const mark = seen.has(i) ? (mine ? 'match' : 'mismatch') : undefined;
      line.append(el('span', { role: 'gridcell', class: ['tile', mine ? 'mine' : 'gem', mark ?? ''].filter(Boolean).join(' '), 'data-tile': i + 1, 'data-mine': mine ? 'yes' : 'no', title: `${tileName(i)}: ${mine ? 'Mine' : 'Diamant'}` }, mine ? '✖' : '◆'));
    }
    grid.append(line);
  }
  return grid;
}

function kenoBoard(d, r) {
  const order = new Map(d.hits.map((h, i) => [h, i + 1]));
  const seen = new Set((r.observed?.hits ?? []).filter((x) => x !== null));
  const board = el('div', { class: 'stake-grid keno', id: 'stake-out-keno', 'aria-label': 'Keno-Brett, 1 bis 40' });
  for (let row = 0; row < 5; row++) {
    const line = el('div', { class: 'stake-grid-row' });
    for (let col = 0; col < 8; col++) {
      const n = row * 8 + col + 1;
      const hit = order.has(n);
      const mark = seen.has(n) ? (hit ? 'match' : 'mismatch') : undefined;
      line.append(el('span', { class: ['square', hit ? 'hit' : '', mark ?? ''].filter(Boolean).join(' '), 'data-number': n, 'data-hit': hit ? String(order.get(n)) : undefined, title: hit ? `${n}: gezogen als ${order.get(n)}.` : String(n) }, String(n)));
    }
    board.append(line);
  }
  return board;
}

function gemRow(d, r) {
  const bad = diffIndex(r, 'gems');
  return el('ol', { class: 'seq gems', id: 'stake-out-gems' }, ...d.gems.map((g, i) => el('li', {
    class: ['gem', `gem-${g}`, bad.has(i) ? 'mismatch' : ''].filter(Boolean).join(' '), 'data-gem': g, title: GEM_NAMES[g],
  }, el('span', { class: 'gem-stone', 'aria-hidden': 'true' }, '◆'), ` ${GEM_NAMES[g]}`)));
}

/** The result of a `stake` round as DOM nodes. */
function stakeNodes(r) {
  const d = r.derived;
  if (!d) return [];
  const line = stakeShown(r.op ?? r.request.op, d, r.request);
  const shown = line ? el('p', { class: 'round-shown', id: 'stake-out-shown' }, line) : null;
  switch (r.request.op) {
    case 'stake.dice':
      return [el('p', { class: 'stake-big', id: 'stake-out-roll', 'data-value': String(d.roll) }, twoDecimals(d.roll))];
    case 'stake.limbo':
      return [el('p', { class: 'stake-big', id: 'stake-out-multiplier', 'data-value': String(d.multiplier) }, times(d.multiplier))];
    case 'stake.plinko':
      return [shown, ...plinkoBoard({ ...d, risk: r.request.risk })];
    case 'stake.roulette':
      return [el('p', { class: `stake-big pocket ${pocketColour(d.pocket)}`, id: 'stake-out-pocket', 'data-pocket': d.pocket, 'data-colour': pocketColour(d.pocket) }, pocketText(d.pocket))];
    case 'stake.wheel':
      return [el('p', { class: 'stake-big', id: 'stake-out-wheel', 'data-segment': d.segment }, `Segment ${formatInt(d.segment + 1)} von ${formatInt(r.request.segments)}: ${times(d.multiplier)}`),
        el('p', { class: 'muted small' }, `Die Segmente dieses Rads: ${WHEEL[r.request.risk][r.request.segments].map(times).join(' ')}`)];
    case 'stake.mines':
      return [shown, minesGrid(d, r)];
    case 'stake.keno':
      return [shown, kenoBoard(d, r)];
    case 'stake.hilo':
      return [
        el('p', { class: 'stake-big', id: 'stake-out-hilo-start', 'data-value': String(d.cards[0]) }, `Startkarte ${stakeCard(d.cards[0]).text}`),
        el('p', {}, `Dann die Karten in der Reihenfolge, in der sie aufgedeckt werden: jede Wahl (höher, tiefer, überspringen) deckt die nächste auf (${WITH_REPLACEMENT}).`),
        cardChips('stake-out-cards', d.cards, r, 'cards', { pos: (i) => (i === 0 ? 'Start' : String(i + 1)), name: (i) => (i === 0 ? 'Startkarte' : `Karte ${i + 1}`) }),
      ];
    case 'stake.blackjack':
      return [shown, ...blackjackHands(d, r), el('p', {}, `Alle ${plural(d.cards.length, 'Karte', 'Karten')}, in der Reihenfolge, in der sie kommen (${WITH_REPLACEMENT}).`), cardChips('stake-out-cards', d.cards, r, 'cards')];
    case 'stake.videopoker':
      return [...videoPokerHands(d, r), el('p', {}, `Der ganze Stapel, ${plural(d.cards.length, 'Karte', 'Karten')}: erst die Hand, dann die Ersatzkarten in ihrer Reihenfolge.`), cardChips('stake-out-cards', d.cards, r, 'cards')];
    case 'stake.baccarat':
      return [
        el('div', { class: 'hands', id: 'stake-out-baccarat', 'data-winner': d.winner },
          el('p', { class: 'round-shown', id: 'stake-out-winner' }, WINNER_NAMES[d.winner]),
          el('div', { class: 'hand', 'data-side': 'player' }, el('strong', {}, `Spieler (${baccaratTotal(d.player)})`), cardChips('stake-out-player', d.player, r, 'player')),
          el('div', { class: 'hand', 'data-side': 'banker' }, el('strong', {}, `Bank (${baccaratTotal(d.banker)})`), cardChips('stake-out-banker', d.banker, r, 'banker'))),
      ];
    case 'stake.diamonds':
      return [gemRow(d, r)];
    default:
      return shown ? [shown] : [];
  }
}

/** Where a Stake mismatch is, in the game's words. */
function stakeMismatch(f, round) {
  const op = round.request.op;
  const at = (n) => (f.index === null || f.index === undefined ? n : `${n} ${f.index + 1}`);
  switch (f.field) {
    case 'roll':
      return { where: 'Zahl', observed: twoDecimals(f.observed), derived: twoDecimals(f.derived), first: true };
    case 'multiplier':
      return { where: 'Multiplikator', observed: times(f.observed), derived: times(f.derived), first: true };
    case 'pocket':
      return { where: 'Feld', observed: pocketText(f.observed), derived: pocketText(f.derived), first: true };
    case 'path':
      return { where: at('Reihe'), observed: f.observed ? 'rechts' : 'links', derived: f.derived ? 'rechts' : 'links', index: f.index, first: f.index === 0 };
    case 'hits':
      return { where: 'Keno-Brett', observed: `${f.observed} gezogen`, derived: `${f.observed} nicht gezogen`, index: f.index, first: false };
    case 'mines':
      return { where: 'Minenfeld', observed: `Mine auf Feld ${f.observed + 1}`, derived: `dort keine Mine`, index: f.index, first: false };
    case 'cards':
    case 'player':
    case 'banker': {
      const side = { cards: 'Karte', player: 'Spieler, Karte', banker: 'Bank, Karte' }[f.field];
      return { where: at(side), observed: stakeCard(f.observed).text, derived: f.derived === null || f.derived === undefined ? 'keine' : stakeCard(f.derived).text, index: f.index, first: f.index === 0 && op !== 'stake.baccarat' };
    }
    case 'gems':
      return { where: at('Diamant'), observed: GEM_NAMES[f.observed] ?? String(f.observed), derived: GEM_NAMES[f.derived] ?? String(f.derived), index: f.index, first: f.index === 0 };
    default:
      return { where: f.field, observed: String(f.observed), derived: String(f.derived), first: false };
  }
}

/** The stake scheme's panels (views.mjs); a link's op opens the one its declaration names. */
export const GAMES = [STAKE_GAME, CRASH_GAME];

/** A checked stake round in one line, as the proof card lists it (roundview.mjs). */
export const shown = (r) => stakeShown(r.op, r.derived, r.request ?? {});
