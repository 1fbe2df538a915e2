// The verification page. Every number on it comes from reference/js (served
// at /js/), the same code the conformance harness holds to the published
// references; the page refuses to compute until that code has reproduced
// every vector of /vectors/selftest.json in this very browser.

import { CURSOR, NUMPY, SHOE, cardFace, convertCard, parseCard, rankText } from './js/cards.mjs';
import { firstDifference } from './js/compare.mjs';
import { parseJson, stringifyJson } from './js/json.mjs';
import { NAME, commitmentOf, declarations, execute, fieldsOf } from './js/provably.mjs';
import { deal as selfpokerDeal } from './js/selfpoker.mjs';

const $ = (id) => document.getElementById(id);

/** Creates an element: el('li', {class: 'x', 'data-pos': 3}, 'text', child). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

// ---------------------------------------------------------------------------
// Self-test

function pretty(value) {
  // stringifyJson keeps BigInts exact; re-indent for reading.
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
  $('selftest-total').textContent = String(tests.length);
  let passed = 0;
  let failed = 0;
  let first = null;
  for (const t of tests) {
    let got;
    try {
      // An invalid test passes when its line is refused: by the strict JSON reader or by execute().
      got = await execute(t.result === 'invalid' ? parseJson(t.line) : t.input);
    } catch (e) {
      got = { error: { kind: t.result === 'invalid' && e?.name === 'JsonSyntaxError' ? 'invalid' : 'exception', message: String(e) } };
    }
    const diff = t.result === 'invalid'
      ? (got.error?.kind === 'invalid' ? null : '(Ergebnis statt Fehler „invalid“)')
      : got.ok ? firstDifference(t.expected, got.ok) : '(Fehler statt Ergebnis)';
    if (diff === null) passed++;
    else {
      failed++;
      first ??= { t, got: got.ok ?? got, diff };
    }
    // Keep the counters moving on slow devices.
    if ((passed + failed) % 25 === 0) {
      $('selftest-passed').textContent = String(passed);
      $('selftest-failed').textContent = String(failed);
    }
  }
  $('selftest-passed').textContent = String(passed);
  $('selftest-failed').textContent = String(failed);

  const declared = Number(bundle.numberOfTests);
  if (first) {
    $('selftest-failure').hidden = false;
    $('selftest-failure-tcid').textContent = String(first.t.tcId);
    $('selftest-failure-op').textContent = `${first.t.scheme ?? ''} · ${first.t.input?.op ?? '?'}`;
    $('selftest-failure-comment').textContent = first.t.comment ?? '';
    $('selftest-failure-where').textContent = `Erste Abweichung bei: ${first.diff}`;
    $('selftest-failure-expected').textContent = pretty(first.t.expected ?? { error: { kind: 'invalid' } });
    $('selftest-failure-got').textContent = pretty(first.got);
    show('failed', `${failed} von ${tests.length} Prüfungen fehlgeschlagen — diese Seite rechnet hier nicht richtig, die Eingaben bleiben gesperrt.`);
    return false;
  }
  if (tests.length === 0 || declared !== tests.length) {
    show('failed', `Selbsttest unvollständig (${tests.length} Tests, angekündigt ${bundle.numberOfTests}) — die Eingaben bleiben gesperrt.`);
    return false;
  }
  show('passed', `${passed} von ${tests.length} Prüfungen bestanden — die Eingaben sind frei.`);
  return true;
}

// ---------------------------------------------------------------------------
// Cards and values

// Numberings, tables and card text all come from reference/js/cards.mjs.

/** Shows a card of `numbering` as a chip: { text: "10♦", red }. */
const shows = (numbering) => (card) => cardFace(numbering, card);

/** A typed card (or, where the scheme numbers cards, a card number) in `numbering`, or null. */
const reads = (numbering, { numbers }) => (t) => (numbers && /^\d+$/.test(t) ? Number(t) : parseCard(numbering, t));

const shoeObserved = reads(SHOE, { numbers: false });
const cursorObserved = reads(CURSOR, { numbers: true });

