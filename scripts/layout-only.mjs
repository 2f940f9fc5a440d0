// `npm run layout-only -- REV`: whether commit REV changed the layout of the code alone. For each
// code file it changed, the syntax trees and comments before and after are compared
// (scripts/lib/layoutOnly.mjs); any other file it changed is listed, to be read by eye.
import { execFileSync } from 'node:child_process';

import { isCodeFile, sameCode } from './lib/layoutOnly.mjs';

const rev = process.argv[2];
if (!rev) {
  console.error('usage: npm run layout-only -- <commit>');
  process.exit(2);
}
const git = (...args) => execFileSync('git', args, { encoding: 'utf8', maxBuffer: 1 << 28 });
const changes = git('diff', '--name-status', '--no-renames', `${rev}^`, rev)
  .trim()
  .split('\n')
  .filter(Boolean)
  .map((line) => line.split('\t'));
let same = 0;
const differ = [];
const other = [];
for (const [status, path] of changes) {
  if (!isCodeFile(path)) other.push(path);
  else if (status !== 'M') differ.push(`${path} (${status === 'A' ? 'added' : 'removed'})`);
  else if (sameCode(path, git('show', `${rev}^:${path}`), git('show', `${rev}:${path}`))) same++;
  else differ.push(path);
}
console.log(`${rev}: ${same} of ${same + differ.length} code files changed in layout only`);
for (const path of differ) console.log(`  code changed: ${path}`);
for (const path of other) console.log(`  not code, read by eye: ${path}`);
process.exit(differ.length === 0 ? 0 : 1);
