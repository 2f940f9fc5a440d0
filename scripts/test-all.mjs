#!/usr/bin/env node
// `npm test`: everything — type-check (which compiles the tests once), build (the production
// bundle, once: reused when its sources did not change), then two lanes: the page tests and the
// end-to-end journey (packaged once: the .vsix is reused when its sources did not change; its
// servers start with the lanes), beside the integration suite and then the unit tests and lint side
// by side, which yield the CPU to the journey; the integration suite's German run yields beside them
// from the start.
// `--serial` runs one stage at a time. Every stage runs even
// after one fails; a per-stage table and one `Total: P passed, F failed, S skipped` line close
// the run (CI reads that line), and the exit code is non-zero unless every stage passed.
//
// Fail closed (scripts/lib/stages.mjs): a test stage passes only with at least one passing test
// and none failing or pending (every tier's mocha also forbids `.only` and pending tests); a stage
// that cannot run here (no chromium, no code-server) is "not run", in CI and outside it, and
// npm test then exits 1: a run that did not cover every tier has not passed.
import { existsSync } from 'node:fs';
import path from 'node:path';

import { ensurePostgres } from './lib/postgres.mjs';
import { exitAfterOutput, onShutdown, run, seconds, YIELD_ENV } from './lib/proc.mjs';
import {
  ensureDeps,
  ensureVscode,
  prepareOut,
  ROOT,
  testChromium,
  UNIT_COMPILE_CACHE,
  unitTestNode,
} from './lib/project.mjs';
import { exitCode, judgeStage, totalLine } from './lib/stages.mjs';

const NODE = process.execPath;
const bin = (...p) => path.join(ROOT, 'node_modules', ...p);
const MOCHA = bin('mocha', 'bin', 'mocha.js');
const TSC = bin('typescript', 'bin', 'tsc');
const ESLINT = bin('eslint', 'bin', 'eslint.js');
const PRETTIER = bin('prettier', 'bin', 'prettier.cjs');
const LINT_CACHE = path.join('node_modules', '.cache', 'scrapedeck', 'eslint');
const FORMAT_CACHE = path.join('node_modules', '.cache', 'scrapedeck', 'prettier');

/** @type {{name: string, status: string, passed: number, failed: number, pending: number, secs: string, note: string}[]} */
const results = [];
/** `npm test -- --serial`: one stage at a time (each stage's own time, on a machine shared with nothing of this run). */
const serial = process.argv.slice(2).includes('--serial');

const bannerText = (text) => `\n${'='.repeat(78)}\n== ${text}\n${'='.repeat(78)}\n`;

function banner(text) {
  process.stdout.write(bannerText(text));
}

/**
 * Runs one stage and adds its row to the table (rows keep the order the stages were started in,
 * whichever ends first). `steps` are [cmd, args] run in order, stopping at the first that fails;
 * `mocha` says whether the output carries a mocha summary (which must show a passing test);
 * `cannotRun` resolves to why the stage cannot run here, or undefined; `buffered` holds the
 * stage's output back and prints it whole when it ends, for a stage that runs next to another;
 * `yielding` runs it, and every process and session it starts, at a lower CPU priority (nice 10
 * on their scheduling groups: see yieldCpu), so the stages beside it are served first. `early`
 * ({ turn, input }) is for a stage started before its turn: see the comment in the function. `env`
 * adds variables to its commands' environment.
 */
