// The games of sites that do not use Stake's byte stream, on the page: BC.Game's
// originals, Primedice's classic lucky number, SKIN.CLUB's case roll,
// Freebitco.in's roll and CSGOEmpire's roulette (the views of the schemes
// bcgame, lucky, skinclub, freebitco and csgoempire, views.mjs). One panel
// per site, named as its players name it; each checks one bet from its seeds
// the way the Stake panel does (a proof of one epoch, proof.mjs checks it),
// and a history of bets pasted one per line, which goes to the proof card as
// a proof of one epoch: there the bet history is audited like Stake's
// (nonces bet twice, gaps; reference/js/proof/bets.mjs) for the ops that
// declare `bet`. Every number is the op's (reference/js/<scheme>.mjs); this
// module only reads what the player typed and says the answer in German.
// It is BC.Game's page file (its readers of each BC.Game game's result are
// per-op); the one-op panels of the other four sites share it until each
// has a file of its own.

import { declarations } from './js/provably.mjs';
import { el } from './dom.mjs';
import { InputError, tokens } from './input.mjs';
import { formatInt, plural } from './german.mjs';
import { opName, opsOfView } from './names.mjs';
import { times, twoDecimals } from './stakeview.mjs';

const refuse = (message, field) => {
  throw new InputError(message, field);
};
const UNKNOWN = new Set(['?', '–', '-', '_', '…']);

/** At most this many lines of a pasted history: a long session, and a few seconds in the worker. */
export const HISTORY_LINES = 2000;

// ---------------------------------------------------------------------------
// What the player saw, read in the op's terms

/** "48,35", "×2,47", "2.47x" → the number; null when nothing was typed. */
function readDecimal(text, field, label) {
  const t = (text ?? '').trim().replace(/^[×x]\s*/iu, '').replace(/\s*[×x]$/iu, '');
  if (t === '' || UNKNOWN.has(t)) return null;
  if (!/^\d+(?:[.,]\d+)?$/.test(t)) refuse(`„${text.trim()}“ ist keine Zahl für „${label}“. Beispiel: „48,35“ oder „×2,50“.`, field);
  return Number(t.replace(',', '.'));
}

/** A whole number from `lo` to `hi` ("12.345" and "12345" alike); null when nothing was typed. */
function readWhole(text, field, label, lo, hi) {
  const t = (text ?? '').trim().replace(/[.\s]/gu, '');
  if (t === '' || UNKNOWN.has(t)) return null;
  if (!/^\d+$/.test(t) || Number(t) < lo || Number(t) > hi) refuse(`„${text.trim()}“ ist keine Zahl für „${label}“: eine ganze Zahl von ${formatInt(lo)} bis ${formatInt(hi)}.`, field);
  return Number(t);
}

/** Whole numbers from `lo` to `hi`, each once, as the player typed them. */
function readSet(text, field, label, lo, hi) {
  const out = tokens(text).filter((t) => !UNKNOWN.has(t)).map((t) => {
    if (!/^\d+$/.test(t) || Number(t) < lo || Number(t) > hi) refuse(`„${t}“ ist kein Feld für „${label}“: eine Zahl von ${lo} bis ${hi}.`, field);
    return Number(t);
  });
  if (new Set(out).size !== out.length) refuse(`Eine Zahl steht zweimal in „${label}“.`, field);
  return out;
}

/**
 * A set the player saw (mines, keno hits) in the op's draw order: a number
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

const SIDES = [[/^(k|kopf|h|heads)$/iu, 0], [/^(z|zahl|t|tails)$/iu, 1]];
const COIN_NAMES = ['Kopf', 'Zahl'];
const DIRECTIONS = [[/^(l|links|left)$/iu, 0], [/^(r|rechts|right)$/iu, 1]];

/** Words the player typed, one per item, each one of `words` ([RegExp, value]). */
function readWords(text, field, words, what) {
  const spaced = (text ?? '').replace(/([lrkz])(?=[lrkz])/giu, '$1 ');
  return tokens(spaced).map((t) => {
    if (UNKNOWN.has(t)) return null;
    const hit = words.find(([re]) => re.test(t));
    return hit ? hit[1] : refuse(`„${t}“ ist ${what}.`, field);
  });
}

