// `npm run bench`: bundles every bench/*.bench.ts with esbuild into out/bench/, runs them one
// after another (each starts its own sandbox) and prints one table per section.
// Usage: node scripts/bench.mjs [name-filter]   e.g. `npm run bench -- client`
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { ensureDeps, ensureVscode } from './lib/project.mjs';

// Like the README's two commands, the bench installs what it needs itself: node_modules, and
// Debian's chromium (the page section) with the test VS Code, once, into the cache.
await ensureDeps('bench');
await ensureVscode();
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

const require = createRequire(import.meta.url);
const missed = [];
for (const file of entries) {
  const mod = require(resolve('out/bench', file.replace(/\.ts$/, '.cjs')));
  const run = mod.default ?? mod.run;
  if (typeof run !== 'function') throw new Error(`bench/${file} exports no run()`);
  const started = Date.now();
  const section = await run();
  printSection(section, Date.now() - started);
  missed.push(...section.rows.filter((r) => r.pass === false).map((r) => `${section.title}: ${r.name.trim()}`));
}
console.log(missed.length === 0 ? 'All targets met.' : `${missed.length} target(s) missed:\n  ${missed.join('\n  ')}`);
process.exitCode = missed.length === 0 ? 0 : 1;

function printSection(section, ms) {
  const header = ['Measure', 'Value', 'Against', 'Ratio', 'Target', ''];
  const rows = section.rows.map((r) => [
    r.name,
    r.value,
    r.against ?? '',
    r.ratio === undefined ? '' : `${r.ratio.toFixed(2)} x`,
    r.target ?? '',
    r.pass === undefined ? '' : r.pass ? 'ok' : 'MISSED',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(`\n## ${section.title}  (${(ms / 1000).toFixed(1)} s)\n`);
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
  for (const note of section.notes ?? []) console.log(`\nnote: ${note}`);
  console.log('');
}
