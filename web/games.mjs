// The games as players know them, each turned into a proof document of one
// epoch (reference/js/proof.mjs checks it, the same rules as `provably
// audit`). A game says where on the operator's page each value is shown,
// which op computes it, and how what the player saw becomes `observed`.
//
// build(values, ctx) returns { epoch, notes } or { error, field }:
//   values  the form's text, seeds already trimmed
//   ctx     { execute } for games whose observation needs the derived
//           outcome to be written in the op's terms (a 312-card shoe shows
//           cards, its op answers shoe positions).

import { CURSOR, NUMPY, SHOE, cardFace, parseCard } from './js/cards.mjs';
import { OK_FIELDS, seatSeed } from './js/proof.mjs';
import { declarations } from './js/provably.mjs';
import { MAX_INT } from './js/validate.mjs';
import { formatAmount, formatInt, parseAmount, plural, splitAmounts } from './german.mjs';
import { opsOfView, pageOf } from './names.mjs';
import { SCHEME_GAMES } from './views.mjs';

import { InputError, tokens } from './input.mjs';

export { tokens };
const UNKNOWN = new Set(['?', '–', '-', '_', '…']);
const refuse = (message, field) => {
  throw new InputError(message, field);
};

/** Integer text -> Number (BigInt past 2^53); anything else stays text for the engine to explain. */
export function intValue(text) {
  const t = (text ?? '').trim();
  if (!/^\d+$/.test(t)) return t;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : BigInt(t);
}

function requireInt(values, name, label, { min = 0, max = MAX_INT } = {}) {
  const t = (values[name] ?? '').trim();
  if (t === '') refuse(`Bitte ${label} eintragen.`, name);
  if (!/^\d+$/.test(t)) refuse(`„${label}“ muss eine ganze Zahl sein, nicht „${t}“.`, name);
  const n = BigInt(t);
  if (n < BigInt(min) || n > BigInt(max)) refuse(`„${label}“: ${formatInt(t)} liegt nicht zwischen ${formatInt(min)} und ${formatInt(max)}.`, name);
  return Number(n);
}

/** "0,75" or "0.75" -> 0.75; anything else stays text for the engine to explain. */
export function numberValue(text) {
  const t = (text ?? '').trim().replace(',', '.');
  return t === '' || Number.isNaN(Number(t)) ? t : Number(t);
}

/** Seats typed one per line as "7: seed" (or "7 = seed", "Spieler 7: seed"): [{player, seed}]. */
export function parseSeats(text) {
  const seats = [];
  for (const [i, raw] of (text ?? '').split('\n').entries()) {
    const line = raw.trim();
    if (!line) continue;
    const m = /^(?:spieler|platz|player)?\s*(\d+)\s*[:=\t]\s?(.*)$/iu.exec(line);
    if (!m) refuse(`Platz-Seeds, Zeile ${i + 1}: „${line}“ – erwartet „Spielernummer: Seed“, z. B. „7: a1b2c3“.`, 'seats');
    const player = Number(m[1]);
    if (!Number.isSafeInteger(player)) refuse(`Platz-Seeds, Zeile ${i + 1}: Spielernummer ${m[1]} ist zu groß.`, 'seats');
    seats.push({ player, seed: m[2].trim() });
  }
  return seats;
}

/** The client seed or the seats of a table round (seed 003), not both. */
function clientOrSeats(values) {
  const seats = parseSeats(values.seats);
  if (seats.length && values.clientSeed !== '') refuse('Bitte entweder den Client-Seed oder die Platz-Seeds eintragen, nicht beides.', 'seats');
  return seats.length ? { seats } : { clientSeed: values.clientSeed };
}

// ---------------------------------------------------------------------------
// Cards as players type them

const cardReader = (numbering, { numbers, field = 'observed' }) => (t) => {
  if (UNKNOWN.has(t)) return null;
  if (numbers && /^\d+$/.test(t)) {
    const n = Number(t);
    if (n > 51) refuse(`„${t}“ ist keine Kartennummer (0 bis 51).`, field);
    return n;
  }
  const c = parseCard(numbering, t);
  if (c === null) refuse(`„${t}“ ist keine Karte. Schreibweise z. B. „AS“, „TD“, „10♦“ oder „A♠“; „?“ für eine Karte, die du nicht gesehen hast.`, field);
  return c;
};
const shoeCard = cardReader(SHOE, { numbers: false });
const cursorCard = cardReader(CURSOR, { numbers: true });
const numpyCard = cardReader(NUMPY, { numbers: true });
const handCard = cardReader(CURSOR, { numbers: true, field: 'cards' });

/** Observed cards of a shoe from position `start` (ab 1): nulls before it. */
function fromStart(values, read) {
  const seen = tokens(values.observed).map(read);
  if (!seen.length) return null;
  const start = (values.start ?? '').trim() === '' ? 1 : requireInt(values, 'start', 'Ab Position', { min: 1, max: 100000 });
  return [...Array(start - 1).fill(null), ...seen];
}

function shoeObserved(values) {
  const cards = fromStart(values, shoeCard);
  const observed = {};
  if (cards) observed.cards = cards;
  if ((values.cut ?? '').trim() !== '') observed.cut = intValue(values.cut);
  return Object.keys(observed).length ? observed : undefined;
}

