// The statistics of a whole proof on the page, in German, for a player:
// what was tested ("Augenzahl bei Wurf Nummer 0"), each p-value, the
// family-wise level, and one sentence on what it means. The numbers are
// reference/js/stats/'s (the worker computes them with the check; they equal
// `provably audit --stats`, docs/statistics.md); the games' names and their
// tests' words are what each op declares (names.mjs).
//
// Kept apart from the verdict: the verdict says whether every round follows
// from its committed seed (byte equality); the statistics ask whether the
// seeds look chosen for their outcomes (seed grinding). An alarm is not a
// mismatch (the audit's exit 6, not 1), and a mismatch does not hide the
// statistics. The section is part of #proof-result, so every new input,
// which clears the result, clears it too.
//
// The words are plain functions (no DOM at import), so the node tests read
// them as a player would (web/test/units.test.mjs).

import { el } from './dom.mjs';
import { formatInt, plural } from './german.mjs';
import { opName, pageOf, stepsOf } from './names.mjs';

/** How many of the smallest p-values are listed beside the rejected tests. */
const SHOWN = 5;

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

/** A probability the German way: "0,39", "0,0046", "1,4 · 10⁻³⁴", "0". */
export function formatP(p) {
  if (p === 0) return '0';
  if (p >= 0.001) return String(Number(p.toPrecision(2))).replace('.', ',');
  const [mantissa, exponent] = p.toExponential(1).split('e');
  return `${mantissa.replace('.', ',')} · 10${[...String(Number(exponent))].map((c) => SUPERSCRIPT[c]).join('')}`;
}

/** "1 von 1.000" for a level of 0.001: how rare a false alarm is (in proofs). */
export function levelText(level) {
  const one = Math.round(1 / level);
  return Math.abs(1 / one - level) < 1e-12 * level ? `1 von ${formatInt(one)}` : `${formatP(level * 100)} von 100`;
}

const nth = (k) => `${formatInt(k + 1)}.`;

/** A family label's parameters: "shoe.deal decks=6 penetration=0.75" → ["shoe.deal", { decks: "6", penetration: "0.75" }]. */
function parse(label) {
  const [op, ...params] = label.split(' ');
  return [op, Object.fromEntries(params.map((x) => x.split('=')))];
}

/** The game a family's label names, with its configuration: "Blackjack, freie Runde (6 Decks, Schnitt bei 75 %)". */
export function familyText(label) {
  const [op, p] = parse(label);
  const game = opName(op);
  if (p.decks) return `${game} (${plural(Number(p.decks), 'Deck', 'Decks')}, Schnitt bei ${String(Math.round(Number(p.penetration) * 1000) / 10).replace('.', ',')} %)`;
  if (p.size) return `${game} (${formatInt(p.size)} Koffer)`;
  if (p.count) return `${game} (${formatInt(p.count)} Einträge)`;
  if (p.players) return `${game} (${plural(Number(p.players), 'Platz', 'Plätze')})`;
  if (p.range) return `${game} (0 bis ${formatInt(BigInt(p.range) - 1n)})`;
  if (p.rows) return `${game} (${plural(Number(p.rows), 'Reihe', 'Reihen')})`;
  if (p.segments) return `${game} (${plural(Number(p.segments), 'Segment', 'Segmente')})`;
  if (p.mines) return `${game} (${plural(Number(p.mines), 'Mine', 'Minen')})`;
  return game;
}

/** The tests every op shares: cards at positions, and the serial tests along the op's sequence. */
const SHARED = [
  [/^(rank|value) at position (\d+)$/, (m) => `Kartenwert der ${nth(Number(m[2]))} Karte`],
  [/^suit at position (\d+)$/, (m) => `Farbe der ${nth(Number(m[1]))} Karte`],
  [/^serial pairs/, (m, w) => `Paare aufeinanderfolgender ${w.steps}`],
  [/^runs: up, equal, down/, (m, w) => `Auf und Ab aufeinanderfolgender ${w.steps}`],
  [/^serial correlation/, (m, w) => `Zusammenhang aufeinanderfolgender ${w.steps}`],
];

