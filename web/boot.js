// A classic script, run as soon as it arrives: it starts loading the
// self-test vectors while the page's modules are still on their way, so the
// self-test can begin the moment app.mjs runs. app.mjs takes the promise
// (and loads the file itself if this script did not run).
'use strict';
window.provablyVectors = fetch('/vectors/selftest.json', { cache: 'no-store' }).then((r) => {
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
  return r.text();
});
// Handled by app.mjs; this only keeps an early failure from being reported twice.
window.provablyVectors.catch(() => {});
