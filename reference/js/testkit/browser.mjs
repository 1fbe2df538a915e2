// The page's server (`provably web --root`) and a headless Chromium for the
// browser tests of one describe block: started before its tests, closed
// after them, the server killed when the process exits however it ends.

import { after, before } from 'node:test';
import { chromium } from 'playwright-core';
import { startWeb } from './web.mjs';

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
