// The page's side of web/worker.mjs. Checks run in lanes: the proof card
// is one lane, each game another. A lane runs one check at a time; a new
// check in a lane cancels the one still running there (its worker is ended,
// so even a round that never yields stops at once) and its promise rejects
// with Cancelled. A lane's worker is kept for the next check.

let nextId = 1;
const lanes = new Map();

/** The rejection of a check that was cancelled or replaced. */
export class Cancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'Cancelled';
  }
}

function lane(name) {
  let l = lanes.get(name);
  if (l) return l;
  l = { worker: new Worker(new URL('./worker.mjs', import.meta.url), { type: 'module' }), job: null };
  l.worker.addEventListener('message', ({ data }) => {
    const job = l.job;
    if (!job || data.id !== job.id) return;
    if (data.type === 'progress') job.onProgress?.(data.done, data.total);
    else if (data.type === 'part') job.onPart?.(data);
    else {
      l.job = null;
      if (data.type === 'done') job.resolve(data.result);
      else job.reject(new Error(data.message));
    }
  });
  // A worker that cannot start (or dies) fails its check and is replaced next time.
  l.worker.addEventListener('error', (e) => {
    e.preventDefault();
    lanes.delete(name);
    l.job?.reject(new Error(`the checker did not start: ${e.message ?? 'worker error'}`));
    l.job = null;
  });
  lanes.set(name, l);
  return l;
}

/** Starts the lane's worker ahead of its first check (its modules load meanwhile). */
export const warm = (name) => void lane(name);

/** Whether a check is running in lane `name`. */
export const busy = (name) => Boolean(lanes.get(name)?.job);

/** Cancels the check running in lane `name`, if any. */
export function cancel(name) {
  const l = lanes.get(name);
  if (!l?.job) return false;
  l.worker.terminate();
  lanes.delete(name);
  l.job.reject(new Cancelled());
  l.job = null;
  return true;
}

/**
 * Runs a check of `kind` in lane `name`; resolves with the worker's result.
 * `onPart(message)` gets the parts a result is sent in ahead of it (worker.mjs).
 */
export function run(name, kind, payload, { onProgress, onPart } = {}) {
  cancel(name);
  const l = lane(name);
  const id = nextId++;
  return new Promise((resolve, reject) => {
    l.job = { id, resolve, reject, onProgress, onPart };
    l.worker.postMessage({ id, kind, ...payload });
  });
}
