// The worker's inbox (web/worker.mjs): the page posts a check as soon as it
// starts the worker, but the worker's modules wait for the schemes' own
// views (views.mjs loads them with a top-level await), and a message that
// arrives while no listener is there is lost. This module depends on none of
// them, so it runs at once and holds every message until `serve` takes over.

const held = [];
const hold = ({ data }) => held.push(data);
self.addEventListener('message', hold);

/** From now on `handle(data)` gets every message, first the ones held. */
export function serve(handle) {
  self.removeEventListener('message', hold);
  self.addEventListener('message', ({ data }) => handle(data));
  for (const data of held.splice(0)) handle(data);
}