const TOKEN_SPLIT = /[\s,;]+/u;
const tokens = (text) => text.split(TOKEN_SPLIT).filter(Boolean);

// ---------------------------------------------------------------------------
// Forms

/** Integer text → Number (or BigInt past 2^53), anything else unchanged: execute() explains. */
function intValue(text) {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return t;
  const n = Number(t);
  return Number.isSafeInteger(n) ? n : BigInt(t);
}

function numberValue(text) {
  const t = text.trim().replace(',', '.');
  return t === '' || Number.isNaN(Number(t)) ? t : Number(t);
}

/** A field's declared range as a hint, e.g. "2 bis 22": the page never restates a limit. */
function between(op, name) {
  const { minimum, maximum } = declarations.get(op).fields[name].schema;
  return `${minimum} bis ${maximum}`;
}

const FIELD_DEFAULTS = {
  serverSeed: { label: 'Server-Seed', hint: 'so, wie er offengelegt wurde (als Text, nicht dekodiert)', wide: true },
  clientSeed: { label: 'Client-Seed', wide: true },
  nonce: { label: 'Nonce', kind: 'int', value: '0' },
  decks: { label: 'Decks', kind: 'int', value: '6', hint: between('shoe.deal', 'decks') },
  penetration: { label: 'Durchdringung', kind: 'number', value: '0.75', hint: 'zwischen 0 und 1' },
  commitment: { label: 'Commitment (vor dem Spiel gezeigt)', hint: 'SHA-256 als Hex; leer lassen, wenn du es nicht hast', wide: true },
};

/**
 * The panels, one per tab, looked up by id. `op` is what the panel computes
 * (its request takes the op's declared fields from the form), unless `run`
 * computes it; the op's scheme also names the commitment to check.
 */
