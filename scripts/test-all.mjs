#!/usr/bin/env node
// `npm test`: everything, in order — lint, type-check, build, unit tests, page tests, the
// integration suite inside a real VS Code, the end-to-end journey. Every stage runs even after
// one fails; a per-stage table and one `Total: P passed, F failed, S skipped` line close the run
// (CI reads that line), and the exit code is non-zero when any stage failed.
//
// Counting: P/F/S are mocha's "passing"/"failing"/"pending" summed over the test stages; a stage
// that fails without a mocha failure to show for it (lint, type errors, a crash, no tests found)
// counts as one failed, and a stage that cannot run here (only outside CI) as one skipped.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { run, seconds } from './lib/proc.mjs';
import { CHROMIUM, ROOT, ensureDeps, ensureVscode, pruneStaleOutputs } from './lib/project.mjs';

const CI = /^(1|true|yes)$/i.test(process.env.CI ?? '');
const NODE = process.execPath;
const bin = (...p) => path.join(ROOT, 'node_modules', ...p);
const MOCHA = bin('mocha', 'bin', 'mocha.js');
const TSC = bin('typescript', 'bin', 'tsc');
const ESLINT = bin('eslint', 'bin', 'eslint.js');

/** @type {{name: string, status: 'passed'|'failed'|'skipped', passed: number, failed: number, pending: number, secs: string, note: string}[]} */
const results = [];

function banner(text) {
  process.stdout.write(`\n${'='.repeat(78)}\n== ${text}\n${'='.repeat(78)}\n`);
}

// eslint-disable-next-line no-control-regex
const stripAnsi = (s) => s.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');

/** mocha's epilogue: the last "N passing", "N failing", "N pending" of the output. */
function mochaCounts(output) {
  const text = stripAnsi(output);
  const last = (word) => {
    const all = [...text.matchAll(new RegExp(`^\\s*(\\d+) ${word}\\b`, 'gm'))];
    return all.length ? Number(all[all.length - 1][1]) : undefined;
  };
  const pendingTitles = [...text.matchAll(/^\s+- (\S.*)$/gm)].map((m) => m[1].trim());
  return { passing: last('passing'), failing: last('failing'), pending: last('pending'), pendingTitles };
}

/**
 * Runs one stage. `steps` are [cmd, args, {mustPass}] run in order; `mocha` says whether the
 * output carries a mocha summary that must show at least one test.
 */
async function stage(name, steps, { mocha = false, skip } = {}) {
  banner(name);
  const t = Date.now();
  const row = { name, status: 'passed', passed: 0, failed: 0, pending: 0, secs: '0', note: '' };
  results.push(row);
  if (skip) {
    const reason = await skip();
    if (reason) {
      if (CI) {
        row.status = 'failed';
        row.failed = 1;
        row.note = `cannot run: ${reason}`;
        process.stdout.write(`FAILED (CI=true, a stage may not be skipped): ${reason}\n`);
      } else {
        row.status = 'skipped';
        row.pending = 1;
        row.note = `skipped: ${reason}`;
        process.stdout.write(`SKIPPED: ${reason}\n`);
      }
      row.secs = seconds(t);
      return;
    }
  }
  const capture = [];
  let code = 0;
  for (const [cmd, args, opts = {}] of steps) {
    process.stdout.write(`$ ${[cmd === NODE ? 'node' : cmd, ...args.map((a) => path.relative(ROOT, a) || a)].join(' ')}\n`);
    const c = await run(cmd, args, { cwd: ROOT, capture: opts.mustPass === false ? undefined : capture, timeoutMs: opts.timeoutMs });
    if (c !== 0 && opts.mustPass !== false) {
      code = c;
      break;
    }
    if (c !== 0) process.stdout.write(`(exit ${c}, not fatal for this stage: ${opts.why ?? ''})\n`);
  }
  row.secs = seconds(t);
  if (mocha) {
    const counts = mochaCounts(capture.join(''));
    row.passed = counts.passing ?? 0;
    row.failed = counts.failing ?? 0;
    row.pending = counts.pending ?? 0;
    if (counts.pendingTitles.length) row.note = `pending: ${counts.pendingTitles.join('; ')}`;
    if (counts.passing === undefined && counts.failing === undefined) {
      row.note = 'no mocha summary: no tests ran';
      if (code === 0) code = 1;
    } else if (row.passed + row.failed + row.pending === 0) {
      row.note = 'zero tests where tests are expected';
      code = code || 1;
    }
  }
  if (code !== 0) {
    row.status = 'failed';
    if (row.failed === 0) row.failed = 1;
    if (!row.note) row.note = `exit code ${code}`;
  }
}

