#!/usr/bin/env node
// The kill table: every mutant of catalog.json run three ways, and whether
// each way catches it.
//
//   vectors only     provably diff --vectors-only
//   default diff     provably diff --cases N --cases-for poker.deal=M --seed S
//   published        the inputs `python3 reference/published/referenz.py vektoren`
//                    prints, compared with the outputs it prints (cursor ops
//                    only; every other op is "n/a")
//
// A mutant is caught when some case of its ops diverges or the target
// faults. The table goes to stdout and, between the markers of
// docs/adequacy.md, into that file (written atomically).
//
//   node tests/mutants/adequacy.mjs [--bin PROVABLY] [--cases N] [--cases-for OP=N]...
//        [--seed S] [--parallel P] [--only NAME,...] [--out FILE]
//   node tests/mutants/adequacy.mjs --check [--bin PROVABLY]
//        vectors only; exit 1 if any mutant survives (CI); writes nothing
//
// Mutants run in batches (one `provably diff` with a --target-cmd per
// mutant, --jobs 1, --shrink-budget 0), P batches side by side: a mutant claims one or two ops,
// so one copy of it is enough, and P = 2 uses both cores.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { firstDifference } from '../../reference/js/compare.mjs';
import { OPS } from '../../reference/js/provably.mjs';
import { CATALOG, REPO, ask, commandOf, eachLimited, requestLine, shellCommandOf, witnessText } from './protocol.mjs';

const PUBLISHED_OPS = ['cursor.hash', 'cursor.raw', 'cursor.float', 'cursor.int', 'cursor.shuffle'];
const BATCH = 8;
const START = '<!-- adequacy:begin (written by tests/mutants/adequacy.mjs; edit outside the markers) -->';
const END = '<!-- adequacy:end -->';

const { values: opts } = parseArgs({
  options: {
    bin: { type: 'string', default: process.env.PROVABLY_BIN ?? 'target/release/provably' },
    check: { type: 'boolean', default: false },
    cases: { type: 'string', default: '1000' },
    'cases-for': { type: 'string', multiple: true, default: ['poker.deal=200'] },
    seed: { type: 'string', default: '1' },
    parallel: { type: 'string', default: '2' },
    only: { type: 'string' },
    out: { type: 'string', default: 'docs/adequacy.md' },
  },
});
const BIN = resolve(REPO, opts.bin);
const PARALLEL = Number(opts.parallel);
const MUTANTS = opts.only ? CATALOG.mutants.filter((m) => opts.only.split(',').includes(m.name)) : CATALOG.mutants;
const tty = process.stderr.isTTY;

function progress(label, done, total) {
  if (tty) process.stderr.write(`\r${label}: ${done}/${total} mutants${done === total ? '\n' : ''}`);
}

// Faults that mean the run proved nothing about the mutant: it never got to answer.
const BROKEN = ['spawn', 'startup-timeout', 'handshake', 'missing-op'];

/** What one target of a report says: { caught, diverge, cases, faults }; throws if the target never ran. */
function verdict(report, target) {
  const t = report.targets.find((x) => x.target === target.cmd);
  const broken = t?.faults.find((f) => BROKEN.includes(f.kind));
  if (!t || broken)
    throw new Error(`${target.name} did not run: ${broken ? `${broken.kind}: ${broken.detail}` : 'not in the report'}`);
  const ops = t.ops.filter((o) => o.claimed);
  if (
    ops
      .map((o) => o.op)
      .sort()
      .join() !== [...target.ops].sort().join()
  ) {
    const why = t.faults[0] ? ` (${t.faults[0].kind}: ${t.faults[0].detail})` : '';
    throw new Error(`${target.name} claims [${ops.map((o) => o.op)}], not [${target.ops}]${why}`);
  }
  const sum = (f) => ops.reduce((n, o) => n + o[f], 0);
  const faults = t.faults.length + sum('faults');
  return { caught: sum('diverge') > 0 || faults > 0, diverge: sum('diverge'), cases: sum('cases'), faults };
}