const FIRST_TAB = 'shoe';
const SCHEMES = [
  {
    id: 'shoe',
    tab: 'Schuh',
    title: 'Fall 1 — Freie Runde (Blackjack-Schuh)',
    intro: 'Aus Server-Seed, Client-Seed und Nonce entsteht die komplette Kartenfolge des Schuhs, dazu die Position der Cut-Card. Index 0 ist die zuerst gezogene Karte.',
    fields: [
      'serverSeed', 'clientSeed', 'nonce',
      'decks', 'penetration',
      'commitment',
    ],
    op: 'shoe.deal',
    render: renderShoe,
    sequence: (ok) => ok.cards,
    observed: shoeObserved,
    observedHint: 'Karten in gezogener Reihenfolge, z. B. „AS TD 7H“ oder „A♠ 10♦ 7♥“',
  },
  {
    id: 'tournament',
    tab: 'Turnierhand',
    title: 'Fall 2 — Turnierhand',
    intro: 'Im Turnier bekommt jede Hand ihren eigenen Teil-Schuh: Client-Seed = Turnierkennung + ":" + Handindex, Nonce = Handindex. Deshalb sehen alle Bahnen in Hand k dieselben Karten.',
    fields: [
      { name: 'serverSeed', label: 'Turnier-Seed', wide: true },
      { name: 'tournamentId', label: 'Turnierkennung', wide: true },
      { name: 'hand', label: 'Handindex', kind: 'int', value: '0' },
      'decks', 'penetration',
      'commitment',
    ],
    op: 'shoe.tournament',
    render: renderShoe,
    sequence: (ok) => ok.cards,
    observed: shoeObserved,
    observedHint: 'Karten in gezogener Reihenfolge, z. B. „AS TD 7H“',
  },
  {
    id: 'cursor',
    tab: 'Cursor',
    title: 'Zahlen aus Server-Seed, Client-Seed, Nonce und Cursor',
    intro: 'raw = HMAC-SHA256(Schlüssel = Server-Seed als Text, Nachricht = "Client-Seed:Nonce:Cursor"). Daraus: float aus den ersten vier Bytes, int ohne Modulo-Verzerrung (verworfene Würfe erhöhen den Cursor), shuffle als Fisher-Yates von hinten.',
    fields: [
      { name: 'op', label: 'Rechnung', kind: 'select', options: ['cursor.shuffle', 'cursor.int', 'cursor.float', 'cursor.raw', 'cursor.hash'] },
      'serverSeed', 'clientSeed', 'nonce',
      { name: 'cursor', label: 'Cursor', kind: 'int', value: '0' },
      { name: 'range', label: 'Spanne (für int)', kind: 'int', value: '10000' },
      { name: 'count', label: 'Anzahl (für shuffle)', kind: 'int', value: '52' },
      'commitment',
    ],
    op: 'cursor.shuffle', // or the sibling chosen in the form's own `op` field
    render: renderCursor,
    sequence: (ok) => ok.order ?? [ok.value ?? ok.float ?? ok.raw ?? ok.hash],
    observed: (t) => (/^\d+$/.test(t) ? Number(t) : /^[\d.e-]+$/i.test(t) ? Number(t) : t.toLowerCase()),
    observedHint: 'für shuffle die Reihenfolge als Zahlen, sonst der eine Wert',
  },
  {
    id: 'poker',
    tab: 'Poker',
    title: 'Pokerhand austeilen und bewerten',
    intro: 'Stapel = shuffle(52) ab Cursor 0. Bei n Spielern: Lochkarten an den Positionen i und n+i, Flop 2n+1 … 2n+3, Turn 2n+5, River 2n+7 (dazwischen je eine verbrannte Karte). Rang = Karte % 13 (0 = Ass), Farbe = Karte // 13 (♣ ♦ ♥ ♠).',
    fields: [
      'serverSeed',
      { name: 'clientSeed', label: 'Client-Seed', hint: 'am Tisch: die Platz-Seeds aufsteigend nach Spielernummer, ohne Trennzeichen verkettet', wide: true },
      'nonce',
      { name: 'players', label: 'Spieler', kind: 'int', value: '6', hint: between('poker.deal', 'players') },
      'commitment',
    ],
    op: 'poker.deal',
    render: renderPoker,
    sequence: (ok) => [...ok.hole.flat(), ...ok.board],
    observed: cursorObserved,
    observedHint: 'erst die Lochkarten Spieler für Spieler, dann die fünf Boardkarten; als „A♣ 10♦“, „AC TD“ oder Kartennummern',
    extra: evaluateForm,
  },
  {
    id: 'dice',
    tab: 'Würfel',
    title: 'Würfel',
    intro: 'Würfel n: für Runde 0 … 15 ist mac = HMAC-SHA256(Server-Seed, "Client-Seed:n:Runde"); das erste Byte unter 252 ergibt Byte % 6 + 1. So rechnet der veröffentlichte JavaScript-Code, Byte für Byte.',
    fields: [
      'serverSeed',
      { name: 'clientSeed', label: 'Client-Seed', hint: 'im 1-gegen-1 die Seeds beider Spieler mit ":" verbunden', wide: true },
      { name: 'from', label: 'Erste Wurfnummer n', kind: 'int', value: '0' },
      { name: 'rolls', label: 'Anzahl Würfe', kind: 'int', value: '20', hint: 'höchstens 1000' },
      'commitment',
    ],
    op: 'dice.roll',
    run: runDice,
    render: renderDice,
    sequence: (ok) => ok.faces.map((f) => f.face),
    observed: (t) => (/^[1-6]$/.test(t) ? Number(t) : t.length === 1 && '⚀⚁⚂⚃⚄⚅'.includes(t) ? '⚀⚁⚂⚃⚄⚅'.indexOf(t) + 1 : null),
    observedHint: 'Augenzahlen in Wurfreihenfolge, z. B. „3 6 1 1 4“',
  },
  {
    id: 'selfpoker',
    tab: 'Selfpoker',
    title: 'Selfpoker — NumPy-Stapel im Browser',
    intro: 'Stapel = numpy.random.default_rng(seed).permutation(52), hier ohne Python nachgebaut (SeedSequence, PCG64, NumPys Fisher-Yates) und gegen NumPy geprüft. Spieler i hält Karte 2i und 2i+1, danach fünf Gemeinschaftskarten, ohne Burn Cards. Wert = Karte // 4 (0 = 2 … 12 = Ass), Farbe = Karte % 4 (♣ ♦ ♥ ♠).',
    fields: [
      { name: 'seed', label: 'Seed', hint: 'Feld „fairplay.seed“ aus hand_end, eine Zahl bis 2^63 − 1', wide: true, trim: true },
      { name: 'players', label: 'Spieler', kind: 'int', value: '6', hint: '1 bis 22' },
      { name: 'commitment', label: 'Commitment', hint: 'SHA-256("selfpoker:" + seed) aus den Zustandsnachrichten', wide: true },
    ],
    op: 'selfpoker.deck',
    run: runSelfpoker,
    commitLabel: 'SHA-256("selfpoker:" + Seed)',
    render: renderSelfpoker,
    sequence: (ok) => ok.deck,
    observed: reads(NUMPY, { numbers: true }),
    observedHint: 'Karten in Stapelreihenfolge (Hände, dann Board), als „A♠ 10♦“ oder Kartennummern',
  },
  {
    id: 'ladder',
    tab: 'Koffer',
    title: 'Deal or No Deal — Koffer',
    intro: 'block[i] = HMAC-SHA256(Server-Seed, "Client-Seed:i"), je acht 32-Bit-Zahlen (Big-Endian), r = Wert / 2^32. Fisher-Yates über die Leiter: j = floor(r × (i + 1)). Koffer k erhält Leitereintrag order[k].',
    fields: [
      'serverSeed', 'clientSeed',
      { name: 'size', label: 'Anzahl Koffer', kind: 'int', value: '25' },
      { name: 'ladder', label: 'Leiter (optional)', kind: 'textarea', hint: 'die Gewinne in Leiterreihenfolge, durch Leerzeichen oder Kommas getrennt — dann zeigt die Seite Beträge statt Nummern', wide: true },
      'commitment',
    ],
    op: 'ladder.shuffle',
    render: renderLadder,
    sequence: (ok, v) => ladderValues(ok, v),
    observed: (t) => t,
    observedHint: 'Inhalt von Koffer 1, 2, 3 … (Beträge, wenn oben eine Leiter steht, sonst Leiternummern ab 0)',
  },
];

