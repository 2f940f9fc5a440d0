// Content hashes of what the build and the .vsix are made from, so each is made once per change:
// `npm start -- --smoke` then `npm test` (CI) build and package once, and a second `npm test` on
// unchanged sources reuses both. A stamp file next to the output holds the hash it was made from;
// anything that cannot be read or compared counts as changed (the output is made again).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** What esbuild.mjs bundles from: the sources, the build script, and the locked dependencies it bundles in. */
export const BUILD_INPUTS = ['src', 'esbuild.mjs', 'package.json', 'package-lock.json'];

/** What `vsce package` takes besides the build (its whitelist, .vscodeignore, names them). */
export const PACKAGE_INPUTS = [
  ...BUILD_INPUTS,
  '.vscodeignore',
  'package.nls.json',
  'package.nls.de.json',
  'l10n',
  'media',
  'README.md',
  'CHANGELOG.md',
  'LICENSE',
];

function files(root, entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [entry];
  return readdirSync(full)
    .sort()
    .flatMap((name) => files(root, path.join(entry, name)));
}

/** One hash over the paths and contents of `entries` (files, or folders taken whole) below `root`. */
export function hashInputs(root, entries, extra = '') {
  const hash = createHash('sha256').update(`${extra}\0`);
  for (const file of entries.flatMap((e) => files(root, e)).sort()) {
    hash.update(`${file.split(path.sep).join('/')}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** The stamp written next to an output, or undefined when there is none (or it cannot be read). */
export function readStamp(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Writes a stamp through a temp file and a rename: a stamp is never half written. */
export function writeStamp(file, value) {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(value)}\n`);
  renameSync(tmp, file);
}
