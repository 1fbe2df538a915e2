// A checked proof as the page shows it, made where it was checked (in the
// worker, web/worker.mjs) so that only what the page draws crosses to the
// page: counts, the findings, and per round a line of facts and the round as
// the game showed it ("Spieler A♠ 7♥ · Dealer K♦", the poker winner, the
// die, the cases; a scheme's own view draws its rounds, views.mjs). A
// 10,000-round shoe proof derives 4 million cards; the page receives a few
// short strings per round. No DOM here, so the node
// tests run it as it is (web/test/units.test.mjs).

import { CURSOR, NUMPY, convertCard, rankText } from './js/cards.mjs';
import { JsonFloat } from './js/json.mjs';
import { CATEGORIES, evaluate } from './js/poker.mjs';
import { deal as selfpokerDeal } from './js/selfpoker.mjs';
import { faces } from './games.mjs';
import { formatInt, plural } from './german.mjs';
import { keepsBets, viewOf } from './names.mjs';
import { schemeShown } from './views.mjs';

/** Findings sent to the page (the counts say how many there were). */
export const FINDINGS_SENT = 1000;
/**
 * Seeds, and rounds over all seeds, sent to the page: the rest is counted,
 * not drawn. 50,000 empty seeds cost the page seconds in one task to receive
 * and draw; a 10,000-round proof still arrives whole.
 */
export const EPOCHS_SENT = 500;
export const ROUNDS_SENT = 20_000;

export const CATEGORY_NAMES = Object.freeze({
  high_card: 'Höchste Karte', paar: 'Paar', zwei_paare: 'Zwei Paare', drilling: 'Drilling', strasse: 'Straße',
  flush: 'Flush', full_house: 'Full House', vierling: 'Vierling', straight_flush: 'Straight Flush',
});