const COLOURS = { bonus: 'Bonus', orange: 'Orange', black: 'Schwarz' };
const skinRoll = (text, field) => readWhole(text, field, 'Wurf', 1, 100000);

/**
 * Each op's one thing seen: the form's field, its label and hint, and how its
 * text becomes `observed` (`derived`: the op's answer, for a set in draw order).
 */
const SEEN = {
  'bcgame.classicdice.old': { field: 'roll', read: (t, f) => ({ roll: readDecimal(t, f, 'Würfelzahl') }) },
  'bcgame.classicdice': { field: 'roll', needs: 'roll', read: (t, f, d) => ({ roll: asShown(readDecimal(t, f, 'Würfelzahl'), d?.roll) }) },
  'bcgame.dice': { field: 'roll', read: (t, f) => ({ roll: readWhole(t, f, 'Würfelzahl', 0, 9999) }) },
  'bcgame.hashdice': { field: 'roll', read: (t, f) => ({ roll: readWhole(t, f, 'Würfelzahl', 0, 99999) }) },
  'bcgame.limbo': { field: 'multiplier', read: (t, f) => ({ multiplier: readDecimal(t, f, 'Multiplikator') }) },
  'bcgame.mines': { field: 'tiles', needs: 'mines', read: (t, f, d) => ({ mines: orNull(readSet(t, f, 'Felder mit Minen', 1, 25), d?.mines) }) },
  'bcgame.keno': { field: 'hits', needs: 'hits', read: (t, f, d) => ({ hits: orNull(readSet(t, f, 'Gezogene Zahlen', 1, 40), d?.hits) }) },
  'bcgame.plinko': { field: 'bucket', read: (t, f, d, req) => ({ bucket: fach(readWhole(t, f, 'Fach', 1, Number(req.rows) + 1)) }) },
  'bcgame.coinflip.old': { field: 'coins', read: (t, f) => ({ coins: none(readWords(t, f, SIDES, 'keine Seite der Münze: „K“ für Kopf, „Z“ für Zahl')) }) },
  'bcgame.coinflip': { field: 'coins', read: (t, f) => ({ coins: none(readWords(t, f, SIDES, 'keine Seite der Münze: „K“ für Kopf, „Z“ für Zahl')) }) },
  'lucky.roll': { field: 'roll', read: (t, f) => ({ roll: readDecimal(t, f, 'Würfelzahl') }) },
  'skinclub.roll': { field: 'roll', read: (t, f) => ({ roll: skinRoll(t, f) }) },
  'freebitco.roll': { field: 'roll', read: (t, f) => ({ roll: readWhole(t, f, 'Roll', 0, 10000) }) },
  'csgoempire.roulette': { field: 'roll', read: (t, f) => ({ roll: readWhole(t, f, 'Zahl', 0, 14) }) },
};
/**
 * The new Classic Dice's roll is not floored (docs/schemes.md, BC.Game's
 * decisions): the game shows its first two decimals. A number typed as the
 * game shows it stands for the derived roll when those two decimals are
 * what it shows; anything else is compared as typed (and differs).
 */
export const firstTwo = (x) => {
  const [whole, frac = ''] = x.toFixed(8).split('.');
  return `${whole},${frac.padEnd(2, '0').slice(0, 2)}`;
};
const asShown = (seen, derived) => (seen !== null && typeof derived === 'number' && firstTwo(derived) === twoDecimals(seen) ? derived : seen);
const fach = (n) => (n === null ? null : n - 1);
const none = (list) => (list.length ? list : null);
const orNull = (seen, derived) => (seen.length ? inDrawOrder(seen, derived ?? []) : null);

/** What the player saw of one bet, in the op's terms; undefined when nothing was typed. */
async function observedOf(op, text, field, request, execute) {
  const seen = SEEN[op];
  if (!seen) return undefined;
  let derived = null;
  if (seen.needs && tokens(text).length) {
    const r = await execute(request);
    derived = r.ok ?? null;
  }
  const [[name, value]] = Object.entries(seen.read(text, field, derived, request));
  return value === null ? undefined : { [name]: value };
}