/** My seat (ab 1), my two cards and the board, from the form. */
function seatAndBoard(values, read, players) {
  const mine = tokens(values.myCards).map(read);
  const board = tokens(values.board).map(read);
  if (mine.length > 2) refuse(`„Meine Karten“: höchstens 2 Karten, eingetragen sind ${mine.length}.`, 'myCards');
  if (board.length > 5) refuse(`„Board“: höchstens 5 Karten, eingetragen sind ${board.length}.`, 'board');
  let seat = null;
  if (mine.length) seat = requireInt(values, 'mySeat', 'Mein Platz', { min: 1, max: players });
  return { seat, mine, board };
}

// ---------------------------------------------------------------------------
// The games

/** The choices of „Casino-Zahlen“: the ops that declare it as their view and a name in it (names.mjs), the first by default. */
const NUMBERS_FIRST = 'cursor.int';
const NUMBER_OPS = [NUMBERS_FIRST, ...opsOfView('numbers').filter((op) => op !== NUMBERS_FIRST && pageOf(op).short)];
/** The choices that take request field `name`. */
const taking = (name) => NUMBER_OPS.filter((op) => Object.hasOwn(declarations.get(op)?.fields ?? {}, name));
/** An observed number of „Casino-Zahlen“, by the op's answer field. */
const NUMBER_READERS = { value: intValue, float: numberValue, raw: (t) => t.toLowerCase() };

const WHERE_SHOE = {
  serverSeed: 'Wo: am Tisch unter „Nachweis“, sobald der Schuh durch ist und neu gemischt wurde.',
  clientSeed: 'Wo: am Tisch unter „Nachweis“.',
  nonce: 'Wo: am Tisch unter „Nachweis“ (zählt die Runden dieses Seed-Paares).',
  commit: 'Wo: der SHA-256-Wert, den der Tisch zeigt, solange der Schuh läuft.',
};

const seedField = (name, label, hint) => ({ name, label, hint, wide: true, trim: true, seed: true });
const commitField = (hint) => ({ name: 'commit', label: 'Commitment (vor dem Spiel gezeigt)', hint: `${hint} Leer lassen, wenn du es nicht hast.`, wide: true, commit: true });

const SHOE_OBSERVE = [
  { name: 'observed', label: 'Gesehene Karten', kind: 'textarea', hint: 'In Ziehreihenfolge, z. B. „AS TD 7H“ oder „A♠ 10♦ 7♥“; „?“ für eine Karte, die du nicht gesehen hast.', wide: true },
  { name: 'start', label: 'Erste gesehene Karte Nr.', kind: 'int', value: '1', hint: 'Die wievielte Karte des Schuhs deine erste war, z. B. 40, wenn du erst später eingestiegen bist. Die erste Karte des Schuhs ist Nr. 1.' },
  { name: 'cut', label: 'Cut-Card nach Karte', kind: 'int', hint: 'Optional: nach wie vielen Karten die Cut-Card kam.' },
];

/** The 312-card shoe of seed 003's blackjack tables: shoe index i is card i % 52 (CURSOR numbering). */
export const tableCard = (index) => index % 52;