function fieldSpec(f) {
  return typeof f === 'string' ? { name: f, ...FIELD_DEFAULTS[f] } : f;
}

function buildPanels() {
  const tabs = $('tabs');
  const bench = $('workbench');
  for (const scheme of SCHEMES) {
    const shown = scheme.id === FIRST_TAB;
    const tab = el('button', {
      type: 'button', role: 'tab', id: `tab-${scheme.id}`, 'data-testid': `tab-${scheme.id}`,
      'aria-controls': `panel-${scheme.id}`, 'aria-selected': shown ? 'true' : 'false',
    }, scheme.tab);
    tab.addEventListener('click', () => selectTab(scheme.id));
    tabs.append(tab);

    const form = el('form', { id: `${scheme.id}-form`, 'data-testid': `${scheme.id}-form`, novalidate: true });
    const grid = el('div', { class: 'grid' });
    for (const f of scheme.fields.map(fieldSpec)) grid.append(buildField(scheme.id, f));
    form.append(grid, el('div', { class: 'actions' },
      el('button', { type: 'submit', class: 'primary', id: `${scheme.id}-run`, 'data-testid': `${scheme.id}-run` }, 'Nachrechnen')));
    const result = el('div', { class: 'result', id: `${scheme.id}-result`, 'data-testid': `${scheme.id}-result`, 'aria-live': 'polite' });
    const verify = el('div', { class: 'verify' },
      el('h3', { text: 'Mit dem Spiel vergleichen' }),
      el('label', {}, 'Beobachtet', el('span', { class: 'hint' }, scheme.observedHint),
        el('textarea', { id: `${scheme.id}-observed`, 'data-testid': `${scheme.id}-observed`, spellcheck: 'false', autocomplete: 'off' })),
      el('div', { class: 'actions' },
        el('button', { type: 'button', class: 'secondary', id: `${scheme.id}-verify`, 'data-testid': `${scheme.id}-verify` }, 'Vergleichen')),
      el('div', { id: `${scheme.id}-verify-result`, 'data-testid': `${scheme.id}-verify-result`, 'aria-live': 'polite' }));

    const panel = el('section', {
      class: 'card panel', id: `panel-${scheme.id}`, role: 'tabpanel', 'aria-labelledby': `tab-${scheme.id}`,
      'data-testid': `panel-${scheme.id}`, hidden: !shown,
    }, el('h2', { text: scheme.title }), el('p', { class: 'panel-intro muted', text: scheme.intro }), form, result, verify);
    if (scheme.extra) panel.append(scheme.extra());
    bench.append(panel);

    const state = { scheme, last: null };
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      compute(state);
    });
    $(`${scheme.id}-verify`).addEventListener('click', () => verifyObserved(state));
  }
}