// ---------------------------------------------------------------------------
// A bet's result in words, as the sites show it

const rollText = (op, roll) => {
  if (op === 'bcgame.classicdice') return firstTwo(roll);
  return Number.isInteger(roll) && !op.startsWith('lucky') && op !== 'bcgame.classicdice.old' ? String(roll) : twoDecimals(roll);
};
const direction = (d) => (d === 1 ? 'rechts' : 'links');

/** One line for a bet of these sites, or null (another op, or nothing derived). */
export function fieldShown(op, d) {
  if (!d || typeof d !== 'object' || !SEEN[op]) return null;
  switch (op) {
    case 'bcgame.limbo':
      return `Limbo: ${times(d.multiplier)}`;
    case 'bcgame.mines':
      return Array.isArray(d.mines) ? `Minen auf Feld ${d.mines.join(', ')}` : null;
    case 'bcgame.keno':
      return Array.isArray(d.hits) ? `Keno-Treffer: ${d.hits.join(' ')}` : null;
    case 'bcgame.plinko':
      return Array.isArray(d.path) ? `Plinko: ${d.path.map(direction).join(', ')} → Fach ${d.bucket + 1} von ${d.path.length + 1}` : null;
    case 'bcgame.coinflip.old':
    case 'bcgame.coinflip':
      return Array.isArray(d.coins) ? `Münzen: ${d.coins.map((c) => COIN_NAMES[c]).join(' ')}` : null;
    case 'csgoempire.roulette':
      return `Roulette: ${d.roll} (${COLOURS[d.colour] ?? d.colour})`;
    case 'skinclub.roll':
      return `Wurf: ${d.roll} von 100000`;
    case 'freebitco.roll':
      return `Roll: ${d.roll}`;
    case 'lucky.roll':
      return `Würfelzahl: ${twoDecimals(d.roll)} (Glückszahl ${d.lucky})`;
    default:
      return typeof d.roll === 'number' ? `Würfelzahl: ${rollText(op, d.roll)}` : null;
  }
}

/** Where a mismatch is, in the site's words. */
function fieldMismatch(f, round) {
  const op = round.request.op;
  const at = (n) => (f.index === null || f.index === undefined ? n : `${n} ${f.index + 1}`);
  switch (f.field) {
    case 'roll':
      return { where: op === 'csgoempire.roulette' ? 'Zahl' : 'Würfelzahl', observed: rollText(op, f.observed), derived: rollText(op, f.derived), first: true };
    case 'multiplier':
      return { where: 'Multiplikator', observed: times(f.observed), derived: times(f.derived), first: true };
    case 'bucket':
      return { where: 'Fach', observed: String(f.observed + 1), derived: String(f.derived + 1), first: true };
    case 'mines':
      return { where: 'Minenfeld', observed: `Mine auf Feld ${f.observed}`, derived: 'dort keine Mine', index: f.index, first: false };
    case 'hits':
      return { where: 'Keno-Brett', observed: `${f.observed} gezogen`, derived: `${f.observed} nicht gezogen`, index: f.index, first: false };
    case 'coins':
      return { where: at('Münze'), observed: COIN_NAMES[f.observed] ?? String(f.observed), derived: COIN_NAMES[f.derived] ?? 'keine', index: f.index, first: f.index === 0 };
    default:
      return { where: f.field, observed: String(f.observed), derived: String(f.derived), first: false };
  }
}

// ---------------------------------------------------------------------------
// The panels

/** The site's request of one bet from the form, seeds aside. */
function requestOf(v, site) {
  const whole = (t) => (/^\d+$/.test((t ?? '').trim()) ? Number(t.trim()) : (t ?? '').trim());
  const request = { op: v.op || site.ops[0] };
  for (const f of site.fields) if (f.param && (!f.ops || f.ops.includes(request.op))) request[f.name] = whole(v[f.name]);
  return request;
}