export const GAMES = [
  {
    id: 'blackjack',
    firstHint: 'Nonce, Decks und Client-Seed (am Casino-Tisch: die Platz-Seeds)',
    tab: 'Blackjack',
    unit: ['Karte', 'Karten'],
    opFor: (v) => (v.variant === 'table' ? 'cursor.shuffle' : 'shoe.deal'),
    title: 'Blackjack',
    intro: 'Eine Runde Blackjack nachrechnen: die ganze Kartenfolge des Schuhs aus Server-Seed, Client-Seed und Nonce.',
    variants: [
      { id: 'shoe', label: 'Freie Runde (Casual oder Ranked, Schuh mit Cut-Card)' },
      { id: 'table', label: 'Casino-Tisch (312 Karten aus den Platz-Seeds)' },
    ],
    fields: [
      seedField('serverSeed', 'Server-Seed', 'Wo: am Tisch unter „Nachweis“ (freie Runde) bzw. beim Tisch nach der Rotation (Casino-Tisch). So einfügen, wie er dort steht.'),
      { ...seedField('clientSeed', 'Client-Seed', 'Wo: am Tisch unter „Nachweis“.'), variants: ['shoe', 'table'] },
      { name: 'seats', label: 'Platz-Seeds (statt Client-Seed)', kind: 'textarea', hint: 'Wo: auf der Seite der Tischrunde. Eine Zeile je Platz: „Spielernummer: Seed“, z. B. „7: a1b2c3“. Alle, die beim Austeilen saßen.', wide: true, variants: ['table'] },
      { name: 'nonce', label: 'Nonce', kind: 'int', value: '0', hint: WHERE_SHOE.nonce },
      { name: 'decks', label: 'Decks', kind: 'int', value: '6', hint: '1 bis 8; am Tisch angeschrieben.', variants: ['shoe'] },
      { name: 'penetration', label: 'Anteil bis zur Cut-Card', kind: 'number', value: '0,75', hint: 'Wie weit der Schuh gespielt wird, zwischen 0 und 1, z. B. 0,75 für drei Viertel; am Tisch angeschrieben.', variants: ['shoe'] },
      commitField(WHERE_SHOE.commit),
    ],
    observe: SHOE_OBSERVE.map((f) => (f.name === 'cut' ? { ...f, variants: ['shoe'] } : f)),
    formula: [
      'Freie Runde: Block b = HMAC-SHA256(Server-Seed, "Client-Seed:Nonce:b"), ein Bytestrom über die Blockgrenzen hinweg. Ein Index in [0, n): k Bytes mit 256^k ≥ n, Big-Endian, Werte ab 256^k − (256^k mod n) verworfen, dann mod n. Fisher-Yates rückwärts über den geordneten Schuh (je Deck ♠ ♥ ♦ ♣, darin A 2 … K).',
      'Cut-Card aus demselben Strom: round(gesamt × Anteil) ± round(gesamt × 0,02), begrenzt auf [max(20, round(gesamt × 0,5)), gesamt − 15].',
      'Casino-Tisch: Client-Seed = die Platz-Seeds aufsteigend nach Spielernummer, ohne Trennzeichen verkettet; Schuh = shuffle(312) ab Cursor 0 mit raw = HMAC-SHA256(Server-Seed, "Client-Seed:Nonce:Cursor"). Schuhplatz i ist Karte i mod 52 (Rang = Karte mod 13, 0 = Ass; Farbe = Karte div 13: ♣ ♦ ♥ ♠). Diese Zuordnung nennt die Seite des Betreibers nicht; so rechnet „provably“.',
    ],
    async build(v, ctx) {
      if (v.variant === 'table') return buildTable(v, ctx);
      const round = { op: 'shoe.deal', clientSeed: v.clientSeed, nonce: intValue(v.nonce), decks: intValue(v.decks), penetration: numberValue(v.penetration) };
      const observed = shoeObserved(v);
      return { epoch: { commit: v.commit, serverSeed: v.serverSeed, rounds: [{ ...round, ...(observed ? { observed } : {}) }] } };
    },
  },
  {
    id: 'tournament',
    firstHint: 'Turnierkennung, Handindex und Decks',
    tab: 'Turnier',
    unit: ['Karte', 'Karten'],
    opFor: () => 'shoe.tournament',
    title: 'Turnier',
    intro: 'Eine Turnierhand nachrechnen. Jede Hand bekommt ihren eigenen Teil-Schuh: Client-Seed = Turnierkennung + ":" + Handindex, Nonce = Handindex. Deshalb sehen alle Bahnen in Hand k dieselben Karten.',
    fields: [
      seedField('serverSeed', 'Turnier-Seed', 'Wo: nach der letzten Hand des Turniers beim Turnier veröffentlicht.'),
      seedField('tournamentId', 'Turnierkennung', 'Wo: beim Turnier angeschrieben.'),
      { name: 'hand', label: 'Handindex', kind: 'int', value: '0', hint: 'Die wievielte Hand, ab 0 gezählt, wie der Server sie nummeriert.' },
      { name: 'decks', label: 'Decks', kind: 'int', value: '6', hint: '1 bis 8.' },
      { name: 'penetration', label: 'Anteil bis zur Cut-Card', kind: 'number', value: '0,75', hint: 'Zwischen 0 und 1, z. B. 0,75 für drei Viertel.' },
      commitField('Wo: der SHA-256-Wert, der vor Anmeldeschluss beim Turnier veröffentlicht wurde.'),
    ],
    observe: SHOE_OBSERVE,
    formula: ['Hand k des Turniers T: wie eine freie Runde mit Client-Seed = T + ":" + k und Nonce = k (Cut-Card eingeschlossen).'],
    async build(v) {
      const round = { op: 'shoe.tournament', tournamentId: v.tournamentId, hand: intValue(v.hand), decks: intValue(v.decks), penetration: numberValue(v.penetration) };
      const observed = shoeObserved(v);
      return { epoch: { commit: v.commit, serverSeed: v.serverSeed, rounds: [{ ...round, ...(observed ? { observed } : {}) }] } };
    },
  },
  {
    id: 'dice',
    firstHint: 'den Client-Seed und die erste Wurfnummer',
    tab: 'Würfel',
    unit: ['Wurf', 'Würfe'],
    opFor: () => 'dice.roll',
    title: 'Würfel',
    intro: 'Ein Würfelspiel nachrechnen, Wurf für Wurf. Würfel werden nach ihrer Wurfnummer n benannt, wie im veröffentlichten Nachweis.',
    fields: [
      seedField('serverSeed', 'Server-Seed', 'Wo: im Nachweis unter /fair/<id>, Feld „serverSeed“, nach Spielende.'),
      seedField('clientSeed', 'Client-Seed', 'Wo: im Nachweis, Feld „clientSeed“; im 1-gegen-1 die Werte beider Spieler mit „:“ verbunden.'),
      { name: 'from', label: 'Erste Wurfnummer', kind: 'int', value: '0', hint: 'Die Nummer des ersten Wurfs, den du prüfen willst.' },
      { name: 'rolls', label: 'Anzahl Würfe', kind: 'int', value: '20', hint: '1 bis 1.000.' },
      commitField('Wo: im Nachweis, Feld „commit“; vor dem ersten Wurf an beide Spieler geschickt.'),
    ],
    observe: [
      { name: 'observed', label: 'Gesehene Augenzahlen', kind: 'textarea', hint: 'Ab der ersten Wurfnummer, z. B. „3 6 1 1 4“; „?“ für einen Wurf, den du nicht gesehen hast; „T“ (oder „T4“) für einen Telegram-Wurf: der kommt von Telegram, nicht aus dem Seed, und wird übersprungen.', wide: true },
    ],
    formula: [
      'Wurf Nummer n: für Runde 0 … 15 ist mac = HMAC-SHA256(Server-Seed, "Client-Seed:n:Runde"); das erste Byte unter 252 ergibt Byte mod 6 + 1. So rechnet der veröffentlichte JavaScript-Code, Byte für Byte (die Kurzformel der Seite sieht nur Byte 0 an).',
      'Wurfnummern gehen bis 2^53 − 1: die Seite lehnt eine Anfrage ab, deren letzter Wurf erste Wurfnummer + Anzahl − 1 darüber läge, wie „provably verify dice“.',
    ],
    async build(v) {
      const from = requireInt(v, 'from', 'Erste Wurfnummer n');
      const rolls = requireInt(v, 'rolls', 'Anzahl Würfe', { min: 1, max: 1000 });
      if (BigInt(from) + BigInt(rolls) - 1n > BigInt(MAX_INT)) {
        refuse(`Die Würfe Nummer ${formatInt(from)} bis ${formatInt(BigInt(from) + BigInt(rolls) - 1n)} reichen über die größte Wurfnummer ${formatInt(MAX_INT)} hinaus. Bitte weniger Würfe oder eine kleinere erste Wurfnummer eintragen.`, 'rolls');
      }
      const seen = tokens(v.observed).map(readDie);
      if (seen.length > rolls) refuse(`Eingetragen sind ${plural(seen.length, 'Augenzahl', 'Augenzahlen')}, geprüft werden aber nur ${plural(rolls, 'Wurf', 'Würfe')}. Bitte die Anzahl Würfe erhöhen.`, 'observed');
      const rounds = Array.from({ length: rolls }, (_, i) => {
        const round = { op: 'dice.roll', clientSeed: v.clientSeed, n: from + i };
        const s = seen[i];
        if (s?.telegram) return { ...round, external: 'telegram', ...(s.face ? { observed: { face: s.face } } : {}) };
        return s ? { ...round, observed: { face: s.face } } : round;
      });
      return { epoch: { commit: v.commit, serverSeed: v.serverSeed, rounds } };
    },
  },
  {
    id: 'numbers',
    firstHint: 'Client-Seed (oder Platz-Seeds), Nonce und Zähler',
    tab: 'Casino-Zahlen',
    unit: ['Angabe', 'Angaben'],
    opFor: (v) => v.op || NUMBERS_FIRST,
    title: 'Casino-Zahlen',
    intro: 'Eine Zahl aus dem Casino nachrechnen (0 bis 9999), auch für eine Tischrunde mit mehreren Plätzen. Für Fachleute: die Kommazahl, der Rohwert und ganze Mischungen.',
    fields: [
      { name: 'op', label: 'Rechnung', kind: 'select', options: NUMBER_OPS.map((op) => [op, pageOf(op).short]) },
      seedField('serverSeed', 'Server-Seed', 'Wo: auf der Transparenzseite, offengelegt beim Seed-Wechsel (Tisch: nach der Rotation).'),
      seedField('clientSeed', 'Client-Seed', 'Wo: in deinem Verlauf bei der Runde.'),
      { name: 'seats', label: 'Platz-Seeds (statt Client-Seed, für Tischrunden)', kind: 'textarea', hint: 'Eine Zeile je Platz: „Spielernummer: Seed“; alle, die bei „Nichts geht mehr“ saßen.', wide: true },
      { name: 'nonce', label: 'Nonce', kind: 'int', value: '0', hint: 'Zählt die Runden dieses Seed-Paares.' },
      { name: 'cursor', label: 'Zähler in der Runde', kind: 'int', value: '0', hint: 'Die wievielte Zahl dieser Runde, wie der Betreiber sie zählt: die erste hat 0.' },
      { name: 'range', label: 'Spanne', kind: 'int', value: '10000', hint: 'Für „Zahl“: 10000 ergibt 0 bis 9999.', ops: taking('range') },
      { name: 'count', label: 'Anzahl', kind: 'int', value: '52', hint: 'Für „Mischung“: wie viele Dinge gemischt werden.', ops: taking('count') },
      commitField('Wo: der SHA-256-Wert, der vor dem Seed-Wechsel veröffentlicht war.'),
    ],
    observe: [
      { name: 'observed', label: 'Gesehenes Ergebnis', kind: 'textarea', hint: 'Die Zahl (oder bei „Mischung“ die Reihenfolge, „?“ für Unbekanntes).', wide: true },
    ],
    formula: [
      'raw = HMAC-SHA256(Schlüssel = Server-Seed als Text, Nachricht = "Client-Seed:Nonce:Cursor"). Zahl aus k = max(1, ⌈bitlen(Spanne − 1) / 8⌉) Bytes, Big-Endian; liegt sie im Rest, der sich nicht gleichmäßig aufteilt, wird verworfen und mit Cursor + 1 neu gezogen.',
      'Kommazahl = b0/256 + b1/256² + b2/256³ + b3/256⁴. Mischung: Fisher-Yates von hinten, j = Zahl(i + 1).',
    ],
    async build(v) {
      const op = v.op || NUMBERS_FIRST;
      const round = { op, ...clientOrSeats(v), nonce: intValue(v.nonce), cursor: intValue(v.cursor) };
      if (taking('range').includes(op)) round.range = intValue(v.range);
      if (taking('count').includes(op)) round.count = intValue(v.count);
      const seen = tokens(v.observed);
      // What the player saw is the op's first answer field: an order, a number, a fraction or the raw value.
      const answer = Object.keys(OK_FIELDS[op] ?? {})[0];
      let observed;
      if (seen.length) {
        if (answer === 'order') observed = { order: seen.map((t) => (UNKNOWN.has(t) ? null : intValue(t))) };
        else if (seen.length > 1) refuse('Bitte nur eine Zahl eintragen.', 'observed');
        else observed = { [answer]: (NUMBER_READERS[answer] ?? NUMBER_READERS.raw)(seen[0]) };
        const bad = (observed.order ?? [observed.value ?? observed.float ?? 0]).find((x) => typeof x === 'string');
        if (bad !== undefined) refuse(`„${bad}“ ist keine Zahl.`, 'observed');
      }
      return { epoch: { commit: v.commit, serverSeed: v.serverSeed, rounds: [{ ...round, ...(observed ? { observed } : {}) }] } };
    },
  },
  {
    id: 'poker',
    firstHint: 'Platz-Seeds, Nonce und die Zahl der Spieler',
    tab: 'Casino-Poker',
    unit: ['Karte', 'Karten'],
    opFor: () => 'poker.deal',
    title: 'Casino-Poker',
    intro: 'Eine Pokerhand vom Casino-Tisch nachrechnen. Du musst nur prüfen, was du gesehen hast: deinen Platz, deine zwei Karten und das Board.',
    fields: [
      seedField('serverSeed', 'Tisch-Seed (Server-Seed)', 'Wo: auf der Seite der Hand, sobald der Tisch-Seed offen ist (nach 100 Händen, 24 Stunden oder wenn der Tisch schließt).'),
      seedField('clientSeed', 'Client-Seed', 'Nur wenn du ihn schon verkettet hast; sonst unten die Platz-Seeds.'),
      { name: 'seats', label: 'Platz-Seeds', kind: 'textarea', hint: 'Wo: auf der Seite der Hand („wer saß, mit welchem Platz-Seed“). Eine Zeile je Platz: „Spielernummer: Seed“.', wide: true },
      { name: 'nonce', label: 'Nonce (Hand)', kind: 'int', value: '0', hint: 'Wo: auf der Seite der Hand.' },
      { name: 'players', label: 'Spieler in der Hand', kind: 'int', value: '6', hint: '2 bis 22.' },
      commitField('Wo: die Prüfsumme des Tisch-Seeds, die vor der Hand am Tisch stand.'),
    ],
    observe: [
      { name: 'mySeat', label: 'Mein Platz', kind: 'int', hint: 'In Austeilreihenfolge: Platz 1 sitzt links vom Button und bekommt die erste Karte.' },
      { name: 'myCards', label: 'Meine Karten', kind: 'text', hint: 'Zwei Karten, z. B. „A♣ 10♦“, „AC TD“ oder Kartennummern.' },
      { name: 'board', label: 'Board', kind: 'text', hint: 'Flop, Turn, River in dieser Reihenfolge; so viele, wie aufgedeckt wurden.', wide: true },
    ],
    formula: [
      'Stapel = shuffle(52) ab Cursor 0 (wie bei Casino-Zahlen). Bei n Spielern: die zwei Karten von Platz i an den Positionen i und n + i, Flop 2n+1 … 2n+3, Turn 2n+5, River 2n+7 (dazwischen je eine verbrannte Karte).',
      'Karte c: Rang = c mod 13 (0 = Ass, 9 = Zehn, 10 bis 12 = J Q K), Farbe = c div 13 (♣ ♦ ♥ ♠). Client-Seed = Platz-Seeds aufsteigend nach Spielernummer, ohne Trennzeichen verkettet.',
    ],
    async build(v) {
      const players = intValue(v.players);
      const round = { op: 'poker.deal', ...clientOrSeats(v), nonce: intValue(v.nonce), players };
      const n = Number.isSafeInteger(players) ? players : 22;
      const { seat, mine, board } = seatAndBoard(v, cursorCard, n);
      const observed = {};
      if (seat) observed.hole = [...Array(seat - 1).fill(null), mine.length === 2 ? mine : [mine[0], null]];
      if (board.length) observed.board = board;
      return { epoch: { commit: v.commit, serverSeed: v.serverSeed, rounds: [{ ...round, ...(Object.keys(observed).length ? { observed } : {}) }] } };
    },
  },
  {
    id: 'pokerni',
    firstHint: 'die Zahl der Spieler und deinen Platz',
    tab: 'Pokerni',
    unit: ['Karte', 'Karten'],
    opFor: () => 'selfpoker.deck',
    title: 'Pokerni',
    intro: 'Eine Pokerni-Hand nachrechnen: der ganze Stapel aus dem Seed der Hand, mit NumPys Generator im Browser nachgebaut und gegen NumPy geprüft.',
    fields: [
      { name: 'seed', label: 'Seed', hint: 'Wo: Feld „fairplay.seed“ der Abschlussnachricht (hand_end); eine ganze Zahl mit bis zu 19 Ziffern.', wide: true, trim: true, seed: true, inputmode: 'numeric' },
      { name: 'players', label: 'Spieler in der Hand', kind: 'int', value: '6', hint: '1 bis 22.' },
      commitField('Wo: Feld „commit“ der Zustandsnachrichten; am Tisch, wenn du mit der Maus über das Abzeichen „Überprüfbares Geben“ fährst.'),
    ],
    observe: [
      { name: 'mySeat', label: 'Mein Platz', kind: 'int', hint: 'Spieler 1 hält die Karten 1 und 2 des Stapels, Spieler 2 die Karten 3 und 4, …' },
      { name: 'myCards', label: 'Meine Karten', kind: 'text', hint: 'Zwei Karten, z. B. „A♠ 10♦“ oder Kartennummern.' },
      { name: 'board', label: 'Board', kind: 'text', hint: 'Die Gemeinschaftskarten in ihrer Reihenfolge.', wide: true },
    ],
    formula: [
      'Stapel = numpy.random.default_rng(Seed).permutation(52), hier ohne Python nachgebaut (SeedSequence, PCG64, NumPys Fisher-Yates). Spieler i hält die Karten 2i − 1 und 2i (gezählt ab 1), danach fünf Gemeinschaftskarten, ohne Burn Cards.',
      'Karte c: Wert = c div 4 (0 = 2 … 12 = Ass), Farbe = c mod 4 (♣ ♦ ♥ ♠). Commitment = SHA-256("selfpoker:" + Seed).',
    ],
    async build(v) {
      const players = requireInt(v, 'players', 'Spieler in der Hand', { min: 1, max: 22 });
      const { seat, mine, board } = seatAndBoard(v, numpyCard, players);
      let observed;
      if (seat || board.length) {
        const deck = Array(2 * players + board.length).fill(null);
        if (seat) mine.forEach((c, i) => (deck[2 * (seat - 1) + i] = c));
        board.forEach((c, i) => (deck[2 * players + i] = c));
        while (deck.length && deck.at(-1) === null) deck.pop();
        observed = { deck };
      }
      return { epoch: { commit: v.commit, seed: v.seed, rounds: [{ op: 'selfpoker.deck', ...(observed ? { observed } : {}) }] }, players };
    },
  },
  {
    id: 'dond',
    firstHint: 'Client-Seed und die Anzahl der Koffer',
    tab: 'Deal or No Deal',
    unit: ['Koffer', 'Koffer'],
    opFor: () => 'ladder.shuffle',
    title: 'Deal or No Deal',
    intro: 'Eine Runde Deal or No Deal nachrechnen: welcher Koffer welchen Gewinn hatte.',
    fields: [
      seedField('serverSeed', 'Server-Seed', 'Wo: auf dem Abschlussbildschirm der Runde und in deinem Verlauf.'),
      seedField('clientSeed', 'Client-Seed', 'Wo: auf dem Abschlussbildschirm; vor der Runde im Einsatzfeld wählbar.'),
      { name: 'size', label: 'Anzahl Koffer', kind: 'int', value: '25' },
      { name: 'ladder', label: 'Leiter (Gewinne, optional)', kind: 'textarea', hint: 'Die Gewinne in Leiterreihenfolge, je Zeile einer oder z. B. „0,01 €; 1 €; 1.000.000 €“. Dann zeigt die Seite Beträge statt Leiterplätzen.', wide: true },
      commitField('Wo: im Spiel als „Commitment“ angezeigt, bevor du einen Koffer wählst.'),
    ],
    observe: [
      { name: 'observed', label: 'Inhalt der Koffer 1, 2, 3 …', kind: 'textarea', hint: 'Mit Leiter die Beträge (z. B. „0,01 €“), sonst die Leiterplätze (der kleinste ist 1); „?“ für einen Koffer, den du nicht geöffnet hast.', wide: true },
    ],
    formula: [
      'block[i] = HMAC-SHA256(Server-Seed, "Client-Seed:i"), je acht 32-Bit-Zahlen (Big-Endian), r = Wert / 2^32. Fisher-Yates über die Leiter: für i von Anzahl − 1 bis 1 ist j = floor(r × (i + 1)). Koffer k erhält den Leitereintrag order[k].',
    ],
    async build(v, ctx) {
      const size = intValue(v.size);
      const round = { op: 'ladder.shuffle', clientSeed: v.clientSeed, size };
      const ladder = readLadder(v, size);
      const seen = splitAmountsOrPlaces(v.observed, ladder);
      let observed;
      if (seen.length) {
        const derived = await ctx.execute({ ...round, serverSeed: v.serverSeed });
        if (derived.error) return { epoch: { commit: v.commit, serverSeed: v.serverSeed, rounds: [round] }, ladder };
        observed = { order: seen.map((s, k) => ladderIndex(s, k, derived.ok.order, ladder)) };
      }
      return { epoch: { commit: v.commit, serverSeed: v.serverSeed, rounds: [{ ...round, ...(observed ? { observed } : {}) }] }, ladder };
    },
  },
  {
    id: 'strategy',
    tab: 'Basisstrategie',
    unit: ['Entscheidung', 'Entscheidungen'],
    opFor: () => 'blackjack.strategy',
    title: 'Basisstrategie (Blackjack)',
    intro: 'Nachschlagen, was die veröffentlichte Basisstrategie der Blackjack-Tische in einer Lage spielt: deine Karten gegen die offene Karte des Dealers. Gegen diese Tabelle ist der ausgewiesene Hausvorteil gemessen. Hier gibt es keinen Seed und kein Zufall: dieselbe Lage ergibt immer dieselbe Entscheidung.',
    legends: ['Die Lage am Tisch', 'Gespielte oder empfohlene Aktion (zum Vergleichen)'],
    fields: [
      { name: 'cards', label: 'Meine Karten', kind: 'text', hint: 'Wo: deine Hand am Tisch. Mindestens zwei Karten, z. B. „A♠ 7♥“ oder „AS 7H“; Zahlen sind Kartennummern 0 bis 51, wie der Betreiber sie schreibt (0 = A♣, 12 = K♣, 13 = A♦ …).' },
      { name: 'dealer', label: 'Dealerkarte (offen)', kind: 'text', hint: 'Wo: die offene Karte des Dealers. Eine Karte wie „6“, „K“, „A“ oder „K♠“, oder ihr Zählwert 2 bis 11 (Ass = 11).' },
      { name: 'canDouble', label: 'Verdoppeln erlaubt', kind: 'check', value: 'true', hint: 'Nur auf die ersten zwei Karten.' },
      { name: 'canSplit', label: 'Teilen erlaubt', kind: 'check', value: 'false', hint: 'Nur bei einem Paar: zwei Karten gleichen Zählwerts, auch K und 10.' },
      { name: 'doubleAfterSplit', label: 'Verdoppeln nach Teilen', kind: 'check', value: 'true', hint: 'Die Tischregel (DAS); ändert in dieser Tabelle keine Entscheidung.' },
    ],
    observe: [
      { name: 'observed', label: 'Aktion', kind: 'text', hint: 'Optional, zum Vergleichen: „teilen“, „verdoppeln“, „stehen“ oder „ziehen“ (auch „Split“, „Double“, „Stand“, „Hit“), z. B. was ein Hinweis am Tisch oder eine Strategiekarte für diese Lage sagt.' },
    ],
    formula: [
      'Die Entscheidung ist die der Funktion „basisstrategie“, die der Betreiber auf seiner Transparenzseite veröffentlicht: die Basisstrategie für die Regeln der Blackjack-Tische – 6 Decks, der Dealer zieht auf Soft 17 (H17), Verdoppeln nach Teilen erlaubt (DAS), keine Aufgabe (kein Surrender), Blackjack zahlt 6:5. Die 6:5-Auszahlung ändert keine Entscheidung, nur die Höhe des Blackjack-Gewinns.',
      'Gelesen wird wie am Tisch: erst die Paare (nur wenn Teilen erlaubt ist), dann Soft-Hände (ein Ass zählt 11), dann harte. Ass 1 oder 11, Zehn und Bilder 10; zwei Karten gleichen Zählwerts sind ein Paar, auch K und 10. Die Dealerkarte zählt mit ihrem Zählwert 2 bis 11 (Ass = 11).',
      'So rechnet die veröffentlichte Funktion, und so rechnet diese Seite: A,A ohne Teilen (Soft 12) wird wie Hart 12 gespielt (Stehen gegen 4 bis 6), und „Verdoppeln nach Teilen“ ändert keine Antwort.',
      'Karte c: Rang = c mod 13 (0 = Ass, 9 = Zehn, 10 bis 12 = J Q K), Farbe = c div 13 (♣ ♦ ♥ ♠), wie bei Casino-Poker.',
    ],
    mismatchHead: '✗ Die Aktion ist nicht die der veröffentlichten Tabelle',
    unobservedHint: 'Trag unten eine Aktion ein, die du vergleichen willst (z. B. was ein Hinweis am Tisch sagt): dann sagt die Seite, ob sie zur Tabelle passt.',
    async build(v) {
      const { cards, numbered } = readHand(v.cards);
      const round = { op: 'blackjack.strategy', cards, dealer: readDealer(v.dealer), canDouble: v.canDouble === 'true', canSplit: v.canSplit === 'true', doubleAfterSplit: v.doubleAfterSplit === 'true' };
      const action = readAction(v.observed);
      // The op takes no secret: the epoch holds the round alone (docs/proofs.md).
      return { epoch: { commit: null, rounds: [{ ...round, ...(action ? { observed: { action } } : {}) }] }, numbered };
    },
  },
  // The schemes' own panels (views.mjs: web/stake.mjs for Stake's games).
  ...SCHEME_GAMES,
];