/** Runs provably diff over `targets` ({ name, cmd, ops }) with `args`; resolves name -> verdict. */
function diffBatch(targets, args, dir, index) {
  const report = join(dir, `batch-${index}.json`);
  const cmds = targets.flatMap((t) => ['--target-cmd', t.cmd]);
  return new Promise((done, fail) => {
    // The table needs verdicts, not minimal requests: no shrinking (a
    // mutant that diverges on a 100,000-card shuffle would spend minutes on it).
    const flags = ['--jobs', '1', '--shrink-budget', '0', '--quiet', '--report', report];
    const child = spawn(BIN, ['diff', ...cmds, ...args, ...flags], {
      cwd: REPO,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => {
      try {
        const json = JSON.parse(readFileSync(report, 'utf8'));
        done(new Map(targets.map((t) => [t.name, verdict(json, t)])));
      } catch (e) {
        fail(new Error(`provably diff exited ${code}: ${e.message}\n${stderr}`));
      }
    });
  });
}

/**
 * The negative control: our clean engine, every op. When the run is sound
 * it agrees on every case; if it is "caught", the run would catch anything.
 */
const CONTROL = { name: '(control: reference/js/target.mjs)', cmd: 'node reference/js/target.mjs', ops: [...OPS] };

/** One mode over every mutant: batches of BATCH, PARALLEL at a time (and the control with --vectors-only). */
async function runDiff(label, args) {
  const dir = mkdtempSync(join(tmpdir(), 'provably-adequacy-'));
  const targets = MUTANTS.map((m) => ({ name: m.name, cmd: shellCommandOf(m), ops: m.ops }));
  const batches = [];
  for (let i = 0; i < targets.length; i += BATCH) batches.push(targets.slice(i, i + BATCH));
  if (args.includes('--vectors-only')) batches.push([CONTROL]);
  const results = new Map();
  let finished = 0;
  const started = Date.now();
  try {
    await eachLimited(batches, PARALLEL, async (batch, i) => {
      for (const [name, r] of await diffBatch(batch, args, dir, i)) results.set(name, r);
      finished += batch.filter((t) => t !== CONTROL).length;
      progress(label, finished, MUTANTS.length);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const control = results.get(CONTROL.name);
  if (control?.caught) {
    throw new Error(
      `the control, our clean engine, diverges on ${control.diverge} cases (${control.faults} faults): this run proves nothing`,
    );
  }
  results.delete(CONTROL.name);
  return { results, seconds: (Date.now() - started) / 1000, vectors: control?.cases };
}

/** The published vektoren as requests with their published answers. */
function publishedCases() {
  const r = spawnSync(
    process.env.PROVABLY_PYTHON3 ?? 'python3',
    [join(REPO, 'reference/published/referenz.py'), 'vektoren'],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`referenz.py vektoren failed: ${r.stderr}`);
  const v = JSON.parse(r.stdout);
  const at = ({ serverSeed, clientSeed, nonce, cursor }) => ({ serverSeed, clientSeed, nonce, cursor });
  return [
    ...v.hash.map((e) => ({ input: { op: 'cursor.hash', serverSeed: e.serverSeed }, want: { hash: e.hash } })),
    ...v.raw.map((e) => ({ input: { op: 'cursor.raw', ...at(e) }, want: { raw: e.raw } })),
    // repr() text; Number() reads it back to the same double.
    ...v.float.map((e) => ({ input: { op: 'cursor.float', ...at(e) }, want: { float: Number(e.value) } })),
    ...v.int.map((e) => ({
      input: { op: 'cursor.int', ...at(e), range: e.range },
      want: { value: e.value, cursorNext: e.cursorNext },
    })),
    ...v.shuffle.map((e) => ({
      input: { op: 'cursor.shuffle', ...at({ ...e, cursor: 0 }), count: e.count },
      want: { order: e.order, cursorNext: e.cursorNext },
    })),
  ];
}

async function runPublished() {
  const started = Date.now();
  const cases = publishedCases();
  const results = new Map();
  let finished = 0;
  await eachLimited(MUTANTS, PARALLEL, async (m) => {
    const mine = cases.filter((c) => m.ops.includes(c.input.op));
    if (mine.length === 0) results.set(m.name, { applicable: false });
    else {
      const got = await ask(
        commandOf(m),
        mine.map((c, i) => requestLine({ input: c.input }, i + 1)),
      );
      const differ = mine.filter(
        (c, i) => got.byId.get(i + 1)?.ok === undefined || firstDifference(c.want, got.byId.get(i + 1).ok) !== null,
      );
      results.set(m.name, { applicable: true, caught: differ.length > 0, diverge: differ.length, cases: mine.length });
    }
    progress('published vektoren', ++finished, MUTANTS.length);
  });
  return { results, seconds: (Date.now() - started) / 1000, cases: cases.length, domain: domainOf(cases) };
}

/** What the published cases span, measured from them: the reason a cursor mutant can slip through. */
function domainOf(cases) {
  const inputs = cases.map((c) => c.input);
  const max = (field) => Math.max(...inputs.filter((i) => i[field] !== undefined).map((i) => i[field]));
  const seeds = inputs.flatMap((i) => [i.serverSeed, i.clientSeed]).filter((x) => x !== undefined);
  const ascii = seeds.every((x) => /^[\x20-\x7e]*$/.test(x));
  const keyBytes = Math.max(...inputs.map((i) => Buffer.byteLength(i.serverSeed, 'utf8')));
  return [
    `${ascii ? 'every seed is printable ASCII' : 'some seeds are not ASCII'}`,
    `server seeds of at most ${keyBytes} bytes`,
    `ranges up to ${max('range').toLocaleString('en-US')}`,
    `counts up to ${max('count')}`,
    `nonces up to ${max('nonce').toLocaleString('en-US')}`,
    `cursors up to ${max('cursor')}`,
    'and every request is well-formed',
  ].join(', ');
}

function cell(r) {
  if (r.applicable === false) return 'n/a';
  if (!r.caught) return '**no**';
  return r.diverge > 0 ? `yes (${r.diverge} of ${r.cases})` : `yes (${r.faults} fault${r.faults === 1 ? '' : 's'})`;
}
const count = (mode) => [...mode.results.values()].filter((r) => r.caught).length;

/** The markdown between the markers: totals, the table, per op, survivors. */
function markdown(vec, diff, pub, command) {
  const n = MUTANTS.length;
  const applicable = [...pub.results.values()].filter((r) => r.applicable).length;
  const lines = [
    `**${n} mutants.** Caught by the vectors alone: **${count(vec)} of ${n}** · by a default diff: **${count(diff)} of ${n}** · by the published \`referenz.py vektoren\`: **${count(pub)} of ${n}** (${applicable} of them touch an op it covers).`,
    '',
    `Command: ${command}`,
    '',
    'A cell says whether the way catches the mutant and, if so, on how many of the cases it asks for the mutant\'s ops ("yes (3 of 23)": 3 cases diverge). "n/a": the published vektoren do not cover the op.',
    '',
    '| mutant | op | category | vectors only | default diff | published vektoren |',
    '|:--|:--|:--|:--|:--|:--|',
    ...MUTANTS.map(
      (m) =>
        `| \`${m.name}\` | ${m.ops.join(', ')} | ${m.category} | ${cell(vec.results.get(m.name))} | ${cell(diff.results.get(m.name))} | ${cell(pub.results.get(m.name))} |`,
    ),
    '',
    '### By op',
    '',
    '| op | mutants | vectors only | default diff | published vektoren |',
    '|:--|--:|--:|--:|--:|',
  ];
  const ops = [...new Set(MUTANTS.flatMap((m) => m.ops))];
  for (const op of ops) {
    const mine = MUTANTS.filter((m) => m.ops.includes(op));
    const c = (mode) => mine.filter((m) => mode.results.get(m.name).caught).length;
    lines.push(`| ${op} | ${mine.length} | ${c(vec)} | ${c(diff)} | ${PUBLISHED_OPS.includes(op) ? c(pub) : 'n/a'} |`);
  }
  lines.push('', '### Survivors', '');
  const survivors = MUTANTS.filter((m) => !vec.results.get(m.name).caught || !diff.results.get(m.name).caught);
  if (survivors.length === 0) lines.push('None: the vectors alone and a default diff each catch every mutant.');
  for (const m of survivors) {
    const where = [
      !vec.results.get(m.name).caught && 'the vectors',
      !diff.results.get(m.name).caught && 'a default diff',
    ]
      .filter(Boolean)
      .join(' and ');
    lines.push(
      `- \`${m.name}\` (${m.ops.join(', ')}) ${m.description}. Survives ${where}. Needs a vector: ${m.killedBy}, e.g. \`${witnessText(m.witness)}\`.`,
    );
  }
  lines.push('', '### What the published vektoren miss', '');
  const missed = MUTANTS.filter((m) => pub.results.get(m.name).applicable && !pub.results.get(m.name).caught);
  const other = MUTANTS.filter((m) => !pub.results.get(m.name).applicable);
  lines.push(
    `The ${pub.cases} published cases are cursor cases only, so ${other.length} mutants of the other ops are n/a. ` +
      `Of the ${MUTANTS.length - other.length} cursor mutants they miss ${missed.length}, each for want of an input the published cases do not hold: ${pub.domain}.`,
    '',
  );
  for (const m of missed) lines.push(`- \`${m.name}\` (${m.ops.join(', ')}): needs ${m.killedBy}.`);
  return lines.join('\n');
}

function writeDoc(path, body) {
  const file = resolve(REPO, path);
  const text = readFileSync(file, 'utf8');
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${path} has no ${START} … ${END} markers`);
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, `${text.slice(0, a + START.length)}\n${body}\n${text.slice(b)}`);
  renameSync(tmp, file);
}

async function main() {
  if (opts.check) {
    const vec = await runDiff('vectors only', ['--vectors-only']);
    const survivors = MUTANTS.filter((m) => !vec.results.get(m.name).caught);
    console.log(
      `vectors only: ${MUTANTS.length - survivors.length} of ${MUTANTS.length} mutants caught in ${vec.seconds.toFixed(1)} s`,
    );
    for (const m of survivors)
      console.log(
        `  survives: ${m.name} (${m.ops.join(', ')}): ${m.description}; needs a vector: ${m.killedBy}, e.g. ${witnessText(m.witness)}`,
      );
    return survivors.length === 0 ? 0 : 1;
  }
  const diffArgs = [
    '--cases',
    opts.cases,
    ...opts['cases-for'].flatMap((c) => ['--cases-for', c]),
    '--seed',
    opts.seed,
  ];
  const vec = await runDiff('vectors only', ['--vectors-only']);
  const diff = await runDiff('default diff', diffArgs);
  const pub = await runPublished();
  const command = [
    `\`node tests/mutants/adequacy.mjs ${process.argv.slice(2).join(' ')}\` (\`make adequacy\`), which runs per mutant`,
    `\`provably diff --target-cmd MUTANT --vectors-only\` (${vec.vectors} vectors over the ${OPS.length} ops),`,
    `\`provably diff --target-cmd MUTANT ${diffArgs.join(' ')}\` and the ${pub.cases} cases of \`referenz.py vektoren\`.`,
  ].join(' ');
  const body = markdown(vec, diff, pub, command);
  console.log(body);
  console.log(
    `\ntime: vectors only ${vec.seconds.toFixed(1)} s, default diff ${diff.seconds.toFixed(1)} s, published ${pub.seconds.toFixed(1)} s (${PARALLEL} in parallel)`,
  );
  if (!opts.only) writeDoc(opts.out, body);
  return count(vec) === MUTANTS.length && count(diff) === MUTANTS.length ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`adequacy: ${e.stack ?? e}`);
    process.exit(2);
  },
);
