#!/usr/bin/env node
// `npm run mutants` (not part of `npm test`): breaks each guard of docs/contracts/ in turn, in a
// scratch copy of the repository, and runs only the tests meant to catch it. The list of guards,
// with the text each mutation replaces, is scripts/mutants.json (edit it when code moves).
//
// The scratch copy: the tests compiled by the project's compile-tests (into out/, as every test
// run does), then the files git knows (tracked, and new ones not ignored) and out/ copied to a
// temporary folder, node_modules linked. A mutant is applied to the TypeScript source there, that
// one file is compiled again (transpileModule, the project's options) over its compiled output,
// the tests run with mocha, and both are put back. The sources in the working tree are never
// touched.
//
// Prints a table (guard, rule, file, mutation, tests run, CAUGHT/MISSED, time) and exits non-zero
// if any mutant survives, an anchor is missing or not unique, a mutation changes nothing in the
// compiled code, or the tests fail before any mutation.
//
// Options: `-- --only TEXT` runs the guards whose name or file contains TEXT; `--keep` leaves the
// scratch copy.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

import { baselineRuns, describeMutation, exitCodeOf, mutate, readGuards, table, verdict } from './lib/mutants.mjs';
import { exitAfterOutput } from './lib/proc.mjs';
import { ROOT } from './lib/project.mjs';

const LIST = path.join(ROOT, 'scripts', 'mutants.json');
/** A run of one mutant's tests that takes longer than this is stopped (a hang is a caught mutant). */
const RUN_LIMIT_MS = 180_000;

function argValue(name) {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
}

function say(line) {
  process.stderr.write(`[mutants] ${line}\n`);
}

/** Runs a command; resolves to its exit code (or a timeout) and its output. */
function runCommand(cmd, args, { cwd, limitMs }) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    let timedOut = false;
    const timer =
      limitMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            try {
              process.kill(-child.pid, 'SIGKILL');
            } catch {
              // gone already
            }
          }, limitMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ exitCode: code ?? 1, timedOut, output });
    });
  });
}

/** The files git knows of (tracked, and new files not ignored), copied into `scratch`. */
async function copyRepository(scratch) {
  const listed = await runCommand('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
  });
  if (listed.exitCode !== 0) throw new Error(`git ls-files failed: ${listed.output}`);
  const files = listed.output.split('\0').filter((f) => f !== '' && f !== 'node_modules');
  for (const file of files) {
    const from = path.join(ROOT, file);
    const to = path.join(scratch, file);
    mkdirSync(path.dirname(to), { recursive: true });
    try {
      cpSync(from, to, { verbatimSymlinks: true, preserveTimestamps: true });
    } catch (error) {
      if (error.code !== 'ENOENT') throw error; // deleted in the working tree, not yet in git
    }
  }
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(scratch, 'node_modules'), 'dir');
  cpSync(path.join(ROOT, 'out'), path.join(scratch, 'out'), { recursive: true });
  return files.length;
}

function mochaArgs(guard) {
  const specs = guard.tests.map((t) => path.join('out', t.replace(/\.ts$/, '.js')));
  return [
    path.join('node_modules', 'mocha', 'bin', 'mocha.js'),
    '--timeout',
    '60000',
    '--forbid-only',
    '--forbid-pending',
    '--exit',
    '--reporter',
    'dot',
    ...(guard.grep === undefined ? [] : ['--grep', guard.grep]),
    ...specs,
  ];
}

