// The crash family on the page, the crash scheme's own views (its `views`,
// views.mjs): one panel per site, named as its players name it – bustabit,
// Roobet, BC.Game. Each checks one game (its hash and the salt give the
// crash point: a round of crash.v1 or crash.v2) or a whole history of games
// (a crash history, docs/proofs.md: every game's hash back to the chain's
// terminating hash, its point, a game shown twice, games missing), in the
// shape of games.mjs's GAMES. Which op, which link and which parameters each
// site plays is docs/schemes.md's table (`crash`); the salts and
// terminating hashes are the sites' own, with their sources beside them.

import { el } from './dom.mjs';
import { InputError } from './input.mjs';
import { formatInt, plural } from './german.mjs';

const refuse = (message, field) => {
  throw new InputError(message, field);
};
const UNKNOWN = new Set(['?', '–', '-', '_', '…']);

/**
 * bustabit's chains (bustabit/verifier src/constants.ts; seeding events
 * bitcointalk 2807542 and 5560454): the previous one holds games 1 …
 * 10,000,000 (hex-text links), the current one the games after it
 * (raw-byte links). Games 10,000,001 … 12,279,450 of the current chain
 * were keyed with a Vx signature (BLS12-381), which no op here computes.
 */
const BUSTABIT = {
  previous: {
    link: 'text', firstGame: 1, lastGame: 10_000_000,
    salt: '0000000000000000004d6ec16dafe9d8370958664c1dc422f452892264c59526',
    terminatingHash: '86728f5fc3bd99db94d3cdaf105d67788194e9701bf95d049ad0e1ee3d004277',
  },
  current: {
    link: 'bytes', firstGame: 10_000_001, vxLast: 12_279_450,
    salt: '00000000000000000001e08b7fd44f95e3e950ac65650a8031a6d5e1750e34be',
    terminatingHash: '567a98370fb7545137ddb53687723cf0b8a1f5e93b1f76f4a1da29416930fa59',
  },
};
/** Roobet's salts in the copies of its script: Ethereum block 17,985,520 with its 0x (divisor 25), Bitcoin block 610,546 (divisor 20). */
const ROOBET_SALT = '0xd2867566759e9158bda9bf93b343bbd9aa02ce1e0c5bc2b37a2d70d391b04f14';
/** BC.Game's salt, its verifier's default (bcgame-project/verify crash.html). */
const BCGAME_SALT = '0000000000000000000301e2801a9a9598bfb114e574a91a887f2132f33047e6';

/** ×1,26 (bustabit writes 1.26x): a crash point with two decimals and a German comma. */
export const crashText = (x) => `×${Number(x).toFixed(2).replace('.', ',')}`;

/** "1,26", "1.26x", "×1,26" → 1.26; null when nothing (or "?") was typed. */
function readPoint(text, field, label) {
  const t = (text ?? '').trim().replace(/^[×x]\s*/iu, '').replace(/\s*[×x]$/iu, '');
  if (t === '' || UNKNOWN.has(t)) return null;
  if (!/^\d+(?:[.,]\d+)?$/.test(t)) refuse(`„${text.trim()}“ ist kein Crash-Punkt für „${label}“. Beispiel: „1,98“, „×1,98“ oder „1.98x“.`, field);
  return Number(t.replace(',', '.'));
}

/** A game's hash: 64 hex characters (any case, as copied), lowercase. */
function readHash(text, field, label, { required = true } = {}) {
  const t = (text ?? '').trim().toLowerCase();
  if (t === '') {
    if (required) refuse(`Bitte „${label}“ eintragen: 64 Zeichen 0–9 und a–f.`, field);
    return null;
  }
  if (!/^[0-9a-f]{64}$/.test(t)) refuse(`„${label}“: „${t.length > 20 ? `${t.slice(0, 20)}…` : t}“ sind nicht 64 Zeichen 0–9 und a–f.`, field);
  return t;
}

function readNumber(text, field, label, { required = true, fallback = null } = {}) {
  const t = (text ?? '').trim().replace(/[.\s]/g, '');
  if (t === '') {
    if (required) refuse(`Bitte „${label}“ eintragen.`, field);
    return fallback;
  }
  if (!/^\d+$/.test(t) || !Number.isSafeInteger(Number(t))) refuse(`„${label}“ muss eine ganze Zahl sein, nicht „${text.trim()}“.`, field);
  return Number(t);
}

