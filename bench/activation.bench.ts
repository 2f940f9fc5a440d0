/**
 * How light activation is: the production bundle's size, and the time to require
 * dist/extension.js and run activate() in a fresh Node process (a stand-in `vscode` module,
 * bench/fixtures/fake-vscode.cjs), median of several cold starts. VS Code's own figure (which also
 * waits for the extension host's other work) is recorded by the end-to-end journey. For context,
 * the cost activation no longer pays: the first call into the Tasks view, which loads dist/main.js
 * behind the activation shell.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';

import { median } from './figures';
import type { BenchRow, BenchSection } from './types';

const ROOT = join(__dirname, '..', '..');
const RUNS = 21;
const BUNDLE_BYTES = 150 * 1000;
const ACTIVATION_MS = 30;

interface Activation {
  requireMs: number;
  activateMs: number;
  totalMs: number;
  firstCallMs?: number;
  files: string[];
  error?: string;
}

const kb = (bytes: number): string => `${(bytes / 1000).toFixed(1)} KB`;

function activateOnce(): Activation {
  const out = execFileSync(process.execPath, [join(ROOT, 'bench', 'fixtures', 'activate-once.cjs')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop() as string) as Activation;
}

export default async function run(): Promise<BenchSection> {
  // The bundle users get: what `vsce package` builds.
  execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: ROOT, stdio: 'inherit' });
  const rows: BenchRow[] = [];
  const size = statSync(join(ROOT, 'dist', 'extension.js')).size;
  rows.push({
    name: 'dist/extension.js (minified)',
    value: kb(size),
    against: `budget ${kb(BUNDLE_BYTES)}`,
    ratio: size / BUNDLE_BYTES,
    target: '≤ 1.00 x',
    pass: size <= BUNDLE_BYTES,
  });
  // dist/sandbox.js is the sandbox's command line, never loaded by the extension.
  for (const file of readdirSync(join(ROOT, 'dist'))
    .filter((f) => f.endsWith('.js') && !['extension.js', 'sandbox.js'].includes(f))
    .sort()) {
    rows.push({
      name: `  dist/${file} (own file, loaded when needed)`,
      value: kb(statSync(join(ROOT, 'dist', file)).size),
    });
  }

  activateOnce(); // warm the file system cache, not V8's: every run is a new process
  const runs: Activation[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(activateOnce());
  const failed = runs.find((r) => r.error !== undefined);
  if (failed) throw new Error(`activate() threw under the stand-in vscode module: ${failed.error}`);
  const total = median(runs.map((r) => r.totalMs));
  rows.push({
    name: `require + activate() (median of ${RUNS} cold processes)`,
    value: `${total.toFixed(1)} ms`,
    against: `bound ${ACTIVATION_MS} ms`,
    ratio: total / ACTIVATION_MS,
    target: '≤ 1.00 x',
    pass: total <= ACTIVATION_MS,
  });
  rows.push({ name: '  of which require', value: `${median(runs.map((r) => r.requireMs)).toFixed(1)} ms` });
  rows.push({ name: '  of which activate()', value: `${median(runs.map((r) => r.activateMs)).toFixed(1)} ms` });
  const firstCalls = runs.flatMap((r) => (r.firstCallMs === undefined ? [] : [r.firstCallMs]));
  if (firstCalls.length > 0)
    rows.push({
      name: 'then the first Tasks view call (loads dist/main.js)',
      value: `${median(firstCalls).toFixed(1)} ms`,
    });
  const files = [...new Set(runs.flatMap((r) => r.files))];
  return {
    title: 'Activation (production bundle, fresh Node process per start)',
    rows,
    notes: [
      `files loaded at activation: ${files.join(', ')}`,
      `spread ${Math.min(...runs.map((r) => r.totalMs)).toFixed(1)}–${Math.max(...runs.map((r) => r.totalMs)).toFixed(1)} ms; load average ${loadavg()[0]?.toFixed(1)}`,
    ],
  };
}