function readDie(t) {
  if (UNKNOWN.has(t)) return null;
  const faces = '⚀⚁⚂⚃⚄⚅';
  if (/^[1-6]$/.test(t)) return { face: Number(t) };
  if (t.length === 1 && faces.includes(t)) return { face: faces.indexOf(t) + 1 };
  const m = /^(?:t|tg|telegram)([1-6])?$/iu.exec(t);
  if (m) return { telegram: true, face: m[1] ? Number(m[1]) : undefined };
  return refuse(`„${t}“ ist keine Augenzahl (1 bis 6, „?“ für unbekannt, „T“ für einen Telegram-Wurf).`, 'observed');
}

// ---------------------------------------------------------------------------
// The basic strategy's situation as a player types it

/** Rank letters and words (German and English), each as the letter a card is written with. */
const RANK_WORDS = new Map([
  ...['a', 'ass', 'ace'].map((w) => [w, 'A']),
  ...['k', 'könig', 'koenig', 'king'].map((w) => [w, 'K']),
  ...['d', 'dame', 'q', 'queen'].map((w) => [w, 'Q']),
  ...['b', 'bube', 'j', 'jack'].map((w) => [w, 'J']),
  ...['t', 'zehn', 'ten'].map((w) => [w, 'T']),
]);
const countValue = (card) => (card % 13 === 0 ? 11 : Math.min((card % 13) + 1, 10));