/** Installs (once, before the first stage that needs it) chromium and the test VS Code. */
let vscodeInstall;
function installVscode() {
  vscodeInstall ??= ensureVscode().then(
    () => undefined,
    (err) => `a real VS Code cannot be installed here (${err.message})`,
  );
  return vscodeInstall;
}

async function vscodeMissing() {
  return installVscode();
}

async function chromiumMissing() {
  await installVscode();
  return existsSync(CHROMIUM) ? undefined : `no chromium at ${CHROMIUM} (scripts/install-vscode.sh installs it)`;
}

async function main() {
  const t0 = Date.now();
  banner('dependencies');
  await ensureDeps('npm test');
  // Before any stage: the page tests need chromium, which arrives with the test VS Code's install.
  banner('test VS Code (chromium, Node 24, code-server; installed once into the cache)');
  const ti = Date.now();
  const missing = await installVscode();
  process.stdout.write(`${missing ? `not available: ${missing}` : 'ready'} (${seconds(ti)} s)\n`);

  await stage('lint', [[NODE, [ESLINT, '.']]]);
  await stage('typecheck', [
    [NODE, [TSC, '-p', 'tsconfig.json', '--noEmit']],
    [NODE, [TSC, '-p', path.join('src', 'webview', 'tsconfig.json'), '--noEmit']],
  ]);
  await stage('build', [[NODE, ['esbuild.mjs']]]);
  // Type errors are the typecheck stage's to report; tsc still emits, so the tests run anyway.
  const compile = [NODE, [TSC, '-p', 'tsconfig.json'], { mustPass: false, why: 'type errors are reported by the typecheck stage' }];
  const stale = pruneStaleOutputs();
  if (stale.length) process.stdout.write(`removed compiled files whose source is gone: ${stale.join(', ')}\n`);
  await stage('unit', [compile, [NODE, [MOCHA, '--config', '.mocharc.unit.json']]], { mocha: true });
  await stage('page', [[NODE, [MOCHA, '--config', '.mocharc.page.json']]], { mocha: true, skip: chromiumMissing });
  await stage('vscode (integration in code-server)', [[NODE, [path.join('scripts', 'test-vscode.mjs'), '--no-build', '--no-install']]], {
    mocha: true,
    skip: vscodeMissing,
  });
  await stage('vscode in German (code-server)', [[NODE, [path.join('scripts', 'test-vscode.mjs'), '--no-build', '--no-install', '--locale', 'de', '--grep', 'another display language']]], {
    mocha: true,
    skip: vscodeMissing,
  });
  await stage('e2e (journey in code-server)', [[NODE, [path.join('scripts', 'test-e2e.mjs'), '--no-install']]], {
    mocha: true,
    skip: vscodeMissing,
  });

  const total = results.reduce(
    (acc, r) => ({ passed: acc.passed + r.passed, failed: acc.failed + r.failed, skipped: acc.skipped + r.pending }),
    { passed: 0, failed: 0, skipped: 0 },
  );
  banner(`summary (${seconds(t0)} s)`);
  const pad = (s, n) => String(s).padEnd(n);
  process.stdout.write(`${pad('stage', 38)}${pad('result', 9)}${pad('pass', 6)}${pad('fail', 6)}${pad('skip', 6)}${pad('secs', 8)}note\n`);
  for (const r of results) {
    process.stdout.write(`${pad(r.name, 38)}${pad(r.status, 9)}${pad(r.passed, 6)}${pad(r.failed, 6)}${pad(r.pending, 6)}${pad(r.secs, 8)}${r.note}\n`);
  }
  process.stdout.write(`Total: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped\n`);
  return results.some((r) => r.status === 'failed') ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`npm test: ${err instanceof Error ? err.stack : err}`);
    process.stdout.write('Total: 0 passed, 1 failed, 0 skipped\n');
    process.exit(1);
  },
);
