// `npm run bench`: bundles every bench/*.bench.ts with esbuild into out/bench/, runs them one
// after another (each starts its own sandbox) and prints one table per section. A section that
// fails, or a case it could not measure, is a MISSED row (scripts/lib/benchReport.mjs).
// Usage: node scripts/bench.mjs [name-filter]   e.g. `npm run bench -- client`
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

import { missedOf, printSection, settleSection } from './lib/benchReport.mjs';
import { CHROMIUM, ensureDeps, ensureVscode } from './lib/project.mjs';

// Like the README's two commands, the bench installs what it needs itself: node_modules, and
// Debian's chromium (the page section) with the test VS Code, once, into the cache.
await ensureDeps('bench');
await ensureVscode();
// The page sections measure in the full Chromium, as they always have, so their figures stay
// comparable with earlier ones; the page harness drives the headless shell for the tests, where
// it saves CPU.
process.env.SCRAPEDECK_TEST_CHROMIUM ??= CHROMIUM;
const esbuild = await import('esbuild');

const filter = process.argv[2];
const entries = readdirSync('bench')
  .filter((f) => f.endsWith('.bench.ts') && (!filter || f.includes(filter)))
  .sort();
if (entries.length === 0) {
  console.error(`no bench/*.bench.ts${filter ? ` matching "${filter}"` : ''}`);
  process.exit(2);
}

await esbuild.build({
  entryPoints: entries.map((f) => `bench/${f}`),
  outdir: 'out/bench',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // playwright-core reads its own package.json from disk: it stays a require of node_modules;
  // node-sqlite3-wasm is found there too (its JavaScript and WebAssembly are read as files).
  external: ['vscode', 'playwright-core', 'node-sqlite3-wasm'],
  sourcemap: 'inline',
  logLevel: 'warning',
});
// SQLite's worker thread, started from beside the code that uses it (as dist/sqliteWorker.js is).
await esbuild.build({
  entryPoints: ['src/data/sqlite/sqliteWorker.ts'],
  outfile: 'out/bench/sqliteWorker.js',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  logLevel: 'warning',
});

const require = createRequire(import.meta.url);
const missed = [];
for (const file of entries) {
  const started = Date.now();
  const section = await settleSection(file, async () => {
    const mod = require(resolve('out/bench', file.replace(/\.ts$/, '.cjs')));
    const run = mod.default ?? mod.run;
    if (typeof run !== 'function') throw new Error(`bench/${file} exports no run()`);
    return run();
  });
  printSection(section, Date.now() - started);
  missed.push(...missedOf(section));
}
console.log(missed.length === 0 ? 'All targets met.' : `${missed.length} target(s) missed:\n  ${missed.join('\n  ')}`);
process.exitCode = missed.length === 0 ? 0 : 1;