async function stage(
  name,
  steps,
  { mocha = false, cannotRun, buffered = false, yielding = false, early, env: extraEnv = {} } = {},
) {
  const slot = results.length;
  results.push(undefined);
  const printed = [];
  // A stage started early (`early`: { turn, input }) holds its output back until its turn comes
  // (a promise), then prints it and goes on as it comes; `input` is written to its command's stdin.
  let held = early !== undefined;
  const quiet = () => buffered || held;
  const write = (text) => (quiet() ? printed.push(text) : process.stdout.write(text));
  const capture = [];
  // Where the running step's output starts in `capture` (it joins `printed` when the step ends).
  let from = 0;
  // Held-back output still reaches the log when the run is stopped (Ctrl-C, a CI time limit).
  let flushed = false;
  const flush = (tail = '') => {
    if (flushed) return;
    flushed = true;
    process.stdout.write(`${printed.join('')}${capture.slice(from).join('')}${tail}`);
  };
  if (quiet()) onShutdown(() => quiet() && flush('(stopped before this stage ended)\n'));
  write(bannerText(name));
  let t = Date.now();
  let ahead = '';
  void early?.turn.then(() => {
    if (flushed) return; // it ended before its turn, and said so
    // Its time is counted from its turn; what it did before is said in its note.
    ahead = `started ${seconds(t)} s before its turn`;
    t = Date.now();
    held = false;
    process.stdout.write(`${printed.splice(0).join('')}${capture.slice(from).join('')}`);
    from = capture.length;
  });
  try {
    const reason = cannotRun ? await cannotRun() : undefined;
    if (reason) {
      write(`NOT RUN (this is not a pass): ${reason}\n`);
      results[slot] = { name, ...judgeStage({ cannotRun: reason }), secs: seconds(t) };
      if (quiet()) flush();
      return;
    }
    let code = 0;
    for (const [cmd, args] of steps) {
      write(
        `$ ${[cmd === NODE ? 'node' : cmd, ...args.map((a) => path.relative(ROOT, a) || a)].join(' ')}${yielding ? ' (at a lower CPU priority)' : ''}\n`,
      );
      from = capture.length;
      const env = { ...process.env, ...extraEnv, ...(yielding ? { [YIELD_ENV]: '10' } : {}) };
      code = await run(cmd, args, { cwd: ROOT, env, capture, quiet, input: early?.input });
      if (quiet()) printed.push(...capture.slice(from));
      from = capture.length;
      if (code !== 0) break;
    }
    const row = judgeStage({ code, output: mocha ? capture.join('') : undefined });
    results[slot] = { name, ...row, note: [row.note, ahead].filter(Boolean).join('; '), secs: seconds(t) };
    if (buffered) flush(`(${name}: ${seconds(t)} s, run beside the other lane)\n`);
    else if (held) flush(`(${name}: ended before its turn)\n`);
  } catch (err) {
    // A stage that throws (a command that cannot be started) is a failed row. It never rejects a
    // lane's Promise.all, which would end the run before the other lane's stages print theirs.
    const why = err instanceof Error ? err.message : String(err);
    write(`${name}: could not run: ${why}\n`);
    results[slot] = { name, ...judgeStage({ code: 1 }), note: `could not run: ${why}`, secs: seconds(t) };
    if (quiet()) flush();
  }
}

/** Installs (once, before the first stage that needs it) chromium and the test VS Code. */
let vscodeInstall;
function installVscode() {
  vscodeInstall ??= ensureVscode().then(
    () => undefined,
    (err) => `a real VS Code cannot be installed here (${err.message}); scripts/install-vscode.sh installs it`,
  );
  return vscodeInstall;
}

async function chromiumMissing() {
  const missing = await installVscode();
  if (missing) return missing;
  const chromium = testChromium();
  return existsSync(chromium) ? undefined : `no chromium at ${chromium} (scripts/install-vscode.sh installs it)`;
}

