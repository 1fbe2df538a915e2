#!/usr/bin/env node
// The README's picture of the conformance page: Debian's chromium, driven by
// playwright-core, opens the static page from disk (no server, no network)
// and saves its heading and table.
//
//   node scripts/conformance-screenshot.mjs [PAGE] [PNG]
//   (default docs/conformance/index.html and docs/conformance/screenshot.png)

import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const page = resolve(process.argv[2] ?? 'docs/conformance/index.html');
const png = resolve(process.argv[3] ?? 'docs/conformance/screenshot.png');
const browser = await chromium.launch({
  executablePath: process.env.PROVABLY_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
try {
  const tab = await browser.newPage({ viewport: { width: 1600, height: 1000 }, deviceScaleFactor: 1 });
  // Nothing but the file itself may load.
  await tab.route('**/*', (route) => (route.request().url().startsWith('file:') ? route.continue() : route.abort()));
  await tab.goto(pathToFileURL(page).href, { timeout: 15000 });
  // The heading and the whole table: every row, however many there are.
  const box = await tab.locator('#conformance').boundingBox();
  await tab.screenshot({ path: png, fullPage: true, clip: { x: 0, y: 0, width: 1600, height: Math.ceil(box.y + box.height + 24) }, timeout: 15000 });
  console.log(`wrote ${png}`);
} finally {
  await browser.close();
}
