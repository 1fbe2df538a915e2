// The committed conformance page (docs/conformance/index.html, written by
// `provably report`) in a real browser: Debian's chromium opens it from
// disk, with every request other than the file itself refused, and reads
// the table the way a person would.
//
//   npm run test:browser
//
// What the page must show is read from the repository, never from this
// file: the stacks from harness/wild/*.toml, the recorded causes from
// harness/expectations/*.toml. Without chromium the test is skipped with
// the reason, except when $CI is set (as in web/test/browser.test.mjs).

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const PAGE = join(REPO, 'docs/conformance/index.html');
const CHROMIUM = process.env.PROVABLY_CHROMIUM ?? '/usr/bin/chromium';
const IN_CI = !['', '0', 'false'].includes((process.env.CI ?? '').trim().toLowerCase());
const STEP = 15000;

/** The `name = "…"` of every manifest in harness/wild. */
function stacks() {
  const dir = join(REPO, 'harness/wild');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.toml'))
    .map((f) => /^name = "([^"]+)"$/m.exec(readFileSync(join(dir, f), 'utf8'))[1]);
}

/** [target, op, cause] of every recorded finding (TOML basic strings are JSON strings here). */
function recorded() {
  const dir = join(REPO, 'harness/expectations');
  const out = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.toml'))) {
    const text = readFileSync(join(dir, f), 'utf8');
    const target = /^target = "([^"]+)"$/m.exec(text)[1];
    for (const block of text.split('[[finding]]').slice(1)) {
      const op = /^op = "([^"]+)"$/m.exec(block)[1];
      const cause = JSON.parse(/^cause = (".*")$/m.exec(block)[1]);
      out.push([target, op, cause]);
    }
  }
  return out;
}

const missing = !existsSync(CHROMIUM) && `no chromium at ${CHROMIUM} (apt-get install chromium, or set PROVABLY_CHROMIUM)`;

test('conformance page in chromium', { skip: !IN_CI && missing, timeout: 60000 }, async () => {
  assert.ok(!missing, `cannot run the browser test: ${missing}`);
  assert.ok(existsSync(PAGE), `${PAGE} is missing: run make conformance`);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, timeout: STEP * 2, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
    page.setDefaultTimeout(STEP);
    const refused = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url === pathToFileURL(PAGE).href) return route.continue();
      refused.push(url);
      return route.abort();
    });
    await page.goto(pathToFileURL(PAGE).href);
    assert.deepEqual(refused, [], 'the page loads nothing but itself');
    assert.equal(await page.locator('script').count(), 0, 'no script on the page');

    // One row per stack, each cell one of the five states; a claimed cell shows its count.
    const rows = await page.locator('#conformance tbody tr').evaluateAll((trs) =>
      trs.map((tr) => ({
        target: tr.dataset.target,
        cells: [...tr.querySelectorAll('td.cell')].map((td) => ({ state: td.classList[1], text: td.textContent })),
      })),
    );
    const columns = await page.locator('#conformance thead th[scope=col]').count();
    for (const name of stacks()) assert.ok(rows.some((r) => r.target === name), `no row for ${name}`);
    for (const r of rows) {
      assert.equal(r.cells.length, columns, `${r.target}: a cell per op`);
      for (const c of r.cells) {
        assert.ok(['agree', 'diverge', 'fault', 'skipped', 'na'].includes(c.state), `${r.target}: ${c.state}`);
        if (c.state !== 'na') assert.match(c.text, /\d/, `${r.target}: a ${c.state} cell shows its count`);
      }
    }

    // Every recorded finding is on the page with its cause, and its
    // target's cell for that op says diverge and links to it.
    const opIndex = await page.locator('#conformance thead th[scope=col]').evaluateAll((ths) => ths.map((th) => th.textContent));
    for (const [target, op, cause] of recorded()) {
      const row = rows.find((r) => r.target === target);
      assert.ok(row, `no row for ${target}`);
      assert.equal(row.cells[opIndex.indexOf(op)].state, 'diverge', `${target} ${op}`);
      const article = page.locator('article', { has: page.locator('h3', { hasText: new RegExp(`^${target.replace(/[.+]/g, '\\$&')}$`) }) });
      assert.ok((await article.locator('.cause', { hasText: cause }).count()) > 0, `${target}: cause "${cause}" not shown`);
      assert.ok((await article.locator('pre.request').count()) > 0, `${target}: a minimal request`);
    }
    assert.equal(await page.locator('.unrecorded').count(), 0, 'the committed run has no unrecorded finding');

    // A diverging cell's link lands on its finding.
    const link = page.locator('td.cell.diverge a').first();
    const href = await link.getAttribute('href');
    assert.ok((await page.locator(href).count()) === 1, `${href} leads nowhere`);

    mkdirSync(join(REPO, 'target'), { recursive: true });
    await page.screenshot({ path: join(REPO, 'target/conformance-screenshot.png') });
  } finally {
    await browser.close();
  }
});