function buildField(schemeId, f) {
  const id = `${schemeId}-${f.name}`;
  let input;
  if (f.kind === 'select') {
    input = el('select', { id, 'data-testid': id, name: f.name }, ...f.options.map((o) => el('option', { value: o }, o)));
  } else if (f.kind === 'textarea') {
    input = el('textarea', { id, 'data-testid': id, name: f.name, spellcheck: 'false', autocomplete: 'off' });
  } else {
    input = el('input', {
      id, 'data-testid': id, name: f.name, type: 'text', value: f.value ?? '', spellcheck: 'false', autocomplete: 'off',
      inputmode: f.kind === 'int' ? 'numeric' : f.kind === 'number' ? 'decimal' : undefined,
      class: f.kind ? undefined : 'mono',
    });
  }
  return el('label', { class: f.wide ? 'wide' : undefined, for: id }, f.label,
    f.hint ? el('span', { class: 'hint' }, f.hint) : null, input);
}

function selectTab(id) {
  for (const s of SCHEMES) {
    const on = s.id === id;
    $(`tab-${s.id}`).setAttribute('aria-selected', on ? 'true' : 'false');
    $(`panel-${s.id}`).hidden = !on;
  }
}

function readValues(scheme) {
  const v = {};
  for (const f of scheme.fields.map(fieldSpec)) {
    const text = $(`${scheme.id}-${f.name}`).value;
    v[f.name] = f.kind === 'int' ? intValue(text) : f.kind === 'number' ? numberValue(text) : f.trim ? text.trim() : text;
  }
  return v;
}

/**
 * Recomputes a panel. The result is built off-page and swapped in whole, so
 * the page never shows half a result or one from an older click; the result
 * box carries data-run (how many runs so far) and data-state (running, done,
 * error) for anyone waiting on it.
 */
async function compute(state) {
  const { scheme } = state;
  const out = $(`${scheme.id}-result`);
  const run = (state.runs = (state.runs ?? 0) + 1);
  out.dataset.state = 'running';
  const values = readValues(scheme);
  const result = scheme.run ? await scheme.run(values) : await execute(requestOf(values.op ?? scheme.op, values));
  const next = el('div', {});
  if (result.error) {
    next.append(notice('bad', `Eingabe nicht verwendbar: ${result.error.message}`, `${scheme.id}-error`));
  } else {
    next.append(await commitmentCheck(scheme, values));
    await scheme.render(result.ok, next, values, scheme.id);
  }
  if (run !== state.runs) return; // a newer click owns the result box
  state.last = result.error ? null : { ok: result.ok, values };
  out.replaceChildren(...next.childNodes);
  $(`${scheme.id}-verify-result`).replaceChildren();
  if (state.last && $(`${scheme.id}-observed`).value.trim()) verifyObserved(state);
  out.dataset.run = String(run);
  out.dataset.state = result.error ? 'error' : 'done';
}

