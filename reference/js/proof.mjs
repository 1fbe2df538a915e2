// Proof documents, versions 1 and 2 (docs/proofs.md is the normative text): whole
// games, tournaments, table seeds and archives checked in one step, by the
// same rules as `provably audit`.
//
//   const { report, epochs } = await checkProof(text);
//   report.verdict   // "match" | "mismatch" | "invalid" | "unobserved"
//
// A document is {"proof": 1, "title"?, "epochs": [epoch, …]}; any other text
// is JSON lines, one epoch per line. An epoch is one committed seed: `commit`
// (hex SHA-256 shown before play, or null), the revealed secret (`serverSeed`,
// or `seed` for selfpoker: whichever field the rounds' ops take) and `rounds`.
// A round is a protocol v1 request without `id` and without the epoch's
// secret, plus `observed` (some of the op's `ok` fields; any list may be a
// prefix and hold null for an item not seen), `seats` instead of
// `clientSeed`, or `external` for a round that did not come from the seed.
//
// Checks: each epoch's `commit` against the scheme's own commitment of the
// secret (engine.commitmentOf: cursor.hash or selfpoker.commit); each round
// derived with engine.execute and compared leaf by leaf with what was
// observed. Verdicts per round: match, mismatch, skipped, invalid,
// unobserved; per epoch: commitment ok, mismatch, absent. A crash history
// (version 2, proof/chain.mjs) is an epoch headed by `chain` whose rounds are
// games: each game's point derived by the chain's variant, its hash walked
// back to the terminating hash, a game shown twice a mismatch, games
// missing gaps. A stake bet
// history is followed per epoch and client seed: a nonce bet twice is a
// mismatch at the second round, missing nonces are `gap` findings at the
// epoch's end. Every finding is listed, in document order, with exactly the
// keys of docs/proofs.md.
//
// The stages, under proof/ (the JS twin of src/proof/): format.mjs (document
// or JSON lines, the byte order mark), scan.mjs (the structural scanner),
// document.mjs (the document walk, each epoch into tasks), lines.mjs (JSON
// lines), tasks.mjs (the runner), commit.mjs (the commitment head), round.mjs
// (reading and checking one round), compare.mjs (an observation against the
// derived answer), bets.mjs (bet histories), index.mjs (checkProof and the
// report). This module is the one entry the page, the tests and the targets
// import.
//
// Decisions of this checker where docs/proofs.md leaves room (docs/proof-page.md):
// * it reads the whole text before checking anything: a document that is not
//   JSON is one `invalid` finding (field null, the line where the text
//   breaks) and nothing in it is counted; a JSON line that is not JSON is one
//   finding at its line with `round` null;
// * a lone surrogate escape ("\ud800") is not JSON, as serde_json reads it:
//   a round's finding (field `round`) in a round, the document's (or the
//   JSON line's) in its own keys and small values; `-0` is no integer;
// * a number is compared by value: integers (Numbers and BigInts) exactly,
//   anything written with a fraction or exponent as binary64;
// * a round its op refuses when run (stake.wheel with 15 segments) is
//   invalid and no bet: its nonce neither repeats nor closes a gap.
//   `provably audit` (src/proof/, bet_of) still counts it as a bet
//   and can turn it into a mismatch; the rule as specified (invalid rounds
//   are no bets, an invalid round stays invalid) is followed here.

/**
 * What each op answers: its `ok` fields in protocol order, each as the JSON
 * Schema harness/protocol.schema.json gives it (generated from the Rust op
 * table). Only the item rules bind an observation: a list may be shorter,
 * longer, repeat items and hold null.
 */
export { OK_FIELDS } from './generated/ops.mjs';
export { isBet, MAX_RUNS } from './proof/bets.mjs';
export { CHAIN_VERSION, isGameOp, readChain } from './proof/chain.mjs';
export { compareObserved } from './proof/compare.mjs';
export { VERSION } from './proof/document.mjs';
export { isDocument } from './proof/format.mjs';
export { checkProof, verdictOf } from './proof/index.mjs';
export { MAX_EXTERNAL, seatSeed } from './proof/round.mjs';
export { CheckCancelled } from './proof/tasks.mjs';