/** The hand: cards in CURSOR numbering, and the tokens that were card numbers (a "7" is 8♣). */
function readHand(text) {
  const seen = tokens(text);
  if (!seen.length) refuse('Bitte deine Karten eintragen, z. B. „A♠ 7♥“ oder „AS 7H“.', 'cards');
  const numbered = [];
  const cards = seen.map((t) => {
    if (UNKNOWN.has(t)) refuse(`„${t}“: Für die Entscheidung zählt jede Karte der Hand; bitte alle eintragen.`, 'cards');
    const letter = RANK_WORDS.get(t.toLowerCase());
    // A suit never changes the decision, but a card without one is no card of the shoe.
    if (letter) refuse(`„${t}“: bitte mit Farbe schreiben, z. B. „${letter}♠“ oder „${letter}S“. Eine Zahl allein ist eine Kartennummer (0 bis 51).`, 'cards');
    if (/^\d+$/.test(t)) numbered.push(t);
    return handCard(t);
  });
  if (cards.length === 1) refuse('„Meine Karten“: eine Hand hat mindestens zwei Karten, eingetragen ist eine.', 'cards');
  return { cards, numbered };
}

/** The up-card's count value 2 … 11 from a card ("K♠"), a rank ("K", "Dame", "A") or a count value ("10", "11"; "1" is the ace). */
function readDealer(text) {
  const t = (text ?? '').trim();
  if (t === '') refuse('Bitte die offene Karte des Dealers eintragen, z. B. „6“, „K“ oder „A“.', 'dealer');
  const card = parseCard(CURSOR, t);
  if (card !== null) return countValue(card);
  const letter = RANK_WORDS.get(t.toLowerCase());
  if (letter) return letter === 'A' ? 11 : 10;
  if (/^\d+$/.test(t) && Number(t) >= 1 && Number(t) <= 11) return Number(t) === 1 ? 11 : Number(t);
  return refuse(`„${t}“ ist keine Dealerkarte: eine Karte wie „6“, „K“, „A“ oder „K♠“, oder ihr Zählwert 2 bis 11 (Ass = 11).`, 'dealer');
}

