// The verification page. Every number on it comes from reference/js (served
// at /js/), the same code the conformance harness holds to the published
// references; the page refuses to compute until that code has reproduced
// every vector of /vectors/selftest.json in this very browser.
//
//   worker.mjs     the self-test and every check, off the main thread
//   inbox.mjs      the worker's messages, held while its modules load
//   checker.mjs    the page's side of the worker: lanes, progress, cancel
//   roundview.mjs  a checked round as the game showed it (in the worker)
//   selftest.mjs   the self-test (valid and invalid vectors)
//   ui.mjs         the tabs, the game panels, the proof card, the fragment
//   games.mjs      the games by their names, and how a round becomes a proof
//   panel.mjs      a game's form, its one verdict and its outcome
//   proofview.mjs  a whole proof: pasted, dropped or from #proof=…
//   statsview.mjs  a whole proof's statistics (reference/js/stats/, in the
//                  worker) in German, apart from the verdict
//   names.mjs      each op's name for players, panel and words, read off its declaration
//   views.mjs      the schemes' own views, loaded by their declarations
//   stake.mjs      Stake's games (the stake scheme's views): the panels, the form
//   stakeview.mjs  a Stake result as Stake shows it (board, grid, multiplier)
//   input.mjs      what a typed field holds (InputError, tokens)
//   fragment.mjs   the URL fragment (docs/links.md)
//   german.mjs     the page's German: names, plurals, amounts, messages

import { NAME } from './js/provably.mjs';
import { run } from './checker.mjs';
import { $ } from './dom.mjs';
import { formatInt } from './german.mjs';
import * as ui from './ui.mjs';

// ---------------------------------------------------------------------------
// Self-test: in the worker that then checks proofs (web/worker.mjs), so the
// code that passed is the code that checks, and the page stays responsive.

function showFailure(f) {
  $('selftest-failure').hidden = false;
  $('selftest-failure-tcid').textContent = f.tcId;
  $('selftest-failure-op').textContent = `${f.scheme} · ${f.op ?? (f.invalid ? 'ungültige Anfrage' : '?')}`;
  $('selftest-failure-comment').textContent = f.comment;
  $('selftest-failure-where').textContent = `Erste Abweichung bei: ${f.diff}`;
  $('selftest-failure-expected').textContent = f.expected;
  $('selftest-failure-got').textContent = f.got;
}

async function runSelftest() {
  const box = $('selftest');
  const show = (state, status) => {
    box.dataset.state = state;
    $('selftest-status').textContent = status;
  };
  const locked = 'die Eingaben bleiben gesperrt.';
  const counts = (passed, failed) => {
    $('selftest-passed').textContent = formatInt(passed);
    $('selftest-failed').textContent = formatInt(failed);
  };
  let r;
  try {
    // The worker loads the vectors itself: 1.6 MB read, decoded and copied
    // here were main-thread tasks of 100 ms and more at a slow CPU.
    r = await run('proof', 'selftest', {}, {
      onProgress: (done, total) => {
        $('selftest-total').textContent = formatInt(total);
        show('running', `Läuft … ${formatInt(done)} von ${formatInt(total)}`);
      },
    });
  } catch (e) {
    show('failed', `Selbsttest nicht ausführbar (${e.message}) – ${locked}`);
    return false;
  }
  performance.mark('provably:selftest');
  if (r.unreadable) {
    show('failed', `Selbsttest nicht ladbar (${r.unreadable}) – ${locked}`);
    return false;
  }
  const total = formatInt(r.total);
  $('selftest-total').textContent = total;
  counts(r.passed, r.failed);
  if (r.failure) {
    showFailure(r.failure);
    show('failed', `${formatInt(r.failed)} von ${total} Prüfungen fehlgeschlagen – diese Seite rechnet hier nicht richtig, ${locked}`);
    return false;
  }
  if (r.total === 0 || Number(r.declared) !== r.total) {
    show('failed', `Selbsttest unvollständig (${formatInt(r.total)} Tests, angekündigt ${r.declared}) – ${locked}`);
    return false;
  }
  show('passed', `${formatInt(r.passed)} von ${total} Prüfungen bestanden – die Eingaben sind frei.`);
  return true;
}

// ---------------------------------------------------------------------------

// Marks for scripts/bench-page.mjs: where start-up time goes.
performance.mark('provably:app');
$('engine-name').textContent = NAME;
// The self-test starts at once; the page is built while it waits for its
// first WebCrypto answers. The inputs stay disabled until it has passed.
const selftest = runSelftest();
ui.buildPage();
performance.mark('provably:panels');
selftest.then((ok) => {
  $('workbench').disabled = !ok;
  document.body.dataset.selftest = ok ? 'passed' : 'failed';
  if (ok) ui.followFragments();
});
