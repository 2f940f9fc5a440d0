#!/usr/bin/env node
// Writes l10n/bundle.l10n.json: every message the extension host passes to vscode.l10n.t and every
// string of the analytics page's table (src/analytics/model/pageStrings.ts, which the host passes to
// vscode.l10n.t entry by entry), found with the TypeScript parser (test/unit/helpers/l10nSource.ts),
// sorted, English to English.
// Run after `npm run compile-tests` whenever a message changes; test/unit/l10n.runtime.test.ts
// fails until the bundle matches the code. `--check` only says whether it does (exit 1 if not).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const { translatedKeys, pageTableMessages } = require(path.join(ROOT, 'out/test/unit/helpers/l10nSource.js'));

const { keys, dynamic } = translatedKeys();
for (const d of dynamic) console.warn(`${d.file}:${d.line}: l10n.t with a message that is not a literal: ${d.text}`);
const bundle = Object.fromEntries([...keys.keys()].sort().map((k) => [k, k]));
const text = `${JSON.stringify(bundle, null, 2)}\n`;
const file = path.join(ROOT, 'l10n', 'bundle.l10n.json');

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // missing: not up to date
  }
  if (current !== text) {
    console.error(
      'l10n/bundle.l10n.json does not match the code: run `npm run compile-tests && node scripts/l10n-bundle.mjs`',
    );
    process.exit(1);
  }
  console.log(
    `l10n/bundle.l10n.json is up to date (${keys.size} messages, ${pageTableMessages().size} of them the page's)`,
  );
} else {
  writeFileSync(file, text);
  console.log(`l10n/bundle.l10n.json: ${keys.size} messages (${pageTableMessages().size} of them the page's)`);
}