/**
 * What one test looked at, in a player's words: "Augenzahl bei Wurf Nummer
 * 0", "Kartenwert der 1. Karte". The op's own words (its `page.tests`) come
 * first; a test no rule names keeps its name.
 */
export function testText(family, name) {
  const [op, params] = parse(family);
  const words = { formatInt, nth, plural, params, steps: stepsOf(op) };
  for (const [re, f] of [...(pageOf(op).tests ?? []), ...SHARED]) {
    const m = re.exec(name);
    if (m) return f(m, words);
  }
  return name;
}

/**
 * The state of a statistics result and its one sentence for a player:
 * { state: 'alarm' | 'clean' | 'few' | 'none', sentence, caveat } (a section whose
 * computation failed has the state 'error').
 */
export function meaningOf(s) {
  if (s.rounds === 0 && s.untested === 0 && s.tests.length === 0) {
    return { state: 'none', sentence: 'Keine Runde mit einem Zufallsergebnis, das sich zählen ließe: hier gibt es keine Statistik.', caveat: null };
  }
  if (s.tests.length === 0 && s.rounds === 0) {
    return {
      state: 'few',
      sentence: `Für diese ${plural(s.untested, 'Runde', 'Runden')} hat die Statistik keinen Test: sie zählt Mischungen und Koffer nur bis 64 Einträge und höchstens 64 verschiedene Spielarten.`,
      caveat: null,
    };
  }
  if (s.tests.length === 0) {
    return {
      state: 'few',
      sentence: `Zu wenige Runden für die Statistik: Mit ${plural(s.rounds, 'Runde', 'Runden')} kann sie noch nichts erkennen – weder etwas Auffälliges noch etwas Beruhigendes.`,
      caveat: 'Ein Test zählt erst, wenn jedes mögliche Ergebnis im Schnitt mindestens 20-mal zu erwarten ist: bei Würfeln etwa 120 Würfe derselben Wurfnummer, bei Blackjack etwa 260 Schuhe.',
    };
  }
  const first = s.tests.filter((t) => t.rejected).sort((a, b) => a.pValue - b.pValue)[0];
  if (first) {
    return {
      state: 'alarm',
      sentence: `Auffällig: „${testText(first.family, first.name)}“ fällt so einseitig aus, wie es bei ehrlich gezogenen Seeds in weniger als ${levelText(s.level)} Nachweisen vorkommt – das deutet darauf hin, dass der Betreiber Server-Seeds nach ihrem Ergebnis ausgesucht hat, ist aber kein Beweis für Betrug.`,
      caveat: 'Jede Runde folgt weiterhin aus ihrem Seed (das Urteil oben), und selten trifft es auch einen ehrlichen Nachweis. Bewahre den Nachweis auf und frag den Betreiber; je mehr Runden, desto klarer wird das Bild.',
    };
  }
  return {
    state: 'clean',
    sentence: `Nichts deutet darauf hin, dass die Server-Seeds nach ihrem Ergebnis ausgesucht wurden: alle ${plural(s.tests.length, 'Test liegt', 'Tests liegen')} im Rahmen dessen, was ehrlicher Zufall ergibt.`,
    caveat: 'Ein Beweis für faire Seeds ist das nicht: eine schwache Bevorzugung zeigt sich erst in sehr großen Nachweisen.',
  };
}

function testItem(t) {
  const pairs = /^(serial|runs)/.test(t.name);
  return el('li', { class: t.rejected ? 'stat rejected' : 'stat', 'data-rejected': t.rejected ? 'yes' : 'no', 'data-name': t.name, 'data-family': t.family },
    el('span', { class: 'stat-what' }, testText(t.family, t.name)),
    el('span', { class: 'muted' }, ` · ${familyText(t.family)} · ${pairs ? plural(t.n, 'Paar', 'Paare') : plural(t.n, 'Runde', 'Runden')}: `),
    el('span', { class: 'stat-p' }, `p = ${formatP(t.pValue)}`),
    t.rejected ? el('span', { class: 'badge mismatch' }, `auffällig (Schwelle ${formatP(t.threshold)})`) : null);
}