async function main() {
  const { guards: all, moving } = readGuards(LIST);
  const only = argValue('--only');
  const guards = only === undefined ? all : all.filter((g) => g.guard.includes(only) || g.file.includes(only));
  if (guards.length === 0) throw new Error(`no guard matches ${only}`);
  const started = Date.now();
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'scrapedeck-mutants-'));
  try {
    // The project's compile-tests, here (incremental: quick when out/ is current), then out/ copied.
    const compiled = await runCommand(process.execPath, [path.join('scripts', 'compile-tests.mjs')], { cwd: ROOT });
    if (compiled.exitCode !== 0) throw new Error(`compile-tests failed:\n${compiled.output}`);
    say(`compiled in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    say(`scratch copy: ${scratch} (${await copyRepository(scratch)} files)`);

    const ts = createRequire(import.meta.url)(path.join(ROOT, 'node_modules', 'typescript'));
    const config = ts.getParsedCommandLineOfConfigFile(
      path.join(scratch, 'tsconfig.json'),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    );
    const transpile = (source, fileName) =>
      ts.transpileModule(source, {
        compilerOptions: { ...config.options, sourceMap: false, inlineSourceMap: false, incremental: false },
        fileName,
      }).outputText;

    // Each guard's file compiled as its mutants will be (transpileModule), unmutated: the baseline
    // below then shows that this compilation alone breaks nothing (else every mutant would look caught).
    for (const file of new Set(guards.map((g) => g.file))) {
      const source = path.join(scratch, file);
      try {
        writeFileSync(
          path.join(scratch, 'out', file.replace(/\.ts$/, '.js')),
          transpile(readFileSync(source, 'utf8'), source),
        );
      } catch {
        // a missing file is reported with its guards below
      }
    }
    // The tests must pass before any mutation, or every mutant would look caught.
    for (const run of baselineRuns(guards)) {
      const base = await runCommand(process.execPath, mochaArgs(run), { cwd: scratch, limitMs: RUN_LIMIT_MS * 2 });
      if (base.exitCode !== 0 || base.timedOut)
        throw new Error(
          `the tests fail before any mutation (${run.tests.join(', ')}${run.grep ? `, grep ${run.grep}` : ''}):\n${base.output.slice(-4000)}`,
        );
    }
    say(`baseline: the tests pass unmutated (${((Date.now() - started) / 1000).toFixed(1)} s)`);

    const results = [];
    for (const guard of guards) {
      const source = path.join(scratch, guard.file);
      const compiledFile = path.join(scratch, 'out', guard.file.replace(/\.ts$/, '.js'));
      const row = {
        guard: guard.guard,
        rule: guard.rule,
        file: guard.file,
        moving: moving.some((m) => guard.file.startsWith(m)),
        mutation: describeMutation(guard.find, guard.replace),
        tests:
          guard.tests.map((t) => path.basename(t, '.test.ts')).join(', ') +
          (guard.grep ? ` (grep “${guard.grep}”)` : ''),
        seconds: undefined,
        result: '',
      };
      let original;
      try {
        original = readFileSync(source, 'utf8');
      } catch {
        results.push({ ...row, result: 'FILE NOT FOUND' });
        continue;
      }
      const mutated = mutate(original, guard.find, guard.replace);
      if (!mutated.ok) {
        results.push({ ...row, result: verdict({ problem: mutated.problem }) });
        continue;
      }
      const js = transpile(mutated.text, source);
      if (js === transpile(original, source)) {
        results.push({ ...row, result: 'NO CHANGE IN CODE' });
        continue;
      }
      const compiledBefore = readFileSync(compiledFile);
      const t0 = Date.now();
      try {
        writeFileSync(source, mutated.text);
        writeFileSync(compiledFile, js);
        const run = await runCommand(process.execPath, mochaArgs(guard), { cwd: scratch, limitMs: RUN_LIMIT_MS });
        row.seconds = (Date.now() - t0) / 1000;
        row.result = verdict(run);
      } finally {
        writeFileSync(source, original);
        writeFileSync(compiledFile, compiledBefore);
      }
      say(`${row.result.padEnd(16)} ${guard.guard} (${row.seconds.toFixed(1)} s)`);
      results.push(row);
    }

    process.stdout.write(`\n${table(results)}\n\n`);
    if (results.some((r) => r.moving))
      process.stdout.write(
        `(*) a file other work is changing now (${moving.join(', ')}): check its anchors first when one goes missing.\n`,
      );
    const caught = results.filter((r) => r.result.startsWith('CAUGHT')).length;
    process.stdout.write(
      `${caught} of ${results.length} mutants caught in ${((Date.now() - started) / 1000).toFixed(0)} s.\n`,
    );
    return exitCodeOf(results);
  } finally {
    if (process.argv.includes('--keep')) say(`kept ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true });
  }
}

main().then(
  (code) => exitAfterOutput(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    exitAfterOutput(1);
  },
);
