#!/usr/bin/env node
// Writes the agent tool table (src/agents/table.ts) into package.json (`languageModelTools`) and
// package.nls.json (display names). Run after `npm run compile-tests`, whenever a tool changes;
// test/unit/agents.manifest.test.ts fails until the two files match the table.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const { languageModelToolsContribution, languageModelToolsNls } = require(
  path.join(ROOT, 'out/src/agents/manifest.js'),
);

const write = (file, change) => {
  const full = path.join(ROOT, file);
  const json = JSON.parse(readFileSync(full, 'utf8'));
  change(json);
  writeFileSync(full, `${JSON.stringify(json, null, 2)}\n`);
};
write('package.json', (pkg) => {
  pkg.contributes.languageModelTools = languageModelToolsContribution();
});
write('package.nls.json', (nls) => {
  for (const key of Object.keys(nls)) if (key.startsWith('languageModelTools.')) delete nls[key];
  Object.assign(nls, languageModelToolsNls());
});
console.log('package.json and package.nls.json follow src/agents/table.ts');
