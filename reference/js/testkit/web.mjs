// `provably web` started for a test or a script: one way to start it and to
// read its address, shared by the browser tests, the page benchmark and the
// screenshot script.

import { spawn } from 'node:child_process';

/**
 * Starts `BIN web --port 0 --root ROOT` and resolves with `{ child, url }`
 * once it prints its "listening on URL" line. Rejects, with what the server
 * printed, when it exits first or says nothing within `timeoutMs`.
 */
export function startWeb(bin, root, timeoutMs = 30000) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(bin, ['web', '--port', '0', '--root', root], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let listening = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`provably web printed no "listening on" line within ${timeoutMs} ms\nstdout: ${out}\nstderr: ${err}`));
    }, timeoutMs);
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+\/)/.exec(out);
      if (m && !listening) {
        listening = true;
        clearTimeout(timer);
        resolvePromise({ child, url: m[1] });
      }
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (!listening) reject(new Error(`provably web exited (${code ?? signal}) before listening\nstderr: ${err}`));
    });
  });
}