/** German and English names of the four actions, as players write them. */
const ACTION_WORDS = new Map([
  ...['teilen', 'split', 'splitten', 'spalten'].map((w) => [w, 'teilen']),
  ...['verdoppeln', 'double', 'doppeln', 'doubeln', 'verdoppelt'].map((w) => [w, 'verdoppeln']),
  ...['stehen', 'stand', 'steht', 'halten', 'stehenbleiben', 'stehen bleiben', 'keine karte'].map((w) => [w, 'stehen']),
  ...['ziehen', 'hit', 'zieht', 'karte', 'noch eine karte'].map((w) => [w, 'ziehen']),
]);

/** The observed action in the op's words, or undefined when nothing was typed. */
function readAction(text) {
  const t = (text ?? '').trim().toLowerCase().replace(/\s+/g, ' ');
  if (t === '' || UNKNOWN.has(t)) return undefined;
  const action = ACTION_WORDS.get(t);
  if (!action) refuse(`„${text.trim()}“ ist keine Aktion: „teilen“, „verdoppeln“, „stehen“ oder „ziehen“ (auch „Split“, „Double“, „Stand“, „Hit“).`, 'observed');
  return action;
}

async function buildTable(v, ctx) {
  const round = { op: 'cursor.shuffle', ...clientOrSeats(v), nonce: intValue(v.nonce), cursor: 0, count: 312 };
  const seen = fromStart(v, cursorCard);
  let observed;
  if (seen) {
    const request = { ...round, serverSeed: v.serverSeed };
    if (request.seats) {
      try {
        request.clientSeed = seatSeed(request.seats);
      } catch {
        return { epoch: { commit: v.commit, serverSeed: v.serverSeed, rounds: [round] } };
      }
      delete request.seats;
    }
    const derived = await ctx.execute(request);
    if (derived.error) return { epoch: { commit: v.commit, serverSeed: v.serverSeed, rounds: [round] } };
    // A card seen where the shoe has that card is that shoe position; any
    // other card is the position of its first copy, which differs.
    observed = { order: seen.map((c, k) => (c === null ? null : tableCard(derived.ok.order[k] ?? -1) === c ? derived.ok.order[k] : c)) };
  }
  return { epoch: { commit: v.commit, serverSeed: v.serverSeed, rounds: [{ ...round, ...(observed ? { observed } : {}) }] } };
}

