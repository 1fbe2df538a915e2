// Everything the page says in German: field names, plurals, numbers, and the
// engine's and the proof checker's English messages put into German. The
// code behind the page (reference/js) speaks English to programs; players
// read this. An op may name its own fields (its declaration's page.fields,
// names.mjs); the names here come first.

import { DECLARED_FIELDS } from './names.mjs';

/** The German name of a request, answer or proof field. */
export const FIELD_NAMES = Object.freeze({
  serverSeed: 'Server-Seed',
  clientSeed: 'Client-Seed',
  nonce: 'Nonce',
  cursor: 'Zähler in der Runde',
  range: 'Spanne',
  count: 'Anzahl',
  players: 'Spieler',
  decks: 'Decks',
  penetration: 'Anteil bis zur Cut-Card',
  tournamentId: 'Turnierkennung',
  hand: 'Handindex',
  n: 'Wurfnummer',
  seed: 'Seed',
  size: 'Anzahl Koffer',
  cards: 'Karten',
  cut: 'Cut-Card',
  face: 'Augenzahl',
  order: 'Reihenfolge',
  deck: 'Stapel',
  hole: 'Handkarten',
  board: 'Board',
  value: 'Zahl',
  cursorNext: 'nächster Zähler',
  float: 'Kommazahl',
  raw: 'Zufallswert',
  hash: 'SHA-256',
  commit: 'Commitment',
  seats: 'Platz-Seeds',
  external: 'extern',
  op: 'Rechnung',
  round: 'Runde',
  id: 'id',
  proof: 'Version',
  title: 'Titel',
  epochs: 'Seeds',
  rounds: 'Runden',
  category: 'Kategorie',
  ranks: 'Ränge',
  observed: 'gesehen',
  protocol: 'Protokoll',
  dealer: 'Dealerkarte',
  canDouble: 'Verdoppeln erlaubt',
  canSplit: 'Teilen erlaubt',
  doubleAfterSplit: 'Verdoppeln nach Teilen',
  action: 'Aktion',
  // Stake (web/stake.mjs)
  roll: 'Zahl', multiplier: 'Multiplikator', path: 'Weg der Kugel', bucket: 'Fach', rows: 'Reihen', risk: 'Risiko',
  pocket: 'Feld', segments: 'Segmente', segment: 'Segment', hits: 'gezogene Zahlen', mines: 'Minen', tiles: 'Felder mit Minen',
  player: 'Karten des Spielers', banker: 'Karten der Bank', winner: 'Gewinner', gems: 'Diamanten', floats: 'Kommazahlen',
  salt: 'Salt', crashPoint: 'Crash bei', terminatingHash: 'letzter Hash der Kette', limit: 'höchstens Schritte', distance: 'Schritte',
  // Crash histories (docs/proofs.md) and the crash family's fields (web/crash.mjs)
  chain: 'Kette', game: 'Spiel', link: 'Verkettung', firstGame: 'erstes Spiel der Kette', variant: 'Variante',
  divisor: 'Sofort-Crash-Teiler', instant: 'Sofort-Crash-Punkt', bcgame: 'BC.Games Rundung', number: 'Spielnummer', history: 'Verlauf', previous: 'voriger Hash',
});

/** „Server-Seed“; `observed.cards` is „gesehen: Karten“. */
export function fieldName(field) {
  if (field === null || field === undefined) return 'Text';
  const [head, ...rest] = String(field).split('.');
  if (head === 'observed' && rest.length) return `gesehen: ${fieldName(rest.join('.'))}`;
  if (head === 'chain' && rest.length) return `Kette: ${fieldName(rest.join('.'))}`;
  if (head === 'variant' && rest.length) return `Variante: ${fieldName(rest.join('.'))}`;
  return FIELD_NAMES[field] ?? FIELD_NAMES[head] ?? DECLARED_FIELDS[field] ?? DECLARED_FIELDS[head] ?? field;
}

/** "1 Karte", "2 Karten", with German digit grouping. */
export function plural(n, one, many) {
  return `${formatInt(n)} ${n === 1 || n === 1n ? one : many}`;
}

/** 1234567 -> "1.234.567" (also for BigInt). */
export function formatInt(n) {
  const s = String(n);
  const neg = s.startsWith('-');
  const digits = neg ? s.slice(1) : s;
  if (!/^\d+$/.test(digits)) return s;
  return (neg ? '-' : '') + digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
}

