// Module hooks that let Node load npm provably-fair-verifier 1.0.0 as it is
// published. Its files are ES modules in a package without "type": "module",
// and they import "../utils/Seed" and "./Games/Cards": no extension, and a
// folder that is "Utils" on disk. Node's ES module resolver takes neither
// (on a case-sensitive file system), so the package cannot be imported
// without help. These hooks add ".js", match each path segment's case as the
// package ships it, and load its files as modules; they touch no specifier
// outside the package and change no byte of its code.
// Registered by reference/wild/provably-fair-verifier.mjs.

import { readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PACKAGE = `${sep}node_modules${sep}provably-fair-verifier${sep}`;

function inPackage(url) {
  return typeof url === 'string' && url.startsWith('file:') && fileURLToPath(url).includes(PACKAGE);
}

/** `wanted` with each segment below the package root in the case the file system has it, or null. */
function onDisk(wanted) {
  const at = wanted.indexOf(PACKAGE) + PACKAGE.length;
  let path = wanted.slice(0, at - 1);
  for (const part of wanted.slice(at).split(sep)) {
    let names;
    try {
      names = readdirSync(path);
    } catch {
      return null;
    }
    const name = names.includes(part) ? part : names.find((n) => n.toLowerCase() === part.toLowerCase());
    if (name === undefined) return null;
    path = join(path, name);
  }
  return statSync(path).isFile() ? path : null;
}

export async function resolve(specifier, context, next) {
  if (inPackage(context.parentURL) && (specifier.startsWith('./') || specifier.startsWith('../'))) {
    const wanted = fileURLToPath(new URL(specifier, context.parentURL));
    const found = onDisk(wanted.endsWith('.js') ? wanted : `${wanted}.js`);
    if (found) return { url: pathToFileURL(found).href, format: 'module', shortCircuit: true };
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (inPackage(url) && !url.includes(`${PACKAGE}node_modules`.replaceAll(sep, '/'))) {
    return next(url, { ...context, format: 'module' });
  }
  return next(url, context);
}
