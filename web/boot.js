// A classic script, run before the rest of the page is parsed. A #proof=
// link carries the whole proof in the URL (up to 2 MB). While it stays in
// the document's URL, Chromium copies and parses it on the main thread over
// and over (every history update, every scan of the page's forms, every
// request the page makes): at a 4× slower CPU that was seconds of stalls
// before the proof was even read. So the value is taken here and
// the address bar keeps the page without it; ui.mjs opens it once the
// self-test has passed, and "Link zu dieser Prüfung" gives the link back.
//
// A reload must still open the link: the tab's sessionStorage keeps it,
// written when the page goes away (storing a megabyte costs a task as long
// as replacing the URL; on the way out it stalls nothing). provablyKeepLink
// names the link a reload opens, also for later links; the card forgets it
// when it shows something else. A link too large for the storage is not kept.
'use strict';
const KEPT_LINK = 'provably:link';
let keptLink = null;
window.provablyKeepLink = (hash) => {
  keptLink = hash || null;
};
window.addEventListener('pagehide', () => {
  try {
    if (keptLink) sessionStorage.setItem(KEPT_LINK, keptLink);
    else sessionStorage.removeItem(KEPT_LINK);
  } catch {
    // Storage full or switched off: a reload then opens the empty page.
  }
});
if (location.hash.startsWith('#proof=')) {
  const link = location.hash;
  window.provablyLink = link;
  keptLink = link;
  // In a task of its own: replacing a 1 MB URL is some 60 ms at 4×, and the
  // parser goes on in the task that ran this script.
  setTimeout(() => {
    if (location.hash.startsWith('#proof=')) history.replaceState(null, '', location.pathname + location.search);
  }, 0);
} else if (!location.hash && performance.getEntriesByType('navigation')[0]?.type === 'reload') {
  try {
    const kept = sessionStorage.getItem(KEPT_LINK);
    if (kept) window.provablyLink = keptLink = kept;
  } catch {
    // No storage: nothing was kept.
  }
}

// The page's modules (the template #page-modules in index.html says why they
// are added from here): PER_TASK preloads a task, the first ones at once.
(() => {
  const PER_TASK = 8;
  const modules = [...(document.getElementById('page-modules')?.content.children ?? [])];
  const preload = (at) => {
    for (const link of modules.slice(at, at + PER_TASK)) document.head.append(link);
    if (at + PER_TASK < modules.length) setTimeout(preload, 0, at + PER_TASK);
  };
  preload(0);
})();