const QUOTE = (s) => `„${s}“`;

// The engine's messages (validate.mjs, the schemes) and the proof checker's
// reasons (proof.mjs), each with its German form. The first that fits wins;
// `f` is the field's German name, `field` the field itself.
const RULES = [
  // A round its op refuses (proofs.md rule 10): the op's own message, for the field it names.
  [/^\S+ refuses the round: (.*)$/s, (m, f, field) => germanReason(field, m[1])],
  [/^missing field ([^\s:]+)(?::.*)?$/s, (m) => `${QUOTE(fieldName(m[1]))} fehlt.`],
  [/^is missing$/, (m, f) => `${QUOTE(f)} fehlt.`],
  [/^unknown field "([^"]+)".*$/s, (m) => `${QUOTE(m[1])} ist hier kein Feld.`],
  [/^is not a field of this op$/, (m, f) => `${QUOTE(f)} gehört nicht zu dieser Rechnung.`],
  [/^must be a string(?:,| of decimal digits,)? (?:got|not) (.+)$/s, (m, f) => `${QUOTE(f)} muss Text sein, nicht ${what(m[1])}.`],
  [/^must be an integer(?: in 0\.\.=2\^53-1)?,? (?:got|not) (.+)$/s, (m, f) => `${QUOTE(f)} muss eine ganze Zahl sein, nicht ${what(m[1])}.`],
  [/^must be a number, (?:got|not) (.+)$/s, (m, f) => `${QUOTE(f)} muss eine Zahl sein, nicht ${what(m[1])}.`],
  [/^must be an array, (?:got|not) (.+)$/s, (m, f) => `${QUOTE(f)} muss eine Liste sein, nicht ${what(m[1])}.`],
  [/^must be a list(?: of [^,]+)?, not (.+)$/s, (m, f) => `${QUOTE(f)} muss eine Liste sein, nicht ${what(m[1])}.`],
  [/^must be a list of \{"player", "seed"\} objects, not (.+)$/s, (m) => `Die Platz-Seeds müssen eine Liste von {"player", "seed"} sein, nicht ${what(m[1])}.`],
  [/^must be true or false, got (.+)$/s, (m, f) => `${QUOTE(f)} muss true oder false sein, nicht ${what(m[1])}.`],
  [/^(-?[\d.e+]+) is below the minimum (-?\d+)$/, (m, f) => `${QUOTE(f)}: ${num(m[1])} liegt unter dem kleinsten erlaubten Wert ${num(m[2])}.`],
  [/^(-?[\d.e+]+|"[^"]*") is above the limit (\d+)$/, (m, f) => `${QUOTE(f)}: ${num(m[1])} liegt über dem größten erlaubten Wert ${num(m[2])}.`],
  [/^(\d+) is above 2\^53-1$/, (m, f) => `${QUOTE(f)}: ${num(m[1])} ist zu groß (höchstens 9.007.199.254.740.991).`],
  [/^(-?[\d.e+]+) is not strictly between (\S+) and (\S+)$/, (m, f) => `${QUOTE(f)}: ${dec(m[1])} muss größer als ${dec(m[2])} und kleiner als ${dec(m[3])} sein.`],
  [/^(-?[\d.e+]+) is outside (\d+)\.\.=(\d+)$/, (m, f) => `${QUOTE(f)}: ${num(m[1])} liegt nicht zwischen ${num(m[2])} und ${num(m[3])}.`],
  [/^(-?[\d.e+]+) is below (\d+)$/, (m, f) => `${QUOTE(f)}: ${num(m[1])} liegt unter ${num(m[2])}.`],
  [/^(.+) is outside the range of the field$/, (m, f) => `${QUOTE(f)}: ${dec(m[1])} liegt außerhalb des erlaubten Bereichs.`],
  [/^lone surrogate U\+([0-9A-F]+) at index (\d+) is not a Unicode scalar value$/, (m, f) => `${QUOTE(f)} enthält an Stelle ${Number(m[2]) + 1} ein einzelnes Ersatzzeichen (U+${m[1]}), das kein gültiges Unicode-Zeichen ist.`],
  [/^"(.*)…?" is not plain decimal digits.*$/s, (m, f) => `${QUOTE(f)}: „${m[1]}“ ist keine reine Dezimalzahl (ohne Vorzeichen, ohne führende Nullen, ohne Leerzeichen).`],
  [/^must hold (\d+) to (\d+) cards, got (\d+)$/, (m, f) => `${QUOTE(f)}: ${m[1]} bis ${m[2]} Karten nötig, eingetragen sind ${m[3]}.`],
  [/^card (\d+) appears twice$/, (m, f) => `${QUOTE(f)}: Karte ${m[1]} kommt doppelt vor.`],
  [/^card (\d+) appears more than (\d+) times$/, (m, f) => `${QUOTE(f)}: Kartennummer ${m[1]} kommt öfter als ${m[2]}-mal vor; ein Schuh aus ${m[2]} Decks hat jede Karte nur ${m[2]}-mal.`],
  [/^(-?\d+) is not a card \(0 to 51\)$/, (m, f) => `${QUOTE(f)}: ${m[1]} ist keine Kartennummer (0 bis 51).`],
  [/^the hand is bust \(hard total (\d+)\); there is no decision to make$/, (m) => `Die Hand hat mehr als 21 (hart ${m[1]}): da gibt es nichts mehr zu entscheiden.`],
  [/^true with (\d+) cards; doubling is only allowed on the first two cards$/, (m, f) => `${QUOTE(f)} ist gesetzt, die Hand hat aber ${m[1]} Karten: verdoppeln darf man nur auf die ersten zwei Karten.`],
  [/^true with (\d+) cards; only a two-card pair can be split$/, (m, f) => `${QUOTE(f)} ist gesetzt, die Hand hat aber ${m[1]} Karten: teilen lässt sich nur ein Paar aus zwei Karten.`],
  [/^true but the cards are not a pair \(count values (\d+) and (\d+)\)$/, (m, f) => `${QUOTE(f)} ist gesetzt, die Karten sind aber kein Paar (Zählwerte ${m[1]} und ${m[2]}); teilen lässt sich nur ein Paar.`],
  [/^must be one of (.+), got (.+)$/s, (m, f) => `${QUOTE(f)} muss einer der Werte ${m[1]} sein, nicht ${what(m[2])}.`],
  [/^"(.*)" is not 64 lowercase hex digits$/s, (m, f) => `${QUOTE(f)}: „${m[1]}“ sind nicht 64 Zeichen 0–9 und a–f.`],
  [/^limbo: the float is 0, .*$/s, () => 'Limbo: die Kommazahl ist 0; die veröffentlichte Formel teilt dann durch null.'],
  [/^the terminating hash is not within (\d+) SHA-256 steps of the hash$/, (m) => `Der letzte Hash der Kette ist vom Hash der Runde aus nicht in ${num(m[1])} Schritten zu erreichen.`],
  [/^this target speaks version (\d+), not (.+)$/, (m, f) => `${QUOTE(f)}: nur Version ${m[1]} wird verstanden, nicht ${m[2]}.`],
  [/^appears twice$/, (m, f) => `${QUOTE(f)} steht zweimal da.`],
  [/^a round is a request without id$/, () => 'Eine Runde trägt keine „id“.'],
  [/^(\S+) answers a commitment; it is not a round$/, (m) => `${m[1]} berechnet ein Commitment und ist keine Runde.`],
  [/^"(.*)" is not an op a round can hold$/, (m) => `„${m[1]}“ ist keine Rechnung, die eine Runde haben kann.`],
  [/^belongs to the epoch, not to the round$/, (m, f) => `${QUOTE(f)} gehört zum Seed-Abschnitt, nicht zur Runde.`],
  [/^is missing: the epoch holds no (\S+) for this (\S+) round$/, (m) => `Der ${fieldName(m[1])} fehlt: der Seed-Abschnitt hat keinen für diese Runde (${m[2]}).`],
  [/^a (\S+) round takes its committed secret as "(\w+)"; this epoch carries "(\w+)"$/, (m) => `Eine Runde ${m[1]} braucht ${QUOTE(fieldName(m[2]))}; dieser Seed-Abschnitt hat ${QUOTE(fieldName(m[3]))}.`],
  [/^(\S+) has no clientSeed for seats to stand for$/, (m) => `${m[1]} hat keinen Client-Seed, für den Platz-Seeds stehen könnten.`],
  [/^give clientSeed or seats, not both$/, () => 'Entweder Client-Seed oder Platz-Seeds, nicht beides.'],
  [/^must be an object \{"player": …, "seed": …\}, not (.+)$/s, (m) => `Ein Platz muss {"player": …, "seed": …} sein, nicht ${what(m[1])}.`],
  [/^"(.*)" is not a field of a seat$/, (m) => `„${m[1]}“ gehört nicht zu einem Platz (nur player und seed).`],
  [/^player: is missing$/, () => 'Beim Platz fehlt die Spielernummer („player“).'],
  [/^seed: is missing$/, () => 'Beim Platz fehlt der Seed („seed“).'],
  [/^player: (\d+) is above 2\^53-1$/, (m) => `Spielernummer ${num(m[1])} ist zu groß (höchstens 9.007.199.254.740.991).`],
  [/^player: must be an integer in 0\.\.=2\^53-1, not (.+)$/s, (m) => `Die Spielernummer muss eine ganze Zahl ab 0 sein, nicht ${what(m[1])}.`],
  [/^seed: must be a string, not (.+)$/s, (m) => `Der Platz-Seed muss Text sein, nicht ${what(m[1])}.`],
  [/^player (\d+) sits twice \(seats (\d+) and (\d+)\)$/, (m) => `Spieler ${m[1]} sitzt zweimal da (Platz ${Number(m[2]) + 1} und ${Number(m[3]) + 1}).`],
  [/^must be a string \(the reason\), not (.+)$/s, (m) => `„extern“ muss einen Grund als Text nennen, nicht ${what(m[1])}.`],
  [/^must be a reason of 1 to (\d+) characters$/, (m) => `„extern“ muss einen Grund von 1 bis ${m[1]} Zeichen nennen.`],
  [/^must be an object of (\S+) fields, not (.+)$/s, (m) => `„gesehen“ muss ein Objekt mit Feldern von ${m[1]} sein, nicht ${what(m[2])}.`],
  [/^is not a field of (\S+)'s answer \((.*)\)$/, (m, f) => `${QUOTE(f)}: ${m[1]} liefert dieses Feld nicht (nur ${m[2]}).`],
  [/^is null: leave out a field.*$/s, (m, f) => `${QUOTE(f)} ist null: ein nicht gesehenes Feld einfach weglassen (null nur für einzelne Einträge einer Liste).`],
  [/^(?:item [\d, item]+: )?must be text matching \^\[A2-9TJQK\]\[SHDC\]\$, not (.+)$/s, (m, f) => `${QUOTE(f)}: ${what(m[1])} ist keine Karte wie „AS“ oder „TD“.`],
  [/^(?:item [\d, item]+: )?must be text matching .+, not (.+)$/s, (m, f) => `${QUOTE(f)}: ${what(m[1])} hat nicht die erwartete Form.`],
  [/^(?:item [\d, item]+: )?"(.*)" is not one of (.+)$/s, (m, f) => `${QUOTE(f)}: „${m[1]}“ ist keiner der Werte ${m[2]}.`],
  [/^(?:item [\d, item]+: )?must be (?:a string|an integer|a number|a list), not (.+)$/s, (m, f) => `${QUOTE(f)}: ${what(m[1])} hat nicht die erwartete Art.`],
  [/^item ([\d, item]+): (\d+) is outside (\d+)\.\.=(\d+)$/, (m, f) => `${QUOTE(f)}: ${m[2]} liegt nicht zwischen ${m[3]} und ${m[4]}.`],
  [/^must be 64 hex characters \(a SHA-256\) or null, not (.+)$/s, (m) => `Das Commitment muss 64 Hex-Zeichen lang sein (ein SHA-256), nicht ${what(m[1])}.`],
  [/^the epoch has no (.+) to check it against$/, () => 'Der Seed-Abschnitt hat keinen Seed, gegen den sich das Commitment prüfen ließe.'],
  [/^an epoch carries one secret; this one has "(\w+)" already$/, (m) => `Ein Seed-Abschnitt hat genau einen Seed; dieser hat schon ${QUOTE(fieldName(m[1]))}.`],
  [/^is not a field of an epoch .*$/s, (m, f) => `${QUOTE(f)} gehört nicht zu einem Seed-Abschnitt (erlaubt: commit, serverSeed, seed, chain, rounds).`],
  [/^is not a field of a proof document .*$/s, (m, f) => `${QUOTE(f)} gehört nicht zu einem Nachweis (erlaubt: proof, title, epochs).`],
  [/^version (.+) is not one this reader knows .*$/s, (m) => `Nachweis-Version ${m[1]} ist unbekannt; gelesen werden die Versionen 1 und 2.`],
  // Crash histories (docs/proofs.md, "Crash histories"; reference/js/proof/chain.mjs)
  [/^must be an object \{terminatingHash, .*\}, not (.+)$/s, (m) => `Die Kette muss ein Objekt mit terminatingHash, link, firstGame, salt und variant sein, nicht ${what(m[1])}.`],
  [/^is not a field of a chain \(.*\)$/s, (m, f) => `${QUOTE(f)} gehört nicht zu einer Kette (erlaubt: terminatingHash, link, firstGame, salt, variant).`],
  [/^must be 64 lowercase hex characters \(the hash committed to before the first game\), not (.+)$/s, (m) => `Der Endhash der Kette muss 64 Zeichen 0–9 und a–f haben (klein geschrieben), nicht ${what(m[1])}.`],
  [/^must be "text" or "bytes", not (.+)$/s, (m) => `Die Verkettung muss „text“ (SHA-256 des Hashs als Hex-Text) oder „bytes“ (der 32 Bytes) sein, nicht ${what(m[1])}.`],
  [/^must be an object: the game's op and its fields but salt and hash, not (.+)$/s, (m) => `Die Variante muss ein Objekt sein – die Rechnung des Spiels und ihre Felder außer Salt und Hash –, nicht ${what(m[1])}.`],
  [/^must name the game's op \((.*)\), not (.+)$/s, (m) => `Die Variante muss die Rechnung eines Crash-Spiels nennen (${m[1]}), nicht ${what(m[2])}.`],
  [/^is not a field of the variant: .*$/s, (m, f) => `${QUOTE(f)} gehört nicht in die Variante: der Hash steht bei jedem Spiel, das Salt bei der Kette.`],
  [/^a crash history is committed to by chain\.terminatingHash.*$/s, () => 'Ein Crash-Verlauf hat kein eigenes Commitment: jeder Hash wird gegen den Endhash der Kette geprüft.'],
  [/^is not a field of a game \(.*\)$/s, (m, f) => `${QUOTE(f)} gehört nicht zu einem Spiel (erlaubt: game, hash, observed).`],
  [/^(\d+) is before the chain's first game, (\d+)$/, (m) => `Spiel ${num(m[1])} liegt vor dem ersten Spiel der Kette (${num(m[2])}).`],
  [/^(\d+) is (\d+) links from the terminating hash: .*$/s, (m) => `Spiel ${num(m[1])} liegt ${num(m[2])} Schritte vor dem Endhash; eine Kette dieser Art hat höchstens 10.000.000 Spiele.`],
  [/^the crash history has more than .*$/s, () => 'Dieser Crash-Verlauf ist zu zerstückelt, um ihn weiter zu verfolgen: ob danach Spiele doppelt vorkommen, prüft die Seite nicht mehr.'],
  [/^toPrecision\(9\) rounds X to 1.*$/s, () => 'BC.Games Rundung macht X hier zu 1: BC.Games Seite teilt dann durch null und zeigt „Infinity“.'],
  [/^an epoch must be a JSON object, not (.+)$/s, (m) => `Ein Seed-Abschnitt muss ein JSON-Objekt sein, nicht ${what(m[1])}.`],
  [/^must be a JSON object, not (.+)$/s, (m) => `Eine Runde muss ein JSON-Objekt sein, nicht ${what(m[1])}.`],
  [/^not JSON: the (?:line|text) is not UTF-8$/, () => 'Kein gültiges JSON: der Text ist nicht UTF-8-kodiert.'],
  [/^not JSON: .* at character (\d+)$/s, (m) => `Kein gültiges JSON (Zeichen ${formatInt(Number(m[1]) + 1)}).`],
  [/^not JSON: .*$/s, () => 'Kein gültiges JSON.'],
  [/^(\S+) cannot be derived: die (\d+): no byte below 252.*$/s, (m) => `Wurf Nummer ${num(m[2])}: in 16 Versuchen kein Wert unter 252 (der veröffentlichte Code gäbe hier „undefined“ zurück).`],
  [/^die (\d+): no byte below 252.*$/s, (m) => `Wurf Nummer ${num(m[1])}: in 16 Versuchen kein Wert unter 252 (der veröffentlichte Code gäbe hier „undefined“ zurück).`],
  [/^(\S+) cannot be derived: (.*)$/s, (m) => `Nicht ableitbar (${m[1]}): ${germanReason(null, m[2])}`],
  [/^a request must be a JSON object.*$/s, () => 'Die Anfrage muss ein JSON-Objekt sein.'],
  [/^op (.+) is not implemented by .*$/s, (m) => `Die Rechnung ${m[1]} gibt es hier nicht.`],
  [/^internal error: .*$/s, () => 'Interner Fehler dieser Seite – bitte melden.'],
];

/** A value as an engine message shows it ("an object", "\"x\"", 1.5) in German. */
function what(text) {
  const t = text.trim();
  return {
    'an object': 'ein Objekt',
    'a list': 'eine Liste',
    'an array': 'eine Liste',
    'a string': 'Text',
    'a number': 'eine Zahl',
    'a boolean': 'ein Wahrheitswert',
    null: 'nichts (null)',
    'a list of epochs': 'eine Liste',
  }[t] ?? (t.startsWith('"') ? `„${t.slice(1, t.endsWith('"') ? -1 : undefined)}“` : dec(t));
}

const num = (s) => (/^-?\d+$/.test(s) ? formatInt(s) : s);
const dec = (s) => (/^-?\d+\.\d+$/.test(s) ? s.replace('.', ',') : num(s));

/** A reason (without its field prefix) in German, for the field `field`. */
export function germanReason(field, reason) {
  const f = fieldName(field);
  for (const [re, make] of RULES) {
    const m = re.exec(reason);
    if (m) return make(m, f, field);
  }
  return `${QUOTE(f)}: ungültige Angabe.`;
}

/** An engine error message ("nonce: 9 is above …", "missing field x: …") in German. */
export function germanError(message) {
  const m = /^([A-Za-z_$][\w$]*)(?:\[(\d+)\])?: (.*)$/s.exec(message);
  if (m && !/^(?:missing|unknown) field/.test(message)) return germanReason(m[1], m[3]);
  return germanReason(null, message);
}

// ---------------------------------------------------------------------------
// Amounts (Deal or No Deal ladders): "0,01 €", "1.000.000", "1 000 000"

const CURRENCY = /(€|EUR|\$|USD)/giu;
const SPACES = /[\s\u00a0\u202f]/u;

/**
 * The entries of a typed list of amounts. Entries are separated by line
 * breaks, ";" or "|" if there are any; else a currency sign ends (or, if the
 * text starts with one, begins) each entry; else ", " separates; else
 * white space. So "1 000 000" is one amount in a list of lines or of "€"
 * amounts, and "0,01" is always one amount (a comma with no space after it
 * is a decimal comma).
 */
export function splitAmounts(text) {
  const t = text.trim();
  if (!t) return [];
  let parts;
  if (/[\n;|\t]/.test(t)) parts = t.split(/[\n;|\t]+/);
  else if (CURRENCY.test(t)) {
    CURRENCY.lastIndex = 0;
    const prefix = /^(€|EUR|\$|USD)/iu.test(t);
    parts = prefix ? t.split(/(?=€|EUR|\$|USD)/iu) : t.split(/(?<=€|EUR|\$|USD)/iu);
  } else if (/,\s/.test(t)) parts = t.split(/,\s+/);
  else parts = t.split(/\s+/);
  CURRENCY.lastIndex = 0;
  return parts.map((p) => p.replace(/^[\s,]+|[\s,]+$/gu, '')).filter(Boolean);
}

/**
 * One amount as a number, read the German way: "0,01 €" = 0.01,
 * "1.000.000" = "1 000 000" = 1000000, "1.000,50" = 1000.5; "0.5" (a dot
 * not followed by three digits) is a decimal point. null if it is not an amount.
 */
export function parseAmount(entry) {
  let t = entry.replace(CURRENCY, '').trim();
  CURRENCY.lastIndex = 0;
  if (/^\d{1,3}(?:[\s\u00a0\u202f]\d{3})+(?:,\d+)?$/u.test(t)) t = t.replace(/[\s\u00a0\u202f]/gu, '');
  else if (SPACES.test(t)) return null;
  if (/^\d{1,3}(?:\.\d{3})+(?:,\d+)?$/.test(t)) t = t.replace(/\./g, '');
  if (/^\d+,\d+$/.test(t)) t = t.replace(',', '.');
  if (!/^\d+(?:\.\d+)?$/.test(t)) return null;
  return Number(t);
}

/** An amount for display: 1000000 -> "1.000.000", 0.01 -> "0,01". */
export function formatAmount(value) {
  const [int, frac] = String(value).split('.');
  return formatInt(int) + (frac ? `,${frac.length === 1 ? `${frac}0` : frac}` : '');
}