/** Whether the site's ops take the server seed as the epoch's committed secret (else it goes in each round). */
const committed = (site) => declarations.get(site.ops[0])?.scheme.commitment !== undefined;

function epochOf(v, site, rounds) {
  if (committed(site)) return { commit: v.commit || null, serverSeed: v.serverSeed, rounds };
  return { commit: null, rounds: rounds.map((r) => ({ ...r, serverSeed: v.serverSeed })) };
}

/** One bet from the form, as a proof of one epoch. */
async function buildBet(site, v, { execute }) {
  const request = requestOf(v, site);
  const field = SEEN[request.op].field;
  const observed = await observedOf(request.op, v[field], field, { ...request, serverSeed: v.serverSeed }, execute);
  const { op, ...round } = request;
  return { epoch: epochOf(v, site, [{ op, ...round, ...(observed ? { observed } : {}) }]) };
}

/** A pasted history, one bet a line: the count (nonce, round) first, then what the site showed. */
async function historyProof(site, v, text, execute) {
  const lines = (text ?? '').split('\n').map((l) => l.trim()).filter(Boolean);
  if (!lines.length) refuse('Bitte den Verlauf einfügen: eine Wette je Zeile, zuerst die Nonce, dann das Ergebnis.', 'history');
  if (lines.length > HISTORY_LINES) refuse(`Höchstens ${formatInt(HISTORY_LINES)} Zeilen auf einmal; eingefügt sind ${formatInt(lines.length)}.`, 'history');
  if (v.serverSeed === '') refuse('Bitte oben den Server-Seed eintragen: ohne ihn lässt sich nichts nachrechnen.', 'serverSeed');
  const base = requestOf(v, site);
  const rounds = [];
  for (const [i, line] of lines.entries()) {
    const m = /^#?(\d+)[\s;|:]+(.+)$/u.exec(line);
    if (!m) refuse(`Verlauf, Zeile ${i + 1}: „${line}“ – erwartet zuerst die ${site.count.label}, dann das Ergebnis, z. B. „${site.count.example}“.`, 'history');
    const count = Number(m[1]);
    if (!Number.isSafeInteger(count)) refuse(`Verlauf, Zeile ${i + 1}: ${m[1]} ist zu groß.`, 'history');
    const request = { ...base, [site.count.name]: count };
    let observed;
    try {
      observed = await observedOf(base.op, m[2], 'history', { ...request, serverSeed: v.serverSeed }, execute);
    } catch (e) {
      if (e instanceof InputError) refuse(`Verlauf, Zeile ${i + 1}: ${e.message}`, 'history');
      throw e;
    }
    const { op, ...round } = request;
    rounds.push({ op, ...round, ...(observed ? { observed } : {}) });
  }
  return JSON.stringify({ proof: 1, title: `${opName(base.op)}: Verlauf`, epochs: [epochOf(v, site, rounds)] });
}

/** The section below a panel where a history is pasted; it is checked on the proof card. */
function historySection(api, site) {
  const id = `${site.id}-history`;
  const text = el('textarea', { id, class: 'mono', rows: '6', spellcheck: 'false', autocomplete: 'off', 'aria-describedby': `${id}-hint` });
  const go = el('button', { type: 'button', class: 'secondary', id: `${id}-run` }, 'Verlauf prüfen');
  const status = el('p', { class: 'series-status', id: `${id}-status`, 'data-state': 'idle' });
  go.addEventListener('click', async () => {
    status.dataset.state = 'busy';
    status.textContent = 'Liest den Verlauf …';
    let r;
    try {
      r = await api.series({ history: text.value });
    } catch (e) {
      status.dataset.state = 'invalid';
      status.textContent = `Der Verlauf ließ sich nicht lesen: ${e.message}`;
      return;
    }
    if (r.cancelled) return;
    if (r.error) {
      status.dataset.state = 'invalid';
      status.textContent = r.error.message;
      return;
    }
    status.dataset.state = 'done';
    status.textContent = `${plural(r.lines, 'Wette', 'Wetten')} gelesen: das Urteil steht oben unter „Ganzen Nachweis prüfen“.`;
    api.proof(r.proof);
  });
  return el('section', { class: 'series', id: `${id}-section`, 'aria-labelledby': `${id}-title` },
    el('h3', { id: `${id}-title` }, 'Verlauf prüfen: viele Wetten auf einmal'),
    el('div', { class: 'field wide' },
      el('label', { for: id }, `Verlauf (eine ${site.count.one} je Zeile)`),
      el('span', { class: 'hint', id: `${id}-hint` }, `Mit den Seeds oben. Je Zeile zuerst die ${site.count.label}, dann das Ergebnis, wie ${site.tab} es listet, z. B. „${site.count.example}“. ${site.count.audit}`),
      text),
    el('div', { class: 'actions' }, go),
    status);
}

