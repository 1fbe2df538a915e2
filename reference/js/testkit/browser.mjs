// The page's server (`provably web --root`) and a headless Chromium for the
// browser tests of one describe block: started before its tests, closed
// after them, the server killed when the process exits however it ends.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startWeb } from './web.mjs';

/** The checkout. */
export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** The page's files (another checkout's, to measure it beside this one). */
export const ROOT = resolve(process.env.PROVABLY_WEB_ROOT ?? REPO);
/** The binary that serves them (`provably web --root`). */
export const BIN = resolve(REPO, process.env.PROVABLY_BIN ?? 'target/debug/provably');
export const CHROMIUM = process.env.PROVABLY_CHROMIUM ?? '/usr/bin/chromium';
/** $CI set to anything but "", "0" or "false": there a missing prerequisite fails instead of skipping. */
export const IN_CI = !['', '0', 'false'].includes((process.env.CI ?? '').trim().toLowerCase());

/** What a browser test lacks: the binary, Chromium, and each of `also` ([what, path, how to get it]). */
export function missingPrerequisites(also = []) {
  return [
    !existsSync(BIN) && `no provably binary at ${BIN} (cargo build, or set PROVABLY_BIN)`,
    !existsSync(CHROMIUM) && `no chromium at ${CHROMIUM} (apt-get install chromium, or set PROVABLY_CHROMIUM)`,
    ...also.map(([what, path, how]) => !existsSync(path) && `no ${what} at ${path} (${how})`),
  ].filter(Boolean);
}

/**
 * Whether a browser suite can run. When it cannot, one test says why: it
 * fails as `required` where CI is set, and is skipped as `skipped` elsewhere.
 */
export function browserSuiteReady({ required, skipped }) {
  const missing = missingPrerequisites();
  if (missing.length && IN_CI) test(`${required} (required because CI is set)`, () => assert.fail(missing.join('; ')));
  else if (missing.length) test(skipped, { skip: missing.join('; ') }, () => {});
  return missing.length === 0;
}

/**
 * Registers the block's before and after hooks; `started(server, browser)`
 * is told both once they run. `step` bounds each start (a hang guard).
 */
export function pageUnderTest({ bin, root, executablePath, step }, started) {
  let server;
  let browser;
  const killServer = () => server?.child.exitCode === null && server.child.signalCode === null && server.child.kill('SIGKILL');
  process.on('exit', killServer);
  before(async () => {
    server = await startWeb(bin, root, step);
    browser = await chromium.launch({ executablePath, headless: true, timeout: step * 2, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
    started(server, browser);
  }, { timeout: step * 3 });
  after(async () => {
    try {
      await browser?.close();
    } finally {
      killServer();
    }
  });
}
