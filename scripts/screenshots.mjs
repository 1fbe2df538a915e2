// The page's screenshots in docs/, taken in headless Chromium:
//
//   node scripts/screenshots.mjs        (needs target/debug/provably, or $PROVABLY_BIN)
//
//   docs/page-proof-match.png            a dice game proof (seed 001) that matches, desktop (1280×800)
//   docs/page-proof-match-mobile.png     the same on a phone (390×844)
//   docs/page-proof-mismatch.png         a blackjack shoe proof with one card changed, desktop
//   docs/page-proof-mismatch-mobile.png  the same on a phone (390×844)
//
// The proofs are opened from a #proof= link, as a player would, and each
// picture is the screen the player then sees: the page scrolls the verdict
// into view (verdict first), so that is what the viewport shows.
//   docs/screenshot.png                  a Blackjack round with a wrong card at position 18
//
// The proofs are built from the committed vectors (reference/js/testkit/proofs.mjs).
// Each file is written to a temporary name and renamed, so a failed run
// leaves the old screenshot, never half a new one.

import { renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startWeb } from '../reference/js/testkit/web.mjs';
import { base64url, loadVectors, sha256hex, systemProofs, tamperedShoe } from '../reference/js/testkit/proofs.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = resolve(REPO, process.env.PROVABLY_BIN ?? 'target/debug/provably');
const CHROMIUM = process.env.PROVABLY_CHROMIUM ?? '/usr/bin/chromium';
const DOCS = join(REPO, 'docs');
const STEP = 30000;

const startServer = () => startWeb(BIN, REPO, STEP);

async function shoot(browser, url, { viewport, file, prepare, element }) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, colorScheme: 'light' });
  context.setDefaultTimeout(STEP);
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('#selftest[data-state="passed"]');
  await prepare(page);
  const tmp = join(DOCS, `.${file}.tmp.png`);
  try {
    if (element) await page.locator(element).screenshot({ path: tmp, animations: 'disabled' });
    else await page.screenshot({ path: tmp, animations: 'disabled' });
    renameSync(tmp, join(DOCS, file));
  } finally {
    rmSync(tmp, { force: true });
    await context.close();
  }
  console.log(`wrote docs/${file}`);
}

const vectors = loadVectors();
const match = systemProofs(vectors).find((p) => p.id === 'dice');
const mismatch = tamperedShoe(vectors, { r: 1, index: 17 });
const proofDone = async (page) => {
  await page.waitForSelector('#proof-verdict[data-state="done"]');
  await page.waitForTimeout(300);
};

const server = await startServer();
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const [suffix, viewport] of [['', { width: 1280, height: 800 }], ['-mobile', { width: 390, height: 844 }]]) {
    await shoot(browser, `${server.url}#proof=${base64url(match.text)}`, { viewport, file: `page-proof-match${suffix}.png`, prepare: proofDone, element: null });
    await shoot(browser, `${server.url}#proof=${base64url(mismatch.text)}`, { viewport, file: `page-proof-mismatch${suffix}.png`, prepare: proofDone, element: null });
  }
  const { input, expected } = vectors.filter((t) => t.input.op === 'shoe.deal')[0];
  const seen = [...expected.cards.slice(0, 24)];
  seen[17] = expected.cards.find((c) => c !== seen[17]);
  const q = (k, v) => `${k}=${encodeURIComponent(v)}`;
  const round = `#shoe.deal&${[q('serverSeed', input.serverSeed), q('clientSeed', input.clientSeed), q('nonce', input.nonce), q('decks', input.decks), q('penetration', String(input.penetration).replace('.', ',')), q('commit', sha256hex(input.serverSeed)), q('observed', seen.join(' '))].join('&')}`;
  await shoot(browser, `${server.url}${round}`, {
    viewport: { width: 1100, height: 900 },
    file: 'screenshot.png',
    prepare: (page) => page.waitForSelector('#blackjack-verdict[data-state="done"]'),
    element: '#panel-blackjack',
  });
} finally {
  await browser.close();
  server.child.kill();
}