async function main() {
  const t0 = Date.now();
  // Before any stage: the page tests need chromium, which arrives with the test VS Code's install.
  // It installs beside npm ci (a cold install is minutes of compiling; npm ci mostly waits on the network).
  banner('dependencies and the test VS Code (chromium, Node 24, code-server; installed once into the cache)');
  const ti = Date.now();
  const vscodeReady = installVscode();
  await ensureDeps('npm test');
  const missing = await vscodeReady;
  // PostgreSQL, once: the integration suite, its German run and the journey each start a private
  // server of it, at the same moment, and apt installs one at a time. A stage without it says so.
  await ensurePostgres().catch((err) => process.stdout.write(`PostgreSQL is not installed: ${err.message}\n`));
  process.stdout.write(`${missing ? `not available: ${missing}` : 'ready'} (${seconds(ti)} s)\n`);

  // One type-check: tsc emits the compiled tests (out/) as it checks, so no stage compiles again.
  // It is incremental (out/.tsbuildinfo, dropped when out/ no longer matches it). It emits despite
  // type errors, which fail this stage; the tests still run.
  for (const note of prepareOut()) process.stdout.write(`${note}\n`);
  await stage('typecheck (and compile the tests)', [
    [NODE, [TSC, '-p', 'tsconfig.json']],
    [NODE, [TSC, '-p', path.join('src', 'analytics', 'page', 'tsconfig.json'), '--noEmit']],
  ]);
  // The production bundle, the one the .vsix ships: every tier below runs it, and packaging reuses it.
  await stage('build (production; reused if unchanged)', [[NODE, ['esbuild.mjs', '--production', '--if-changed']]]);
  // Two lanes. The first: the page tier, then the end-to-end journey, which drives the whole
  // workbench by pointer and keyboard (its servers are readied from the start, see `turn`). The
  // second: the integration suite, then the unit tier and lint side by side at a lower CPU priority
  // (nice 10 on their scheduling groups, see yieldCpu), so the scheduler serves the journey about
  // nine times before them when both want a core. Side by side, they take the cores the journey
  // leaves while it waits on the workbench, and end before it. No browser tier runs beside the
  // journey at equal priority (a drag onto a group was once lost beside the page tier): it waits
  // for the integration suite. The German run (a code-server start and six tests) yields beside
  // the page tier and the integration suite from the start: it took 27 s after the page tier, which
  // the journey then waited for, and beside the journey it slowed the journey's first specs.
  // The first lane's output is printed as it comes, the second's whole as each stage ends.
  const apart = serial ? {} : { buffered: true };
  const yields = serial ? {} : { buffered: true, yielding: true };
  const vscode = [NODE, [path.join('scripts', 'test-vscode.mjs'), '--no-build', '--no-install']];
  const page = () =>
    stage('page', [[NODE, [MOCHA, '--config', '.mocharc.page.json']]], { mocha: true, cannotRun: chromiumMissing });
  // Yielding as the unit tier does; should it run on into the journey's turn, its tests run in the
  // extension host and drive no pointer or key in a page, and its browser and code-server yield.
  const german = () =>
    stage(
      'vscode in German (code-server)',
      [[NODE, [...vscode[1], '--locale', 'de', '--grep', 'another display language', '--no-postgres']]],
      { mocha: true, cannotRun: installVscode, ...yields },
    );
  // The journey's turn: its stage starts with the lanes, readies its servers (PostgreSQL, the
  // sandbox, two code-servers, the .vsix installed: idle servers, no browser) while the tiers before
  // it run, and drives the workbench only when it is told to go.
  let giveTurn = () => {};
  const turn = new Promise((resolve) => (giveTurn = resolve));
  const early = serial ? {} : { early: { turn, input: turn.then(() => 'go\n') } };
  const e2e = () =>
    stage(
      'e2e (journey in code-server)',
      [
        [
          NODE,
          [path.join('scripts', 'test-e2e.mjs'), '--no-install', '--no-compile', ...(serial ? [] : ['--wait-for-go'])],
        ],
      ],
      { mocha: true, cannotRun: installVscode, ...early },
    );
  const integration = () =>
    stage('vscode (integration in code-server)', [vscode], { mocha: true, cannotRun: installVscode, ...apart });
  // The unit tier on its two workers: they mostly wait (on sandboxes, timers and child processes).
  // On Node 24 with its compile cache (see unitTestNode), asked for when its turn comes: Node 24
  // arrives with the test VS Code, which a fresh machine installs during this run.
  const unit = () =>
    stage('unit', [[unitTestNode(), [MOCHA, '--config', '.mocharc.unit.json']]], {
      mocha: true,
      env: { NODE_COMPILE_CACHE: UNIT_COMPILE_CACHE },
      ...yields,
    });
  const lint = () =>
    stage(
      'lint',
      [
        // Cached by file content, beside node_modules (a fresh install or clone lints everything;
        // CI always does). ESLint keys its cache on its version and config too. A type-aware rule's
        // verdict can hang on another file's types: `npm run lint` is the uncached check.
        [NODE, [ESLINT, '--cache', '--cache-strategy', 'content', '--cache-location', LINT_CACHE, '.']],
        [NODE, [PRETTIER, '--check', '--cache', '--cache-location', FORMAT_CACHE, 'src', 'test', 'bench', 'scripts']],
      ],
      yields,
    );
  if (serial) {
    for (const next of [page, german, integration, e2e, unit, lint]) await next();
  } else {
    const integrationDone = integration();
    const e2eDone = e2e();
    const germanDone = german();
    await Promise.all([
      (async () => {
        await page();
        await integrationDone;
        giveTurn();
        await e2eDone;
      })(),
      (async () => {
        await integrationDone;
        await Promise.all([unit(), lint()]);
      })(),
      germanDone,
    ]);
  }

  banner(`summary (${seconds(t0)} s)`);
  const pad = (s, n) => String(s).padEnd(n);
  process.stdout.write(
    `${pad('stage', 42)}${pad('result', 9)}${pad('pass', 6)}${pad('fail', 6)}${pad('skip', 6)}${pad('secs', 8)}note\n`,
  );
  for (const r of results) {
    process.stdout.write(
      `${pad(r.name, 42)}${pad(r.status, 9)}${pad(r.passed, 6)}${pad(r.failed, 6)}${pad(r.pending, 6)}${pad(r.secs, 8)}${r.note}\n`,
    );
  }
  process.stdout.write(`${totalLine(results)}\n`);
  return exitCode(results);
}

main().then(
  (code) => exitAfterOutput(code),
  (err) => {
    console.error(`npm test: ${err instanceof Error ? err.stack : err}`);
    process.stdout.write('Total: 0 passed, 1 failed, 0 skipped\n');
    exitAfterOutput(1);
  },
);
