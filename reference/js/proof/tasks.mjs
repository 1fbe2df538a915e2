// The tasks and their runner: the walk (document.mjs, lines.mjs) turns a
// proof into tasks in document order, some of them work to run (a round, a
// commitment); they run here at most `limit` at a time, and the report is
// folded from them in order afterwards (index.mjs).

/** Thrown by checkProof when its `signal` is aborted. */
export class CheckCancelled extends Error {
  constructor() {
    super('the check was cancelled');
    this.name = 'CheckCancelled';
  }
}

/**
 * Runs `tasks` (some with run()) at most `limit` at a time; results in order.
 * onProgress(done, total, { rounds, roundsTotal }) after every 25 tasks and
 * at the end; `signal` (an AbortSignal) stops it between two tasks.
 */
export async function runAll(tasks, limit, onProgress, signal) {
  const work = tasks.filter((t) => t.run);
  const roundsTotal = work.filter((t) => t.kind === 'round').length;
  let next = 0;
  let done = 0;
  let rounds = 0;
  const worker = async () => {
    while (next < work.length) {
      if (signal?.aborted) throw new CheckCancelled();
      const t = work[next++];
      t.result = await t.run();
      done++;
      if (t.kind === 'round') rounds++;
      if (onProgress && (done % 25 === 0 || done === work.length)) onProgress(done, work.length, { rounds, roundsTotal });
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, work.length) }, worker));
  if (signal?.aborted) throw new CheckCancelled();
}
