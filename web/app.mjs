// The verification page. Every number on it comes from reference/js (served
// at /js/), the same code the conformance harness holds to the published
// references; the page refuses to compute until that code has reproduced
// every vector of /vectors/selftest.json in this very browser.
//
//   selftest.mjs   the self-test (valid and invalid vectors)
//   ui.mjs         the tabs, the game panels, the proof card, the fragment
//   games.mjs      the games by their names, and how a round becomes a proof
//   panel.mjs      a game's form, its one verdict and its outcome
//   proofview.mjs  a whole proof: pasted, dropped or from #proof=…
//   fragment.mjs   the URL fragment (docs/links.md)
//   german.mjs     the page's German: names, plurals, amounts, messages

import { parseJson, stringifyJson } from './js/json.mjs';
import { NAME, execute } from './js/provably.mjs';
import { $ } from './dom.mjs';
import { formatInt } from './german.mjs';
import { runVectors } from './selftest.mjs';
import * as ui from './ui.mjs';

// ---------------------------------------------------------------------------
// Self-test

function pretty(value) {
  const text = stringifyJson(value);
  try {
    return JSON.stringify(JSON.parse(text), null, 1);
  } catch {
    return text;
  }
}

async function runSelftest() {
  const box = $('selftest');
  const show = (state, status) => {
    box.dataset.state = state;
    $('selftest-status').textContent = status;
  };
  let bundle;
  try {
    // boot.js started the download before the modules had arrived.
    const text = await (window.provablyVectors ?? fetch('/vectors/selftest.json', { cache: 'no-store' }).then((r) => {
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      return r.text();
    }));
    performance.mark('provably:vectors-loaded');
    // json.mjs keeps integers past 2^53 exact and rejects duplicate keys.
    bundle = parseJson(text);
    performance.mark('provably:vectors-parsed');
    if (!Array.isArray(bundle?.tests)) throw new Error('kein Feld "tests"');
  } catch (e) {
    show('failed', `Selbsttest nicht ladbar (${e.message}) — die Eingaben bleiben gesperrt.`);
    return false;
  }
  const tests = bundle.tests;
  const total = formatInt(tests.length);
  $('selftest-total').textContent = total;
  const counts = (passed, failed) => {
    $('selftest-passed').textContent = formatInt(passed);
    $('selftest-failed').textContent = formatInt(failed);
  };
  const { passed, failed, first } = await runVectors(tests, execute, { onProgress: counts });
  performance.mark('provably:selftest');
  counts(passed, failed);
  if (first) {
    const { t } = first;
    $('selftest-failure').hidden = false;
    $('selftest-failure-tcid').textContent = String(t.tcId);
    $('selftest-failure-op').textContent = `${t.scheme ?? ''} · ${t.input?.op ?? (t.result === 'invalid' ? 'ungültige Anfrage' : '?')}`;
    $('selftest-failure-comment').textContent = t.comment ?? '';
    $('selftest-failure-where').textContent = `Erste Abweichung bei: ${first.diff}`;
    $('selftest-failure-expected').textContent = t.result === 'invalid' ? `abgelehnt (invalid): ${t.line}` : pretty(t.expected);
    $('selftest-failure-got').textContent = pretty(first.got);
    show('failed', `${formatInt(failed)} von ${total} Prüfungen fehlgeschlagen — diese Seite rechnet hier nicht richtig, die Eingaben bleiben gesperrt.`);
    return false;
  }
  const declared = Number(bundle.numberOfTests);
  if (tests.length === 0 || declared !== tests.length) {
    show('failed', `Selbsttest unvollständig (${tests.length} Tests, angekündigt ${bundle.numberOfTests}) — die Eingaben bleiben gesperrt.`);
    return false;
  }
  show('passed', `${formatInt(passed)} von ${total} Prüfungen bestanden — die Eingaben sind frei.`);
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