function notice(kind, text, testid) {
  return el('p', { class: `notice ${kind}`, 'data-testid': testid, 'data-verdict': kind }, text);
}

/** The request for `op`: its declared fields, taken from the form. */
function requestOf(op, values) {
  return { op, ...Object.fromEntries(fieldsOf(op).map((name) => [name, values[name]])) };
}

/** The scheme's own commitment of the revealed seed against the one shown before play. */
async function commitmentCheck(scheme, values) {
  const shown = (values.commitment ?? '').trim().toLowerCase();
  const c = commitmentOf(scheme.op);
  const r = await execute({ op: c.op, [c.field]: values[c.field] });
  const actual = r.ok ? r.ok[c.result] : null;
  const testid = `${scheme.id}-commit-result`;
  const box = el('div', {});
  box.append(el('dl', { class: 'kv' }, el('dt', { text: scheme.commitLabel ?? 'SHA-256 des Seeds' }),
    el('dd', { id: `${scheme.id}-commit-actual`, 'data-testid': `${scheme.id}-commit-actual`, text: actual ?? '—' })));
  if (!shown) box.append(notice('info', 'Kein Commitment eingetragen: geprüft wird nur die Folge, nicht, ob der Seed vorher festgelegt war.', testid));
  else if (shown === actual) box.append(notice('ok', '✓ Commitment passt: dieser Seed war vor dem Spiel festgelegt.', testid));
  else box.append(notice('bad', '✗ Commitment passt NICHT: der offengelegte Seed ist nicht der, auf den sich der Server vorher festgelegt hat.', testid));
  return box;
}

/** An <ol> of chips, one per position, with data-value for tests and comparison. */
function sequenceList(id, items, show, { cut } = {}) {
  const ol = el('ol', { class: 'seq', id, 'data-testid': id });
  items.forEach((item, i) => {
    const d = show(item, i);
    ol.append(el('li', {
      class: [d.red ? 'red' : '', cut === i ? 'cut' : ''].join(' ').trim() || undefined,
      'data-pos': i, 'data-value': String(item), title: `Position ${i + 1} (Index ${i})`,
    }, el('span', { class: 'pos' }, String(i + 1)), d.text));
  });
  return ol;
}

function renderShoe(ok, out, values, id) {
  out.append(
    el('p', {}, `${ok.cards.length} Karten. Cut-Card nach `, el('strong', { id: `${id}-cut`, 'data-testid': `${id}-cut`, text: String(ok.cut) }), ' Karten (vor Index ', String(ok.cut), ').'),
    sequenceList(`${id}-cards`, ok.cards, shows(SHOE), { cut: ok.cut }),
    el('p', { class: 'muted small legend', text: 'Kleine Zahl = Position in der Ziehung (ab 1). CUT markiert, wo die Cut-Card liegt.' }),
  );
}

function renderCursor(ok, out) {
  const dl = el('dl', { class: 'kv' });
  for (const [k, v] of Object.entries(ok)) {
    if (k === 'order') continue;
    dl.append(el('dt', { text: k }), el('dd', { 'data-testid': `cursor-out-${k}`, text: typeof v === 'number' ? JSON.stringify(v) : String(v) }));
  }
  out.append(dl);
  if (ok.order) out.append(sequenceList('cursor-order', ok.order, (x) => ({ text: String(x) })));
}

function cardRow(label, cards, show, extra) {
  return el('div', { class: 'hand' }, el('strong', { text: label }),
    el('span', {}, ...cards.map((c) => {
      const d = show(c);
      return el('span', { class: d.red ? 'red-suit' : undefined }, `${d.text} `);
    })), extra ? el('span', { class: 'muted', text: extra }) : null);
}

const CATEGORY_NAMES = {
  high_card: 'Höchste Karte', paar: 'Paar', zwei_paare: 'Zwei Paare', drilling: 'Drilling', strasse: 'Straße',
  flush: 'Flush', full_house: 'Full House', vierling: 'Vierling', straight_flush: 'Straight Flush',
};
const ranksText = (ranks) => ranks.filter((r) => r > 0).map(rankText).join(' ');