const cardsText = (cards, show) => cards.map((c) => show(c).text).join(' ');
const scoreOf = (r) => [CATEGORIES.indexOf(r.category), ...r.ranks];
function compareScores(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** Ranks as a player names them in a sentence: „ein Paar Zweien“, „bis zur Zehn“. */
const RANK_PLURAL = { 2: 'Zweien', 3: 'Dreien', 4: 'Vieren', 5: 'Fünfen', 6: 'Sechsen', 7: 'Siebenen', 8: 'Achten', 9: 'Neunen', 10: 'Zehnen', 11: 'Buben', 12: 'Damen', 13: 'Könige', 14: 'Asse' };
const RANK_TO = { 5: 'zur Fünf', 6: 'zur Sechs', 7: 'zur Sieben', 8: 'zur Acht', 9: 'zur Neun', 10: 'zur Zehn', 11: 'zum Buben', 12: 'zur Dame', 13: 'zum König', 14: 'zum Ass' };

/**
 * A rated hand in German, as a player says it: { text } on its own („Ein
 * Paar Zweien, dazu A K 10“) and { withText } after „mit“ („mit einem Paar
 * Zweien, dazu A K 10“). Kickers are written as the cards show them.
 */
export function handWords({ category, ranks }) {
  const [a, b] = ranks;
  const rest = (from) => ranks.slice(from).filter((x) => x > 0).map(rankText).join(' ');
  const dazu = (from) => (rest(from) ? `, dazu ${rest(from)}` : '');
  switch (category) {
    case 'high_card': return { text: `Höchste Karte ${rankText(a)}${dazu(1)}`, withText: `der höchsten Karte ${rankText(a)}${dazu(1)}` };
    case 'paar': return { text: `Ein Paar ${RANK_PLURAL[a]}${dazu(1)}`, withText: `einem Paar ${RANK_PLURAL[a]}${dazu(1)}` };
    case 'zwei_paare': return { text: `Zwei Paare, ${RANK_PLURAL[a]} und ${RANK_PLURAL[b]}${dazu(2)}`, withText: `zwei Paaren, ${RANK_PLURAL[a]} und ${RANK_PLURAL[b]}${dazu(2)}` };
    case 'drilling': return { text: `Ein Drilling ${RANK_PLURAL[a]}${dazu(1)}`, withText: `einem Drilling ${RANK_PLURAL[a]}${dazu(1)}` };
    case 'strasse': return { text: `Eine Straße bis ${RANK_TO[a]}`, withText: `einer Straße bis ${RANK_TO[a]}` };
    case 'flush': return { text: `Ein Flush (${rest(0)})`, withText: `einem Flush (${rest(0)})` };
    case 'full_house': return { text: `Ein Full House, drei ${RANK_PLURAL[a]} und zwei ${RANK_PLURAL[b]}`, withText: `einem Full House, drei ${RANK_PLURAL[a]} und zwei ${RANK_PLURAL[b]}` };
    case 'vierling': return { text: `Ein Vierling ${RANK_PLURAL[a]}${dazu(1)}`, withText: `einem Vierling ${RANK_PLURAL[a]}${dazu(1)}` };
    case 'straight_flush': return a === 14
      ? { text: 'Ein Royal Flush', withText: 'einem Royal Flush' }
      : { text: `Ein Straight Flush bis ${RANK_TO[a]}`, withText: `einem Straight Flush bis ${RANK_TO[a]}` };
    default: return { text: `${CATEGORY_NAMES[category] ?? category} (${rest(0)})`, withText: `${CATEGORY_NAMES[category] ?? category} (${rest(0)})` };
  }
}

/** The best five of `cards` (cursor numbering), rated and in German (handWords), e.g. „Ein Paar Könige, dazu 9 7 4“. */
export function rateHand(cards) {
  if (cards.length < 5 || cards.length > 7 || new Set(cards).size !== cards.length) return null;
  const r = evaluate(cards);
  return { ...r, ...handWords(r), score: scoreOf(r) };
}

/**
 * The seats that win a showdown of `hole` (one pair of cards per seat) and
 * `board` in `numbering`: { seats: [1-based seat numbers], hand: rated hand }.
 */
export function showdown(hole, board, numbering = CURSOR) {
  const rated = hole.map((cards) => rateHand([...cards, ...board].map((c) => convertCard(numbering, CURSOR, c))));
  if (rated.some((r) => r === null)) return null;
  let best = [];
  for (const [i, r] of rated.entries()) {
    const cmp = best.length ? compareScores(r.score, rated[best[0]].score) : 1;
    if (cmp > 0) best = [i];
    else if (cmp === 0) best.push(i);
  }
  return { seats: best.map((i) => i + 1), hand: rated[best[0]] };
}

function winnerText(hole, board, numbering) {
  const won = showdown(hole, board, numbering);
  if (!won) return '';
  return won.seats.length === 1
    ? ` · Gewinner: Platz ${won.seats[0]} mit ${won.hand.withText}`
    : ` · Geteilter Pot: Plätze ${won.seats.join(', ')} mit ${won.hand.withText}`;
}

/** Blackjack's first deal from the first card seen, in the usual order: player, dealer, player, dealer. */
function shoeShown(r) {
  const cards = r.derived.cards;
  const seen = r.observed?.cards;
  const from = Array.isArray(seen) ? Math.max(0, seen.findIndex((c) => c !== null)) : 0;
  const four = cards.slice(from, from + 4).map((c) => faces.shoe(c).text);
  if (four.length < 4) return null;
  const at = from === 0 ? '' : ` (ab Karte ${formatInt(from + 1)})`;
  return `Erste Hand${at}: Spieler ${four[0]} ${four[2]} · Dealer ${four[1]}, verdeckt ${four[3]}`;
}

function ladderShown(r) {
  const order = r.derived.order;
  const ladder = Array.isArray(r.request?.ladder) ? r.request.ladder : null;
  const show = (x) => (ladder ? String(ladder[x] ?? x) : formatInt(x + 1));
  const first = order.slice(0, 5).map((x, k) => `Koffer ${k + 1}: ${show(x)}`).join(' · ');
  return order.length > 5 ? `${first} · …` : first;
}

/** A cursor round (the „Casino-Zahlen“ panel) by what it answers: a number, a fraction, an order. */
function numbersShown(d) {
  if (d.value !== undefined) return `Zahl: ${formatInt(d.value)}`;
  if (typeof d.float === 'number') return `Zahl: ${String(d.float).replace('.', ',')}`;
  if (Array.isArray(d.order)) return `Reihenfolge: ${d.order.slice(0, 10).map((x) => formatInt(x)).join(' ')}${d.order.length > 10 ? ' …' : ''}`;
  return null;
}

/**
 * A Pokerni hand: the board and the winner. A round without `players` (the
 * op needs none: it derives the whole deck) takes them from what was seen,
 * the hands then the five board cards (13 cards: 4 players); with neither,
 * the first cards of the deck.
 */
function pokerniShown(r, d) {
  if (!Array.isArray(d.deck)) return null;
  const seen = r.observed?.deck;
  const fromSeen = Array.isArray(seen) && seen.length % 2 === 1 ? (seen.length - 5) / 2 : NaN;
  const given = r.request?.players !== undefined;
  const players = given ? Number(r.request.players) : fromSeen;
  if (!Number.isSafeInteger(players) || players < 2 || 2 * players + 5 > d.deck.length) {
    return given ? null : `Stapel: ${cardsText(d.deck.slice(0, 10), faces.numpy)} …`;
  }
  const { hole, board } = selfpokerDeal(d.deck, players);
  return `Board ${cardsText(board, faces.numpy)}${winnerText(hole, board, NUMPY)}${given ? '' : ` (${plural(players, 'Spieler', 'Spieler')}, nach den gesehenen Karten)`}`;
}

const ACTIONS = { teilen: 'Teilen', verdoppeln: 'Verdoppeln', stehen: 'Stehen', ziehen: 'Ziehen' };

/** The rounds of games.mjs's own panels, by the panel the op declares (names.mjs, `view`). */
const SHOWN = {
  blackjack: (r, d) => (Array.isArray(d.cards) ? shoeShown(r) : null),
  tournament: (r, d) => (Array.isArray(d.cards) ? shoeShown(r) : null),
  dice: (r, d) => (typeof d.face === 'number' ? `Würfel: ${'⚀⚁⚂⚃⚄⚅'[d.face - 1]} ${d.face}` : null),
  poker: (r, d) => (Array.isArray(d.hole) && Array.isArray(d.board) ? `Board ${cardsText(d.board, faces.cursor)}${winnerText(d.hole, d.board, CURSOR)}` : null),
  pokerni: pokerniShown,
  dond: (r, d) => (Array.isArray(d.order) ? ladderShown(r) : null),
  numbers: (r, d) => numbersShown(d),
  strategy: (r, d) => (typeof d.action === 'string' ? `Die Tabelle sagt: ${ACTIONS[d.action] ?? d.action}` : null),
};

/**
 * One round as the game showed it, in one short line; null if there is
 * nothing to show. A scheme with its own views draws its rounds itself (views.mjs).
 */
export function roundShown(r) {
  const d = r.derived;
  if (!d || typeof d !== 'object') return null;
  const own = schemeShown(r);
  if (own !== undefined) return own;
  return Object.hasOwn(SHOWN, viewOf(r.op) ?? '') ? SHOWN[viewOf(r.op)](r, d) : null;
}

const intText = (v) => (typeof v === 'number' || typeof v === 'bigint' ? formatInt(v) : String(v));

/** The request's facts a player recognises: nonce, hand, roll number, players, cases. */
export function roundFacts(r) {
  const req = r.request ?? {};
  const facts = [
    ['nonce', (v) => `Nonce ${intText(v)}`],
    // Counted from 1 for players; the form asks for the operator's index from 0.
    ['hand', (v) => `Hand ${typeof v === 'number' || typeof v === 'bigint' ? formatInt(typeof v === 'bigint' ? v + 1n : v + 1) : v}`],
    ['n', (v) => `Wurfnummer ${intText(v)}`],
    ['tournamentId', (v) => `Turnier ${v}`],
    ['players', (v) => plural(Number(v), 'Spieler', 'Spieler')],
    ['size', (v) => plural(Number(v), 'Koffer', 'Koffer')],
    ['count', (v) => `${intText(v)} Einträge`],
    ['range', (v) => `Zahlen 0 bis ${intText(typeof v === 'bigint' ? v - 1n : Number(v) - 1)}`],
  ].filter(([k]) => req[k] !== undefined && req[k] !== null && typeof req[k] !== 'object').map(([k, f]) => f(req[k]));
  if (Array.isArray(r.seats)) facts.push(plural(r.seats.length, 'Platz', 'Plätze'));
  return facts.join(' · ');
}

/** Plain data only (BigInt kept, a JsonFloat as its number): what structured cloning carries unchanged. */
export function plain(v) {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(plain);
  if (v instanceof JsonFloat) return v.value;
  const out = {};
  for (const [k, x] of Object.entries(v)) out[k] = plain(x);
  return out;
}

/** A round as the page lists it. */
function roundView(r) {
  return {
    round: r.round, op: r.op ?? null, verdict: r.verdict, facts: roundFacts(r), shown: roundShown(r),
    findings: r.findings.map(plain),
  };
}

/**
 * What the page needs of a checked proof (see the top of this file): the
 * first EPOCHS_SENT seeds with at most ROUNDS_SENT rounds between them
 * (`epochsTotal`, and each seed's `roundsTotal`, say how many there are);
 * each finding sent names its round's op, so the page can word it without
 * the round. `bets`: whether a round of the proof is a bet of a history.
 */
export function proofView(checked) {
  const { report, epochs, format, title } = checked;
  const shortSecret = (s) => (s ? { field: s.field, text: typeof s.value === 'string' && s.value.length > 20 ? `${s.value.slice(0, 10)}…${s.value.slice(-6)}` : String(s.value) } : null);
  const roundAt = (rounds, i) => (rounds?.[i]?.round === i ? rounds[i] : rounds?.find((r) => r.round === i));
  const opAt = (f) => (f.epoch !== null && f.round !== null ? roundAt(epochs[f.epoch]?.rounds, f.round)?.op ?? null : null);
  let budget = ROUNDS_SENT;
  const sent = [];
  for (const e of epochs.slice(0, EPOCHS_SENT)) {
    const rounds = e.rounds.slice(0, Math.max(0, budget));
    budget -= rounds.length;
    sent.push({
      epoch: e.epoch, line: e.line, secret: shortSecret(e.secret), findings: e.findings.slice(0, FINDINGS_SENT).map(plain),
      // A crash history's chain: its terminating hash, shortened as a secret is.
      chain: e.chain?.head ? `${e.chain.head.terminating.slice(0, 10)}…${e.chain.head.terminating.slice(-6)}` : null,
      commit: e.commit ? { verdict: e.commit.verdict, derived: e.commit.derived ?? null } : null,
      rounds: rounds.map(roundView), roundsTotal: e.rounds.length,
    });
  }
  let bets = false;
  for (const e of epochs) {
    if (e.rounds.some((r) => typeof r.op === 'string' && keepsBets(r.op))) {
      bets = true;
      break;
    }
  }
  return {
    format, title, bets,
    report: { ...report, findings: report.findings.slice(0, FINDINGS_SENT).map((f) => ({ ...plain(f), op: opAt(f) })), findingsTotal: report.findings.length },
    epochs: sent, epochsTotal: epochs.length,
  };
}
