// Shared plumbing for the unit tests: paths, subprocesses, seeded randomness.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseJson } from '../json.mjs';

export const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO = resolve(HERE, '../../..');
export const PUBLISHED = join(REPO, 'reference/published');

/** The python that has numpy: $PROVABLY_PYTHON, else the repo's .venv. */
export const NUMPY_PYTHON = resolve(REPO, process.env.PROVABLY_PYTHON ?? '.venv/bin/python');

/** Plain python3 for the published scripts, which need only the standard library. */
export const PYTHON = process.env.PROVABLY_PYTHON3 ?? 'python3';

/**
 * Runs a program and returns its stdout parsed as JSON. Integers past 2^53
 * come back as BigInt (json.mjs), so nothing is rounded on the way.
 * A failure carries the command, status and stderr, like a bug report.
 */
export function runJson(cmd, args, { input } = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', input, maxBuffer: 1 << 28 });
  if (r.error) throw new Error(`could not run ${cmd}: ${r.error.message}`);
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}\nstderr:\n${r.stderr}`);
  }
  try {
    return plain(parseJson(r.stdout.trim()));
  } catch (e) {
    throw new Error(`${cmd} ${args.join(' ')} printed something that is not JSON (${e.message}):\n${r.stdout.slice(0, 2000)}`);
  }
}

/** json.mjs builds null-prototype objects; deepStrictEqual wants ordinary ones. */
function plain(v) {
  if (Array.isArray(v)) return v.map(plain);
  if (typeof v === 'object' && v !== null) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  }
  return v;
}

/**
 * Starts a protocol target (`cmd` with `args`), feeds it `input` (string or
 * Buffer), closes its stdin, and resolves with its exit code, response lines
 * and those lines parsed. Fails after `timeout` ms rather than hang.
 */
export function spawnTarget(cmd, args, input, { timeout = 20000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${cmd} ${args.join(' ')} did not finish within ${timeout} ms; stderr:\n${err}`));
    }, timeout);
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const text = Buffer.concat(out).toString('utf8');
      const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
      resolve({ code, lines, responses: lines.map((l) => parseJson(l)), stderr: err });
    });
    child.stdin.on('error', () => {}); // a target that exits early is reported by its output
    child.stdin.end(input);
  });
}

/** Writes JSON to a fresh temp file and returns its path. */
export function tempJson(name, value) {
  const dir = mkdtempSync(join(tmpdir(), 'provably-js-test-'));
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
}

/** Whether `python` can import numpy (probed once). */
export function hasNumpy(python = NUMPY_PYTHON) {
  if (!existsSync(python)) return false;
  const r = spawnSync(python, ['-c', 'import numpy'], { encoding: 'utf8' });
  return r.status === 0;
}

/** Deterministic PRNG (mulberry32) so a failing random case can be replayed. */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    float: next,
    int: (n) => Math.floor(next() * n),
    pick: (list) => list[Math.floor(next() * list.length)],
    hex: (len) => Array.from({ length: len }, () => '0123456789abcdef'[Math.floor(next() * 16)]).join(''),
  };
}

/** Seeds of every shape the schemes must survive: hex, empty, Unicode, separators. */
export const TRICKY_STRINGS = [
  '',
  'a',
  ':',
  'spieler:1:2',
  'Grüße aus Köln',
  'ÄÖÜ äöü ß €',
  '🂡🂮 emoji 🎲',
  '日本語のシード',
  '\u0000nul',
  'tab\tand\nnewline',
  'x'.repeat(100),
  'y'.repeat(65), // longer than an HMAC block: the key gets hashed first
];