/** Board and hands of `numbering`, each hand rated by poker.evaluate (which counts cursor cards). */
async function handsBlock(hole, board, numbering) {
  const show = shows(numbering);
  const box = el('div', { class: 'hands', 'data-testid': 'hands' });
  box.append(cardRow('Board', board, show));
  for (const [i, cards] of hole.entries()) {
    const r = await execute({ op: 'poker.evaluate', cards: [...cards, ...board].map((c) => convertCard(numbering, CURSOR, c)) });
    const what = r.ok ? `${CATEGORY_NAMES[r.ok.category]} (${ranksText(r.ok.ranks)})` : '';
    box.append(cardRow(`Spieler ${i + 1}`, cards, show, what));
  }
  return box;
}

async function renderPoker(ok, out) {
  out.append(await handsBlock(ok.hole, ok.board, CURSOR));
  out.append(el('p', { class: 'muted small', text: 'Reihenfolge zum Vergleichen: Lochkarten Spieler 1, 2, …, dann Board.' }));
  out.append(sequenceList('poker-cards', [...ok.hole.flat(), ...ok.board], shows(CURSOR)));
}

function evaluateForm() {
  const box = el('div', { class: 'verify' },
    el('h3', { text: 'Hand bewerten' }),
    el('label', {}, 'Fünf bis sieben Karten', el('span', { class: 'hint' }, 'Kartennummern 0–51 oder „A♣ K♦ …“'),
      el('input', { id: 'poker-evaluate-cards', 'data-testid': 'poker-evaluate-cards', type: 'text', autocomplete: 'off', spellcheck: 'false' })),
    el('div', { class: 'actions' }, el('button', { type: 'button', class: 'secondary', id: 'poker-evaluate', 'data-testid': 'poker-evaluate' }, 'Bewerten')),
    el('div', { id: 'poker-evaluate-result', 'data-testid': 'poker-evaluate-result' }));
  box.querySelector('#poker-evaluate').addEventListener('click', async () => {
    const toks = tokens($('poker-evaluate-cards').value);
    const cards = toks.map((t) => cursorObserved(t) ?? t);
    const r = await execute({ op: 'poker.evaluate', cards });
    const target = $('poker-evaluate-result');
    target.replaceChildren(r.ok
      ? notice('ok', `${CATEGORY_NAMES[r.ok.category]} — ${r.ok.category} ${JSON.stringify(r.ok.ranks)}`, 'poker-evaluate-verdict')
      : notice('bad', r.error.message, 'poker-evaluate-verdict'));
  });
  return box;
}

async function runDice(v) {
  if (!Number.isSafeInteger(v.rolls) || v.rolls < 1 || v.rolls > 1000) {
    return { error: { kind: 'invalid', message: 'Anzahl Würfe: 1 bis 1000' } };
  }
  if (!Number.isSafeInteger(v.from) || v.from + v.rolls - 1 > Number.MAX_SAFE_INTEGER) {
    return { error: { kind: 'invalid', message: 'Erste Wurfnummer: eine ganze Zahl ab 0' } };
  }
  const faces = [];
  for (let n = v.from; n < v.from + v.rolls; n++) {
    const r = await execute({ op: 'dice.roll', serverSeed: v.serverSeed, clientSeed: v.clientSeed, n });
    if (r.error) return { error: { ...r.error, message: `Wurf ${n}: ${r.error.message}` } };
    faces.push({ n, face: r.ok.face });
  }
  return { ok: { faces } };
}

function renderDice(ok, out) {
  out.append(sequenceList('dice-faces', ok.faces.map((f) => f.face), (face, i) => ({ text: `${'⚀⚁⚂⚃⚄⚅'[face - 1]} ${face}` })));
  out.append(el('p', { class: 'muted small', text: `Würfe n = ${ok.faces[0].n} bis ${ok.faces.at(-1).n}.` }));
}