/** The statistics part of a checked proof (the worker's `statistics`), or null when there is nothing to count. */
export function statisticsSection(s) {
  if (!s) return null;
  if (s.error) {
    return el('section', { class: 'stats', id: 'proof-stats', 'data-state': 'error', 'aria-labelledby': 'proof-stats-title' },
      el('h3', { id: 'proof-stats-title' }, 'Statistik: wurden Seeds nach ihrem Ergebnis ausgesucht?'),
      el('p', { class: 'notice info', id: 'proof-stats-means' }, `Die Statistik ließ sich nicht berechnen (${s.error}); das Urteil oben gilt unabhängig davon. Bitte melden.`));
  }
  const m = meaningOf(s);
  if (m.state === 'none') return null;
  const byP = [...s.tests].sort((a, b) => a.pValue - b.pValue);
  const listed = [...byP.filter((t) => t.rejected), ...byP.filter((t) => !t.rejected).slice(0, SHOWN)];
  const kind = { alarm: 'warn', clean: 'ok', few: 'info' }[m.state];
  const section = el('section', { class: 'stats', id: 'proof-stats', 'data-state': m.state, 'aria-labelledby': 'proof-stats-title' },
    el('h3', { id: 'proof-stats-title' }, 'Statistik: wurden Seeds nach ihrem Ergebnis ausgesucht?'),
    el('p', { class: `notice ${kind}`, id: 'proof-stats-means' }, m.sentence),
    m.caveat ? el('p', { class: 'verdict-means', id: 'proof-stats-caveat' }, m.caveat) : null,
    el('p', { class: 'muted small', id: 'proof-stats-level' },
      `${plural(s.tests.length, 'Test', 'Tests')} über ${plural(s.rounds, 'Runde', 'Runden')}${s.notRun ? `; ${plural(s.notRun, 'weiterer Test hat', 'weitere Tests haben')} noch zu wenige Runden` : ''}${s.untested ? `; ${plural(s.untested, 'Runde', 'Runden')} ohne Test` : ''}. `
      + `Fehlalarm-Grenze: Von ehrlichen Nachweisen löst höchstens ${levelText(s.level)} den Alarm aus – über alle Tests zusammen gerechnet, nicht je Test.`),
    listed.length ? el('ol', { class: 'stats-tests', id: 'proof-stats-tests' }, ...listed.map(testItem)) : null);
  if (s.tests.length > listed.length) {
    const all = el('details', { class: 'formula', id: 'proof-stats-all' }, el('summary', {}, `Alle ${plural(s.tests.length, 'Test', 'Tests')} zeigen`));
    // Built when opened: a six-deck shoe archive has 625 tests.
    all.addEventListener('toggle', () => {
      if (all.open && all.children.length === 1) all.append(el('ol', { class: 'stats-tests' }, ...s.tests.map(testItem)));
    });
    section.append(all);
  }
  section.append(el('details', { class: 'formula' }, el('summary', {}, 'Was heißt p?'),
    el('p', {}, 'p ist die Wahrscheinlichkeit, dass ehrlicher Zufall mindestens so ungleich ausfällt wie hier. Bei so vielen Tests ist ein einzelnes kleines p noch nichts Besonderes; auffällig ist erst ein p unter seiner Schwelle. '
      + 'Die Statistik sieht, was die Byte-Prüfung nicht sehen kann: ob der Betreiber unter vielen möglichen Seeds den ausgesucht hat, der ihm passt. ',
    el('a', { href: 'spieler.html#statistik' }, 'Mehr in der Anleitung für Spieler'))));
  return section;
}
