// The page's checks, off its main thread: the self-test and every proof
// check run here, so the page stays responsive whatever a proof costs (a
// 10,000-round proof, or rounds of 100,000-entry shuffles). The page talks
// to it through web/checker.mjs; a check is cancelled by ending the worker.
//
// Messages in:  { id, kind: 'selftest', text? }           the vectors' text (else /vectors/selftest.json)
//               { id, kind: 'proof', text | bytes | fragment, keepText }
//               { id, kind: 'round', game, values }       a game's form: built here
//                                                          into a one-epoch proof and checked
//               { id, kind: 'series', game, values, job }  a game's own list (its `series`:
//                                                          Stake's nonces, Crash's earlier games)
// Messages out: { id, type: 'progress', done, total }     at most every 100 ms
//               { id, type: 'part', epoch, rounds }       a proof's rounds, before its result
//               { id, type: 'done', result } | { id, type: 'error', message }
//               (a proof's result carries its `statistics`, reference/js/stats/)

import { checkProof } from './js/proof.mjs';
import { execute } from './js/provably.mjs';
import { WEBCRYPTO } from './js/webcrypto.mjs';
import { parseJson, stringifyJson } from './js/json.mjs';
import { statisticsOf } from './js/stats/index.mjs';
import { readBase64url } from './fragment.mjs';
import { GAMES } from './games.mjs';
import { serve } from './inbox.mjs';
import { InputError } from './input.mjs';
import { plain, proofView } from './roundview.mjs';
import { runVectors } from './selftest.mjs';

const PROGRESS_MS = 100;

function progress(id) {
  let last = 0;
  return (done, total, info) => {
    // A proof counts its rounds ("Runde 4.200 von 10.000"), not the commitments checked between them.
    if (info) [done, total] = [info.rounds, info.roundsTotal];
    const now = Date.now();
    if (now - last < PROGRESS_MS && done !== total) return;
    last = now;
    postMessage({ id, type: 'progress', done, total });
  };
}

function pretty(value) {
  const text = stringifyJson(value);
  try {
    return JSON.stringify(JSON.parse(text), null, 1);
  } catch {
    return text;
  }
}

/** The self-test's vectors, as the page serves them (never from the HTTP cache: a stale bundle would test old code against old answers). */
async function vectorsText() {
  const r = await fetch('/vectors/selftest.json', { cache: 'no-store' });
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
  return r.text();
}

async function selftest(id, { text }) {
  let bundle;
  try {
    bundle = parseJson(text ?? (await vectorsText()));
    if (!Array.isArray(bundle?.tests)) throw new Error('kein Feld "tests"');
  } catch (e) {
    return { unreadable: e.message };
  }
  const { tests } = bundle;
  const onProgress = progress(id);
  onProgress(0, tests.length);
  const { passed, failed, first } = await runVectors(tests, execute, { onProgress: (p, f) => onProgress(p + f, tests.length) });
  const failure = first && {
    tcId: String(first.t.tcId), scheme: first.t.scheme ?? '', op: first.t.input?.op ?? null, invalid: first.t.result === 'invalid',
    comment: first.t.comment ?? '', diff: first.diff,
    expected: first.t.result === 'invalid' ? `abgelehnt (invalid): ${first.t.line}` : pretty(first.t.expected), got: pretty(first.got),
  };
  return { total: tests.length, declared: String(bundle.numberOfTests), passed, failed, failure };
}

/** The text of a proof from the page: typed, a file's bytes, or a link's fragment value; { unreadable } for a fragment that does not decode. */
function proofInput(job) {
  if (job.fragment !== undefined) {
    const r = readBase64url(job.fragment);
    return r.error ? { unreadable: r.error } : r.text;
  }
  return job.bytes ?? job.text;
}

async function proof(id, job) {
  const input = proofInput(job);
  if (input.unreadable) return input;
  const checked = await checkProof(input, { onProgress: progress(id) });
  const text = typeof input === 'string' ? input : null;
  // Over the rounds just derived (reference/js/stats/): what `audit --stats` reports, no HMAC again.
  // A failure here must not cost the verdict: the statistics are apart from it.
  let statistics;
  try {
    statistics = statisticsOf(checked.epochs);
  } catch (e) {
    statistics = { error: String(e?.message ?? e) };
  }
  const view = proofView(checked);
  sendRounds(id, view.epochs);
  return { ...view, statistics, length: typeof input === 'string' ? input.length : input.length, text: job.keepText && text !== null && text.length <= job.keepText ? text : null };
}

/** Rounds posted per message ahead of the result. */
const PART = 500;

/**
 * Posts the rounds of `epochs` past the first PART in parts of at most PART
 * ({ type: 'part', epoch, rounds }, in order; the page appends them to
 * `epochs[epoch].rounds`) and leaves those epochs without them: 10,000
 * rounds in the one result message took the page's main thread over 100 ms
 * just to receive at a 4× slower CPU; a part is a few ms.
 */
function sendRounds(id, epochs) {
  let kept = 0;
  for (const [at, e] of epochs.entries()) {
    // The first PART rounds stay in the result: most proofs need no part at all.
    kept += e.rounds.length;
    if (kept <= PART) continue;
    for (let i = 0; i < e.rounds.length; i += PART) postMessage({ id, type: 'part', epoch: at, rounds: e.rounds.slice(i, i + PART) });
    e.rounds = [];
  }
}

/**
 * A game's round from its form's values: built (games.mjs; some games derive
 * the round to read what was seen) and checked here, so a round of 100,000
 * entries costs the page nothing. An InputError comes back as { error }.
 */
async function round(id, { game: gameId, values }) {
  const game = GAMES.find((g) => g.id === gameId);
  if (!game) throw new Error(`no game ${gameId}`);
  let built;
  try {
    built = await game.build(values, { execute });
  } catch (e) {
    if (e instanceof InputError) return { error: { field: e.field, message: e.message } };
    throw e;
  }
  const { epoch, ...rest } = built;
  const checked = await checkProof(stringifyJson({ proof: 1, epochs: [{ ...epoch, commit: epoch.commit ? epoch.commit : null }] }));
  return { built: plain(rest), checked: plain({ report: checked.report, epochs: checked.epochs }) };
}

/** A game's own list from its form's values and the job's (games' `series`); an InputError comes back as { error }. */
async function series(id, { game: gameId, values, job }) {
  const game = GAMES.find((g) => g.id === gameId);
  if (!game?.series) throw new Error(`no series for ${gameId}`);
  try {
    return await game.series(values, job, { execute, sha256: WEBCRYPTO.sha256, onProgress: progress(id) });
  } catch (e) {
    if (e instanceof InputError) return { error: { field: e.field, message: e.message } };
    throw e;
  }
}

const KINDS = { selftest, proof, round, series };

serve(async (data) => {
  const { id, kind } = data;
  try {
    const result = await KINDS[kind](id, data);
    postMessage({ id, type: 'done', result });
  } catch (e) {
    postMessage({ id, type: 'error', message: String(e?.stack ?? e) });
  }
});
postMessage({ type: 'ready' });