async function runSelfpoker(v) {
  const players = v.players;
  if (!Number.isSafeInteger(players) || players < 1 || players > 22) {
    return { error: { kind: 'invalid', message: 'Spieler: 1 bis 22' } };
  }
  const r = await execute({ op: 'selfpoker.deck', seed: v.seed });
  return r.error ? r : { ok: { deck: r.ok.deck, players } };
}

async function renderSelfpoker(ok, out) {
  const { hole, board } = selfpokerDeal(ok.deck, ok.players);
  out.append(await handsBlock(hole, board, NUMPY));
  out.append(sequenceList('selfpoker-deck', ok.deck, shows(NUMPY)));
}

function ladderValues(ok, v) {
  const ladder = tokens(v.ladder ?? '');
  return ladder.length === ok.order.length ? ok.order.map((k) => ladder[k]) : ok.order.map(String);
}

function renderLadder(ok, out, v) {
  const ladder = tokens(v.ladder ?? '');
  if (ladder.length && ladder.length !== ok.order.length) {
    out.append(notice('info', `Die Leiter hat ${ladder.length} Einträge, es gibt aber ${ok.order.length} Koffer — gezeigt werden Leiternummern.`, 'ladder-note'));
  }
  const values = ladderValues(ok, v);
  out.append(el('p', { class: 'muted small', text: 'Koffer 1, 2, 3 … und ihr Inhalt:' }));
  out.append(sequenceList('ladder-cases', values, (x) => ({ text: x })));
}

// ---------------------------------------------------------------------------
// Verify mode

/** Marks the first position where the observed sequence differs from the computed one. */
function verifyObserved(state) {
  const { scheme } = state;
  const target = $(`${scheme.id}-verify-result`);
  const testid = `${scheme.id}-verdict`;
  if (!state.last) {
    target.replaceChildren(notice('info', 'Erst oben nachrechnen, dann vergleichen.', testid));
    return;
  }
  const expected = scheme.sequence(state.last.ok, state.last.values).map(String);
  const raw = tokens($(`${scheme.id}-observed`).value);
  const observed = raw.map((t) => scheme.observed(t));
  const list = $(`${scheme.id}-result`).querySelector('ol.seq');
  const items = list ? [...list.children] : [];
  for (const li of items) li.classList.remove('match', 'mismatch');

  if (raw.length === 0) {
    target.replaceChildren(notice('info', 'Nichts eingetragen.', testid));
    return;
  }
  let first = -1;
  let reason = '';
  for (let i = 0; i < observed.length; i++) {
    if (observed[i] === null) {
      first = i;
      reason = `„${raw[i]}“ ist hier keine gültige Angabe`;
      break;
    }
    if (i >= expected.length) {
      first = i;
      reason = `mehr beobachtet, als die Rechnung hat (${expected.length})`;
      break;
    }
    if (String(observed[i]) !== expected[i]) {
      first = i;
      reason = `beobachtet „${raw[i]}“, berechnet „${items[i]?.lastChild?.textContent ?? expected[i]}“`;
      break;
    }
  }
  const upto = first === -1 ? observed.length : first;
  for (let i = 0; i < upto && i < items.length; i++) items[i].classList.add('match');
  if (first === -1) {
    const all = observed.length === expected.length;
    target.replaceChildren(notice('ok', all
      ? `✓ Alle ${expected.length} Positionen stimmen überein.`
      : `✓ Die ersten ${observed.length} von ${expected.length} Positionen stimmen überein.`, testid));
    target.firstChild.dataset.firstMismatch = '';
    return;
  }
  items[first]?.classList.add('mismatch');
  items[first]?.scrollIntoView({ block: 'nearest' });
  const p = notice('bad', `✗ Erste Abweichung an Position ${first + 1} (Index ${first}): ${reason}.`, testid);
  p.dataset.firstMismatch = String(first);
  target.replaceChildren(p);
}

// ---------------------------------------------------------------------------

buildPanels();
$('engine-name').textContent = NAME;
runSelftest().then((ok) => {
  $('workbench').disabled = !ok;
  document.body.dataset.selftest = ok ? 'passed' : 'failed';
});