const only = (...ops) => ops;
const COMMIT_HINT = 'Der SHA-256 des Server-Seeds, den die Seite zeigt, solange das Seed-Paar läuft. Leer lassen, wenn du es nicht hast.';
const NONCE = { name: 'nonce', label: 'Nonce', one: 'Wette', example: '42 48,35', audit: 'Die Seite prüft auch, ob eine Nonce doppelt vorkommt oder welche fehlen.' };

function seedFields(where) {
  return [
    { name: 'serverSeed', label: 'Server-Seed', hint: `${where} So einfügen, wie er dort steht.`, wide: true, trim: true, seed: true },
    { name: 'clientSeed', label: 'Client-Seed', hint: 'Wo: unter „Fairness“ bei den Seeds; du kannst ihn dort selbst wählen.', wide: true, trim: true, seed: true, param: true },
    { name: 'nonce', label: 'Nonce', kind: 'int', value: '0', hint: 'Die wievielte Wette mit diesem Seed-Paar.', param: true },
  ];
}

/** One site's panel, in the shape of games.mjs's GAMES. */
function sitePanel(site) {
  const game = {
    id: site.id,
    tab: site.tab,
    title: site.title,
    intro: site.intro,
    unit: ['Angabe', 'Angaben'],
    firstHint: site.firstHint ?? 'Spiel, Client-Seed und Nonce',
    opFor: (v) => v.op || site.ops[0],
    fields: [
      ...(site.ops.length > 1 ? [{ name: 'op', label: 'Spiel', kind: 'select', options: site.ops.map((op) => [op, opName(op)]) }] : []),
      ...site.fields,
      ...(committed(site) ? [{ name: 'commit', label: 'Commitment (vor dem Spiel gezeigt)', hint: COMMIT_HINT, wide: true, commit: true }] : []),
    ],
    observe: site.observe,
    formula: site.formula,
    build: (v, ctx) => buildBet(site, v, ctx),
    resultNodes: (r) => {
      const line = fieldShown(r.request.op, r.derived);
      return line ? [el('p', { class: 'stake-big', id: `${site.id}-out-shown`, 'data-value': JSON.stringify(r.derived) }, line)] : [];
    },
    resultText: (r) => fieldShown(r.request.op, r.derived),
    describeMismatch: (f, round) => fieldMismatch(f, round),
    tools: (api) => ({ after: [historySection(api, site)] }),
    async series(v, job, { execute }) {
      const lines = (job.history ?? '').split('\n').filter((l) => l.trim()).length;
      return { proof: await historyProof(site, v, job.history, execute), lines };
    },
  };
  return game;
}

const ROLL_HINT = 'Die Zahl der Wette, wie die Seite sie zeigt.';
const BCGAME_OPS = opsOfView('bcgame');