/**
 * The history as typed or copied from the site's list: one game a line,
 * its number first, then its hash and the crash point in either order
 * (bustabit's verifier lists „Spiel, Bust, Hash“). White space, „;“ and
 * „|“ separate; a comma is the decimal comma.
 */
export function readHistory(text) {
  const games = [];
  for (const [i, raw] of (text ?? '').split('\n').entries()) {
    const parts = raw.trim().split(/[\s;|]+/u).filter(Boolean);
    if (!parts.length) continue;
    const where = `Verlauf, Zeile ${i + 1}`;
    const [first, ...rest] = parts;
    if (!/^\d+$/.test(first.replace(/^#/, '')) || !Number.isSafeInteger(Number(first.replace(/^#/, '')))) {
      refuse(`${where}: „${first}“ ist keine Spielnummer. Eine Zeile je Spiel: Spielnummer, Hash, Crash-Punkt, z. B. „1234567 9f2c… 1,98“.`, 'history');
    }
    const game = { number: Number(first.replace(/^#/, '')), hash: null, point: null };
    for (const p of rest) {
      if (/^[0-9a-f]{64}$/iu.test(p)) {
        if (game.hash !== null) refuse(`${where}: zwei Hashes in einer Zeile.`, 'history');
        game.hash = p.toLowerCase();
      } else {
        if (game.point !== null) refuse(`${where}: „${p}“ – ein Spiel hat einen Crash-Punkt, hier stehen zwei.`, 'history');
        const point = readPoint(p, 'history', where);
        if (point === null) continue;
        game.point = point;
      }
    }
    games.push(game);
  }
  return games;
}

/** A game of a history as a round of its chain epoch (docs/proofs.md, "Crash histories"). */
const gameRound = (g) => ({
  game: g.number,
  ...(g.hash === null ? {} : { hash: g.hash }),
  ...(g.point === null ? {} : { observed: { crashPoint: g.point } }),
});

/** The chain epoch of a history: the chain's values, the games as rounds. */
function historyEpoch(chain, games) {
  return { chain, rounds: games.map(gameRound) };
}

/** The bustabit chain of game `number`; the Vx period and game 0 are refused. */
function bustabitChain(number, field) {
  const { previous, current } = BUSTABIT;
  if (number < 1) refuse('bustabit zählt seine Spiele ab 1.', field);
  if (number <= previous.lastGame) return previous;
  if (number <= current.vxLast) {
    refuse(`Spiel ${formatInt(number)}: bustabit hat die Spiele ${formatInt(current.firstGame)} bis ${formatInt(current.vxLast)} mit einer Vx-Signatur (BLS12-381) berechnet statt mit dem Salt; die rechnet diese Seite nicht nach.`, field);
  }
  return current;
}

const shared = {
  unit: ['Angabe', 'Angaben'],
  firstHint: 'den Hash und das Salt (und, beim Verlauf, den Endhash der Kette)',
  legends: ['Werte vom Betreiber', 'Was du gesehen hast (zum Vergleichen)'],
  means(verdict, outcome) {
    const history = outcome.checked.epochs[0]?.chain !== undefined;
    if (verdict === 'match') {
      return history
        ? [['proves', 'Das beweist: Jedes Spiel mit Hash liegt auf der Kette, deren Endhash vor dem ersten Spiel veröffentlicht war, und jeder eingetragene Crash-Punkt folgt aus seinem Hash und dem Salt.'],
          ['not', 'Das beweist nicht: dass der Betreiber die Kette zufällig erzeugt hat, und nichts über Spiele, die im Verlauf fehlen.']]
        : [['proves', 'Das beweist: Der Crash-Punkt folgt aus dem Hash des Spiels und dem Salt.'],
          ['not', 'Das beweist nicht: dass dieser Hash zur veröffentlichten Kette gehört – das prüft der Verlauf (unten) bis zum Endhash der Kette.']];
    }
    return null;
  },
  resultText: (r) => (r.derived ? crashText(r.derived.crashPoint) : null),
  describeMismatch: (f, round, outcome) => describeMismatch(f, outcome),
};

const historyField = (hint) => ({ name: 'history', label: 'Verlauf (mehrere Spiele, optional)', kind: 'textarea', hint: `Eine Zeile je Spiel: Spielnummer, Hash, Crash-Punkt, z. B. „1234567 9f2c… 1,98“; ohne Hash nur der Crash-Punkt (dann zählt er für die Statistik). Steht hier etwas, prüft die Seite den Verlauf statt des einen Spiels oben: jeden Hash bis zum Endhash der Kette, jeden Crash-Punkt, doppelte und fehlende Spiele. ${hint}`, wide: true });
const endField = (hint) => ({ name: 'terminatingHash', label: 'Endhash der Kette (für den Verlauf)', hint: `Der letzte Hash der Kette, vor dem ersten Spiel veröffentlicht. ${hint}`, wide: true, trim: true });
const firstField = (hint) => ({ name: 'firstGame', label: 'Erstes Spiel der Kette (für den Verlauf)', kind: 'int', value: '1', hint: `Die Nummer des Spiels, dessen Hash direkt auf den Endhash folgt. ${hint}` });
const WALK = 'Jedes Spiel liegt so viele Schritte (SHA-256) vor dem Endhash, wie es nach dem ersten Spiel kommt: bei Millionen von Spielen rechnet der Browser Minuten; schneller rechnet „provably audit“ denselben Nachweis.';

/** A site's panel: the shared parts, its own, and its outcome drawn under ids of its own. */
const site = (game) => ({ ...shared, resultNodes: (r, outcome) => resultNodes(game.id, r, outcome), ...game });

const BUSTABIT_GAME = site({
  id: 'bustabit',
  tab: 'bustabit',
  opFor: () => 'crash.v2',
  title: 'bustabit',
  intro: 'Ein Spiel bei bustabit nachrechnen – den „Bust“ aus dem Hash des Spiels – oder einen ganzen Verlauf, Spiel für Spiel bis zum veröffentlichten Endhash der Kette.',
  fields: [
    { name: 'number', label: 'Spielnummer', kind: 'int', hint: 'Wo: auf der Seite des Spiels („Game #…“). Sie sagt, zu welcher Kette das Spiel gehört: Spiele bis 10.000.000 zur Kette von 2018, spätere zur heutigen.' },
    { name: 'hash', label: 'Hash des Spiels', hint: 'Wo: auf der Seite des Spiels; 64 Zeichen 0–9 und a–f.', wide: true, trim: true },
    endField('Leer lassen: dann gilt bustabits veröffentlichter Endhash der Kette, zu der die Spielnummern gehören (bitcointalk 2807542 und 5560454).'),
    historyField(WALK),
  ],
  observe: [
    { name: 'crashPoint', label: 'Bust', kind: 'text', hint: 'Wo der Multiplikator stehen blieb, z. B. „1,98“ oder „1.98x“.' },
  ],
  formula: [
    'bustabit (bustabit/verifier, src/utils/math.ts): m = HMAC-SHA256(Schlüssel = Salt als Text, Nachricht = die 32 Bytes des Hashs); X = die ersten 52 Bit von m / 2⁵²; Bust = max(1, ⌊99 / (1 − X)⌋ / 100).',
    `Spiele 1 bis 10.000.000: Salt = Hash des Bitcoin-Blocks 505.750 (${BUSTABIT.previous.salt}); das Spiel davor hat den Hash SHA-256 des Hashs als Hex-Text; Endhash ${BUSTABIT.previous.terminatingHash}.`,
    `Spiele ab 12.279.451: Salt ${BUSTABIT.current.salt}; das Spiel davor hat den Hash SHA-256 der 32 Bytes des Hashs; Endhash ${BUSTABIT.current.terminatingHash}, erstes Spiel 10.000.001. Die Spiele 10.000.001 bis 12.279.450 hatten eine Vx-Signatur als Schlüssel: die rechnet diese Seite nicht nach.`,
    'Spiel 10.000.000 rechnet die Seite zur Kette von 2018, wie die Ankündigung sie beschreibt; bustabits eigener Prüfer zählt es zur heutigen Kette.',
  ],
  async build(v) {
    const games = readHistory(v.history);
    if (games.length) {
      const chain = bustabitChain(games[0].number, 'history');
      for (const g of games) {
        if (bustabitChain(g.number, 'history') !== chain) refuse(`Verlauf: Spiel ${formatInt(g.number)} gehört zu einer anderen Kette als Spiel ${formatInt(games[0].number)}; bitte die Spiele einer Kette zusammen prüfen.`, 'history');
      }
      const { link, firstGame, salt } = chain;
      const terminatingHash = readHash(v.terminatingHash, 'terminatingHash', 'Endhash der Kette', { required: false }) ?? chain.terminatingHash;
      return { epoch: historyEpoch({ terminatingHash, link, firstGame, salt, variant: { op: 'crash.v2' } }, games) };
    }
    const number = readNumber(v.number, 'number', 'Spielnummer');
    const { salt } = bustabitChain(number, 'number');
    const point = readPoint(v.crashPoint, 'crashPoint', 'Bust');
    const round = { op: 'crash.v2', hash: readHash(v.hash, 'hash', 'Hash des Spiels'), salt };
    return { epoch: { commit: null, rounds: [{ ...round, ...(point === null ? {} : { observed: { crashPoint: point } }) }] } };
  },
});

/**
 * The epoch a panel with a salt field checks: the history pasted, walked
 * back to the chain's end (hex-text links), or else the one game typed.
 */
function saltedEpoch(v, variant) {
  const salt = v.salt.trim();
  const games = readHistory(v.history);
  if (games.length) {
    const terminatingHash = readHash(v.terminatingHash, 'terminatingHash', 'Endhash der Kette');
    const firstGame = readNumber(v.firstGame, 'firstGame', 'Erstes Spiel der Kette', { required: false, fallback: 1 });
    return { epoch: historyEpoch({ terminatingHash, link: 'text', firstGame, salt, variant }, games) };
  }
  const point = readPoint(v.crashPoint, 'crashPoint', 'Crash bei');
  const round = { ...variant, hash: readHash(v.hash, 'hash', 'Hash der Runde'), salt };
  return { epoch: { commit: null, rounds: [{ ...round, ...(point === null ? {} : { observed: { crashPoint: point } }) }] } };
}

const ROOBET_GAME = site({
  id: 'roobet',
  tab: 'Roobet',
  opFor: () => 'crash.v1',
  title: 'Roobet Crash',
  intro: 'Eine Runde Crash bei Roobet nachrechnen, aus dem Hash der Runde und dem Salt, oder einen Verlauf bis zum Endhash der Kette.',
  fields: [
    { name: 'hash', label: 'Hash der Runde', hint: 'Wo: bei der Runde unter „Fairness“; 64 Zeichen 0–9 und a–f.', wide: true, trim: true },
    { name: 'salt', label: 'Salt', value: ROOBET_SALT, hint: 'Der Hash des Ethereum-Blocks 17.985.520, so wie Roobet ihn schreibt: mit „0x“ (das gehört zum Salt). Frühere Ketten: der Hash des Bitcoin-Blocks 610.546.', wide: true, trim: true },
    { name: 'divisor', label: 'Sofort-Crash: eine von … Runden', kind: 'select', options: [['25', '25 (Kette mit dem Ethereum-Salt)'], ['20', '20 (Kette mit dem Bitcoin-Salt)'], ['33', '33 (frühe Kopien des Skripts)']], hint: 'Ist der HMAC durch diese Zahl teilbar, crasht die Runde sofort bei 1.' },
    endField('Aus Roobets Ankündigung der Kette.'),
    firstField(''),
    historyField(WALK),
  ],
  observe: [
    { name: 'crashPoint', label: 'Crash bei', kind: 'text', hint: 'Der Multiplikator, bei dem die Runde endete, z. B. „×1,98“.' },
  ],
  formula: [
    'Roobet (Kopien seines Skripts: rorybain96/roobet roobet.js, IsiraUdaththa/Roobet-Crash-Analysis): m = HMAC-SHA256(Schlüssel = Hash der Runde als Text, Nachricht = Salt als Text, mit „0x“, wo es dasteht). Ist m (alle 256 Bit) durch den Teiler teilbar, crasht die Runde bei 1. Sonst mit h = die ersten 13 Hex-Zeichen: ⌊(100 · 2⁵² − h) / (2⁵² − h)⌋ / 100.',
    'Die Runde davor hat den Hash SHA-256 des Hashs dieser Runde als Hex-Text.',
  ],
  async build(v) {
    return saltedEpoch(v, { op: 'crash.v1', divisor: Number(v.divisor), instant: 1 });
  },
});

const BCGAME_GAME = site({
  id: 'bcgame-crash',
  tab: 'BC.Game Crash',
  opFor: () => 'crash.v2',
  title: 'BC.Game Crash',
  intro: 'Eine Runde Crash bei BC.Game nachrechnen, aus dem Hash der Runde und dem Salt, oder einen Verlauf bis zum Endhash der Kette.',
  fields: [
    { name: 'hash', label: 'Hash der Runde', hint: 'Wo: bei der Runde unter „Verify“; 64 Zeichen 0–9 und a–f.', wide: true, trim: true },
    { name: 'salt', label: 'Salt', value: BCGAME_SALT, hint: 'Der Hash des Bitcoin-Blocks, den BC.Game vor dem Start der Kette angekündigt hat (bitcointalk 5416694); so steht er in BC.Games eigenem Prüfer.', wide: true, trim: true },
    endField('Aus BC.Games Ankündigung der Kette.'),
    firstField(''),
    historyField(WALK),
  ],
  observe: [
    { name: 'crashPoint', label: 'Crash bei', kind: 'text', hint: 'Der Multiplikator, bei dem die Runde endete, z. B. „×1,98“.' },
  ],
  formula: [
    'BC.Game (bcgame-project/verify crash.html): wie bustabit, m = HMAC-SHA256(Schlüssel = Salt als Text, Nachricht = die 32 Bytes des Hashs), X = die ersten 52 Bit / 2⁵², dann aber X auf 9 gültige Ziffern gerundet (parseFloat(X.toPrecision(9))), Crash bei max(1, ⌊99 / (1 − X)⌋ / 100). Das Runden ändert etwa zwei von 10.000 Runden um 0,01.',
    'Die Runde davor hat den Hash SHA-256 des Hashs dieser Runde als Hex-Text.',
  ],
  async build(v) {
    return saltedEpoch(v, { op: 'crash.v2', bcgame: true });
  },
});

export const GAMES = [BUSTABIT_GAME, ROOBET_GAME, BCGAME_GAME];

/** One checked round of a crash op, as a line: „Spiel 42: Crash bei ×1,98“. */
export function shown(r) {
  if (typeof r.derived?.crashPoint !== 'number') return null;
  const point = `Crash bei ${crashText(r.derived.crashPoint)}`;
  return r.game ? `Spiel ${formatInt(r.game.number)}: ${point}` : point;
}

// ---------------------------------------------------------------------------
// The outcome: one game's point, or a history's games

const VERDICT = { match: '✓', mismatch: '✗', unobserved: '·', invalid: '✗' };
const ROWS = 200;

function resultNodes(id, r, outcome) {
  const epoch = outcome.checked.epochs[0];
  if (epoch.chain === undefined) {
    return r.derived ? [el('p', { class: 'stake-big', id: `${id}-shown` }, crashText(r.derived.crashPoint))] : [];
  }
  const rounds = epoch.rounds;
  const findings = outcome.checked.report.findings;
  const hashed = rounds.filter((g) => g.game?.hash).length;
  const off = findings.filter((f) => f.kind === 'mismatch' && f.field === 'hash').length;
  const points = rounds.filter((g) => g.comparison?.compared).length;
  const wrong = findings.filter((f) => f.kind === 'mismatch' && f.field === 'crashPoint').length;
  const twice = findings.filter((f) => f.kind === 'mismatch' && f.field === 'game').length;
  const gaps = findings.filter((f) => f.kind === 'gap' && Array.isArray(f.observed));
  const missing = gaps.reduce((n, f) => n + (f.observed[1] - f.observed[0] + 1), 0);
  const head = epoch.chain.head;
  const lines = [
    `${plural(rounds.length, 'Spiel', 'Spiele')} im Verlauf; Endhash der Kette ${head ? `${head.terminating.slice(0, 12)}…` : '—'}.`,
    hashed ? `${plural(hashed, 'Hash', 'Hashes')} bis zum Endhash verfolgt: ${off ? `${plural(off, 'führt', 'führen')} NICHT dorthin` : 'alle führen dorthin'}.` : 'Kein Spiel mit Hash: ob die Spiele zur Kette gehören, lässt sich nicht prüfen.',
    points ? `${plural(points, 'Crash-Punkt', 'Crash-Punkte')} verglichen: ${wrong ? `${plural(wrong, 'weicht', 'weichen')} ab` : 'alle stimmen'}.` : 'Kein Crash-Punkt verglichen.',
  ];
  if (twice) lines.push(`${plural(twice, 'Spiel steht', 'Spiele stehen')} zweimal im Verlauf: eine Kette gibt jedem Spiel nur einen Hash.`);
  if (missing) lines.push(`Es ${missing === 1 ? 'fehlt' : 'fehlen'} ${plural(missing, 'Spiel', 'Spiele')} zwischen dem ersten und dem letzten eingetragenen (${gaps.slice(0, 3).map((f) => (f.observed[0] === f.observed[1] ? formatInt(f.observed[0]) : `${formatInt(f.observed[0])} … ${formatInt(f.observed[1])}`)).join(', ')}${gaps.length > 3 ? ' …' : ''}): die lassen sich nicht prüfen.`);
  const body = el('tbody', {}, ...rounds.slice(0, ROWS).map((g) => el('tr', { 'data-game': g.game?.number ?? '', 'data-verdict': g.verdict, class: g.verdict },
    el('td', { class: 'num' }, g.game ? formatInt(g.game.number) : '—'),
    el('td', {}, g.game?.hash ? el('code', { title: g.game.hash }, `${g.game.hash.slice(0, 12)}…`) : '—'),
    el('td', { class: 'num', 'data-value': g.derived ? String(g.derived.crashPoint) : '' }, g.derived ? crashText(g.derived.crashPoint) : '—'),
    el('td', { class: 'num' }, g.observed?.crashPoint !== undefined ? crashText(g.observed.crashPoint) : '—'),
    el('td', {}, VERDICT[g.verdict] ?? g.verdict))));
  return [
    ...lines.map((t, i) => el('p', { class: i === 0 ? 'round-shown' : undefined, 'data-line': i }, t)),
    el('table', { class: 'series-table', id: `${id}-history` },
      el('thead', {}, el('tr', {}, ...['Spiel', 'Hash', 'berechnet', 'gesehen', ''].map((c) => el('th', { scope: 'col' }, c)))), body),
    rounds.length > ROWS ? el('p', { class: 'muted small' }, `Gezeigt sind die ersten ${formatInt(ROWS)} von ${plural(rounds.length, 'Spiel', 'Spielen')}; geprüft sind alle.`) : null,
  ].filter(Boolean);
}

/** Where a history's or a game's first difference is, in the site's words. */
function describeMismatch(f, outcome) {
  const game = outcome.checked.epochs[f.epoch]?.rounds[f.round]?.game;
  const where = game ? `Spiel ${formatInt(game.number)}` : 'Crash-Punkt';
  const first = f.round === 0;
  if (f.field === 'hash') return { where, observed: `den Hash ${String(f.observed).slice(0, 12)}…`, derived: 'keinen Hash, der zum Endhash der Kette führt', first, hint: 'Dieser Hash führt nicht in so vielen Schritten zum Endhash, wie das Spiel nach dem ersten der Kette kommt: entweder gehört es nicht zu dieser Kette, oder Spielnummer oder Hash sind falsch übertragen.' };
  if (f.field === 'game') return { where, observed: 'zweimal im Verlauf', derived: 'einmal', first: false };
  return { where, observed: crashText(f.observed), derived: crashText(f.derived), first };
}