/** The ladder's amounts if typed (and as many as there are cases), else null with a note. */
function readLadder(v, size) {
  const entries = splitAmounts(v.ladder ?? '');
  if (!entries.length) return null;
  const amounts = entries.map((text) => {
    const value = parseAmount(text);
    if (value === null) refuse(`Leiter: „${text}“ ist kein Betrag. Beispiele: „0,01 €“, „1.000.000“, „1 000 000“.`, 'ladder');
    return { text, value };
  });
  if (Number.isSafeInteger(size) && amounts.length !== size) {
    refuse(`Die Leiter hat ${plural(amounts.length, 'Eintrag', 'Einträge')}, es gibt aber ${plural(size, 'Koffer', 'Koffer')}. Bitte alle Gewinne eintragen oder die Leiter leer lassen.`, 'ladder');
  }
  return amounts;
}

function splitAmountsOrPlaces(text, ladder) {
  const t = (text ?? '').trim();
  if (!t) return [];
  const parts = ladder ? splitAmounts(t) : tokens(t);
  return parts.map((p) => {
    if (UNKNOWN.has(p)) return null;
    if (ladder) {
      const value = parseAmount(p);
      if (value === null) refuse(`„${p}“ ist kein Betrag.`, 'observed');
      if (!ladder.some((a) => a.value === value)) refuse(`${formatAmount(value)} steht nicht in der Leiter.`, 'observed');
      return { value };
    }
    if (!/^\d+$/.test(p) || Number(p) < 1) refuse(`„${p}“ ist kein Leiterplatz: die Plätze beginnen bei 1.`, 'observed');
    return { place: Number(p) };
  });
}

/** The ladder index an observed case content stands for (the derived one if it shows the same amount). */
function ladderIndex(s, k, order, ladder) {
  if (s === null) return null;
  if (!ladder) return s.place - 1;
  const d = order[k];
  if (d !== undefined && ladder[d].value === s.value) return d;
  return ladder.findIndex((a) => a.value === s.value);
}

/** A card of a game as { text, red } for a chip. */
export const faces = {
  shoe: (label) => cardFace(SHOE, label),
  cursor: (c) => cardFace(CURSOR, c),
  numpy: (c) => cardFace(NUMPY, c),
  table: (i) => cardFace(CURSOR, tableCard(i)),
};

export { InputError };