const SITES = [
  {
    id: 'bcgame', tab: 'BC.Game', title: 'BC.Game-Originals', ops: BCGAME_OPS,
    intro: 'Eine Wette bei BC.Game nachrechnen: Classic Dice (beide Generationen), Dice, Limbo, Hash Dice, Mines, Keno, Plinko und Coin Flip, aus Server-Seed, Client-Seed und Nonce.',
    fields: [
      ...seedFields('Wo: bei BC.Game unter „Fairness“ → „Seeds“; nach dem Wechsel des Seed-Paares auch der bisherige Server-Seed.'),
      { name: 'mines', label: 'Anzahl Minen', kind: 'int', value: '3', hint: '1 bis 24.', ops: only('bcgame.mines'), param: true },
      { name: 'rows', label: 'Reihen', kind: 'int', value: '16', hint: '8 bis 16, wie im Spiel eingestellt.', ops: only('bcgame.plinko'), param: true },
      { name: 'rounds', label: 'Würfe', kind: 'int', value: '1', hint: 'Wie viele Münzen die Wette warf (1 bis 100).', ops: only('bcgame.coinflip', 'bcgame.coinflip.old'), param: true },
    ],
    observe: [
      { name: 'roll', label: 'Würfelzahl', kind: 'text', hint: ROLL_HINT, ops: only('bcgame.classicdice', 'bcgame.classicdice.old', 'bcgame.dice', 'bcgame.hashdice') },
      { name: 'multiplier', label: 'Multiplikator', kind: 'text', hint: 'Wie im Spiel gezeigt, z. B. „2,47x“.', ops: only('bcgame.limbo') },
      { name: 'tiles', label: 'Felder mit Minen', kind: 'text', hint: 'Felder 1 bis 25, zeilenweise von oben links gezählt, z. B. „3 17 22“.', wide: true, ops: only('bcgame.mines') },
      { name: 'hits', label: 'Gezogene Zahlen', kind: 'text', hint: 'Die zehn Zahlen des Bretts (1 bis 40), in beliebiger Reihenfolge.', wide: true, ops: only('bcgame.keno') },
      { name: 'bucket', label: 'Fach', kind: 'text', hint: 'Das Fach, in das die Kugel fiel, von links ab 1 gezählt.', ops: only('bcgame.plinko') },
      { name: 'coins', label: 'Münzen', kind: 'text', hint: '„K“ für Kopf, „Z“ für Zahl, in der Reihenfolge der Würfe, z. B. „K Z Z“.', wide: true, ops: only('bcgame.coinflip', 'bcgame.coinflip.old') },
    ],
    count: NONCE,
    formula: [
      'Zufall: HMAC-SHA256(Server-Seed, "Client-Seed:Nonce") (Hash Dice und Plinko: HMAC-SHA512), wie BC.Games Seiten „Fairness“ der Spiele es zeigen; jede Münze bei Coin Flip hat ihre eigene Runde im Text ("Client-Seed:Nonce:Runde").',
      'Classic Dice (neu), Dice und Limbo lesen eine Zahl aus einem Fenster von Hex-Ziffern; Classic Dice (alt) aus den ersten vier Bytes; Hash Dice nimmt die erste Fünfergruppe von Hex-Ziffern unter 1.000.000; Mines und Keno sortieren die Felder nach den Bytes; Plinko geht je Reihe nach links oder rechts. Die genauen Regeln stehen in docs/schemes.md, Abschnitt BC.Game.',
    ],
  },
  {
    id: 'primedice', tab: 'Primedice', title: 'Primedice (klassisch)', ops: ['lucky.roll'],
    intro: 'Einen Wurf nach Primedices klassischem Verfahren nachrechnen (auch bei den vielen Seiten, die es übernommen haben), aus Server-Seed, Client-Seed und Nonce.',
    fields: seedFields('Wo: unter „Fairness“ bzw. „Provably Fair“; nach dem Wechsel des Seed-Paares der bisherige Server-Seed.'),
    observe: [{ name: 'roll', label: 'Würfelzahl', kind: 'text', hint: 'Die Zahl des Wurfs, z. B. „48,35“.' }],
    count: NONCE,
    formula: [
      'HMAC-SHA512(Server-Seed, "Client-Seed-Nonce"); von vorn je 5 Hex-Ziffern als Zahl, die erste unter 1.000.000 ist die Glückszahl (keine: 9999); die Würfelzahl ist (Glückszahl mod 10.000) / 100.',
    ],
  },
  {
    id: 'skinclub', tab: 'SKIN.CLUB', title: 'SKIN.CLUB-Kiste', ops: ['skinclub.roll'],
    intro: 'Den Wurf einer Kiste bei SKIN.CLUB nachrechnen, aus Server-Seed, Client-Seed und Nonce.',
    fields: seedFields('Wo: bei SKIN.CLUB unter „Provably Fair“, nach dem Wechsel des Seeds.'),
    observe: [{ name: 'roll', label: 'Wurf', kind: 'text', hint: 'Der Wurf der Kiste, 1 bis 100.000.' }],
    count: { ...NONCE, example: '42 61532', audit: 'Nonces, die doppelt vorkommen oder fehlen, prüft die Seite hier nicht: SKIN.CLUBs Wurf ist im Verfahren nicht als Wette einer Nonce-Folge erklärt.' },
    formula: [
      'HMAC-SHA512(Schlüssel = "Client-Seed-Nonce", Nachricht = Server-Seed); die ersten 15 Hex-Ziffern als Zahl, mod 100.000, plus 1.',
    ],
  },
  {
    id: 'freebitco', tab: 'Freebitco.in', title: 'FREEBITCO.IN-Roll', ops: ['freebitco.roll'],
    intro: 'Einen Roll bei Freebitco.in nachrechnen, aus Server-Seed, Client-Seed und Nonce.',
    fields: seedFields('Wo: bei Freebitco.in unter „Provably Fair“; nach dem Wechsel der bisherige Server-Seed.'),
    observe: [{ name: 'roll', label: 'Roll', kind: 'text', hint: 'Die Zahl des Rolls, 0 bis 10.000.' }],
    count: { ...NONCE, example: '42 5642' },
    formula: [
      'HMAC-SHA512(Schlüssel = "Nonce:Client-Seed:Nonce", Nachricht = "Nonce:Server-Seed:Nonce"); die ersten 8 Hex-Ziffern als Zahl, geteilt durch 429.496,7295 und gerundet: der Roll, 0 bis 10.000 (Freebitco.ins Text „Provably Fair“).',
    ],
  },
  {
    id: 'csgoempire', tab: 'CSGOEmpire', title: 'CSGOEmpire-Roulette', ops: ['csgoempire.roulette'],
    intro: 'Eine Roulette-Runde bei CSGOEmpire nachrechnen, aus dem Server-Seed des Tages, dem Public Seed und der Runde.',
    firstHint: 'Server-Seed, Public Seed und Runde',
    fields: [
      { name: 'serverSeed', label: 'Server-Seed', hint: 'Wo: bei CSGOEmpire unter „Provably Fair“, am Tag danach offengelegt.', wide: true, trim: true, seed: true },
      { name: 'publicSeed', label: 'Public Seed', hint: 'Wo: unter „Provably Fair“, der Public Seed des Tages.', wide: true, trim: true, param: true },
      { name: 'round', label: 'Runde', kind: 'int', value: '0', hint: 'Die Nummer der Runde.', param: true },
    ],
    observe: [{ name: 'roll', label: 'Zahl', kind: 'text', hint: 'Die Zahl der Runde, 0 bis 14 (0 ist Bonus).' }],
    count: { name: 'round', label: 'Runde', one: 'Runde', example: '4018265 7', audit: 'Jede Runde wird für sich nachgerechnet.' },
    formula: [
      'SHA-256 von "Server-Seed-Public-Seed-Runde"; die ersten 8 Hex-Ziffern als Zahl, mod 15: 0 ist Bonus, 1 bis 7 Orange, 8 bis 14 Schwarz. Wie der Server-Seed vorher festgelegt wird, sagt CSGOEmpires Skript nicht: ein Commitment prüft die Seite hier nicht.',
    ],
  },
];

/** The panels of the sites whose ops this build has (views.mjs), one per site. */
export const GAMES = SITES.filter((s) => s.ops.length && s.ops.every((op) => declarations.has(op))).map(sitePanel);

/** A checked bet of these sites in one line, as the proof card lists it (roundview.mjs). */
export const shown = (r) => fieldShown(r.op, r.derived);
