#!/usr/bin/env node
// `npm run test:vscode`: the integration suite (out/test/integration) inside a real VS Code —
// code-server with Node 24, driven by headless chromium — the offline twin of @vscode/test-electron.
//
// Flags: --no-build (the caller built and compiled already), --no-install (skip deps/install checks),
//        --grep TEXT (only tests whose title matches), --timeout SECONDS (a hung run; default 600),
//        --locale TAG (VS Code's display language; the tests see it as SCRAPEDECK_TEST_LOCALE),
//        --no-postgres (start no PostgreSQL server: for a --grep that picks no PostgreSQL test).
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import util from 'node:util';

import {
  createRunFolder,
  installExtension,
  runEnv,
  startCodeServer,
  TEST_SETTINGS,
  workbenchUrl,
  writeSettings,
} from './lib/codeserver.mjs';
import { startPostgres } from './lib/postgres.mjs';
import { exitAfterOutput, killAllGroups, onShutdown, seconds } from './lib/proc.mjs';
import {
  build,
  compileTests,
  ensureDeps,
  ensureVscode,
  log as logLine,
  packageFixture,
  ROOT,
  STILL_INDICATORS_SCRIPT,
  TEST_CHROMIUM_ARGS,
  testChromium,
} from './lib/project.mjs';

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 && i + 1 < argv.length ? argv[i + 1] : fallback;
};
const log = (m) => logLine('test:vscode', m);

const TIMEOUT_MS = Number(option('--timeout', process.env.SCRAPEDECK_VSCODE_TIMEOUT ?? '600')) * 1000;
const TESTS_DIR = path.join(ROOT, 'out', 'test', 'integration');
const ARTIFACTS = path.join(ROOT, 'artifacts', 'vscode');

/**
 * Which forwarded log lines are mocha's. The extension host's console output reaches the page
 * through the workbench's log, mixed with the workbench's own lines; test/integration/index.ts
 * starts every console line it writes while mocha runs with this prefix (it is told by the env).
 */
const MOCHA_PREFIX = '\u2063mocha\u2063 ';
function mochaLine(text) {
  const i = text.indexOf(MOCHA_PREFIX);
  return i >= 0 ? text.slice(i + MOCHA_PREFIX.length) : undefined;
}

async function main() {
  const t0 = Date.now();
  if (!flag('--no-install')) {
    await ensureDeps('test:vscode');
    await ensureVscode();
  }
  if (!flag('--no-build')) {
    const tb = Date.now();
    await build();
    await compileTests();
    log(`built and compiled in ${seconds(tb)} s`);
  }

  const run = createRunFolder('vscode');
  mkdirSync(ARTIFACTS, { recursive: true });
  const fullLog = path.join(run.logs, 'workbench.log');
  writeFileSync(fullLog, '');
  log(`run folder ${path.relative(ROOT, run.dir)}`);

  writeSettings(run, TEST_SETTINGS);
  // A private PostgreSQL server (installed when missing, even with --no-install: npm test's
  // install step does not cover it) for the suite's PostgreSQL tests,
  // which read it from the environment and fail without it; stopped at the end and on Ctrl-C.
  const none = (why) => ({ env: { SCRAPEDECK_PG_MISSING: why }, stop: async () => {} });
  const postgres = flag('--no-postgres')
    ? none('not started (--no-postgres)')
    : await startPostgres().catch((err) => {
        log(`no PostgreSQL server: ${err.message}`);
        return none(err.message);
      });
  const env = runEnv(run, {
    ...postgres.env,
    SCRAPEDECK_TEST_ARTIFACTS: ARTIFACTS,
    SCRAPEDECK_TEST_RUN_DIR: run.dir,
    SCRAPEDECK_TEST_ROOT: ROOT,
    SCRAPEDECK_MOCHA_PREFIX: MOCHA_PREFIX,
    ...(option('--grep') ? { SCRAPEDECK_TEST_GREP: option('--grep') } : {}),
    ...(option('--locale') ? { SCRAPEDECK_TEST_LOCALE: option('--locale') } : {}),
  });

  const locale = option('--locale');
  if (locale) {
    // Without a language pack VS Code stays in English whatever --locale says; a minimal one
    // (test/fixtures/langpack-<locale>) makes the language available offline.
    await installExtension(run, await packageFixture(`langpack-${locale}`), env);
    // code-server resolves --locale from languagepacks.json, which only its running server writes
    // after an install; write what it would, so the first start already runs in that language.
    const pack = path.join(run.ext, `scrapedeck-tests.langpack-${locale}-0.0.1`);
    const languagePacks = {
      [locale]: {
        hash: createHash('md5').update(`scrapedeck-tests.langpack-${locale}`).update('0.0.1').digest('hex'),
        extensions: [{ extensionIdentifier: { id: `scrapedeck-tests.langpack-${locale}` }, version: '0.0.1' }],
        translations: { vscode: path.join(pack, 'translations', 'main.i18n.json') },
        label: locale,
      },
    };
    writeFileSync(path.join(run.ud, 'languagepacks.json'), JSON.stringify(languagePacks));
  }
  const ts = Date.now();
  const server = await startCodeServer(run, { smokeTestDriver: true, env, locale });
  log(`code-server ready on ${server.origin} in ${seconds(ts)} s`);

  // Loaded only now: playwright-core arrives with ensureDeps on a fresh clone.
  const { launchBrowser } = await import('./lib/browser.mjs');
  const browser = await launchBrowser(run.profile, {
    args: TEST_CHROMIUM_ARGS,
    executablePath: testChromium(),
    initScript: STILL_INDICATORS_SCRIPT,
  });
  onShutdown(() => browser.close());
  const { page } = browser;

  let settle;
  const exited = new Promise((resolve) => {
    settle = resolve;
  });
  let sawMocha = false;
  await page.exposeFunction('codeAutomationLog', (level, args) => {
    const text = util.format(...(Array.isArray(args) ? args : [args]));
    appendFileSync(fullLog, `[${level}] ${text}\n`);
    const line = mochaLine(text);
    if (line !== undefined) {
      sawMocha = true;
      process.stdout.write(`${line}\n`);
    }
  });
  // Called when run() settles (0 resolved, 1 rejected), with the workbench's log files.
  await page.exposeFunction('codeAutomationExit', (code, logs) => {
    try {
      for (const { relativePath, contents } of Array.isArray(logs) ? logs : []) {
        const file = path.join(run.logs, 'vscode', relativePath);
        if (!file.startsWith(path.join(run.logs, 'vscode'))) continue;
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, contents);
      }
    } catch (err) {
      log(`could not keep the workbench logs: ${err.message}`);
    }
    settle({ code: Number(code) });
  });
  page.on('pageerror', (err) => appendFileSync(fullLog, `[pageerror] ${err.message}\n`));
  page.on('crash', () => settle({ code: 1, reason: 'the page crashed' }));

  const authority = `127.0.0.1:${server.port}`;
  const payload = [
    ['extensionDevelopmentPath', `vscode-remote://${authority}${ROOT}`],
    ['extensionTestsPath', `vscode-remote://${authority}${TESTS_DIR}`],
    ['skipWelcome', 'true'],
  ];
  const tr = Date.now();
  await page.goto(workbenchUrl(server.origin, run.ws, payload), { timeout: 120_000 });
  const timer = setTimeout(() => settle({ code: 1, reason: `no result after ${TIMEOUT_MS / 1000} s` }), TIMEOUT_MS);
  const result = await exited;
  clearTimeout(timer);
  log(`suite finished in ${seconds(tr)} s with code ${result.code}${result.reason ? ` (${result.reason})` : ''}`);

  if (result.code === 0 && locale) {
    // What the suite left on screen in that language (the status bar item, the account menu).
    const shot = path.join(ARTIFACTS, `l10n-${locale}.png`);
    await page.screenshot({ path: shot }).then(
      () => log(`screenshot: ${path.relative(ROOT, shot)}`),
      () => {},
    );
  }
  if (result.code !== 0) {
    const shot = path.join(ARTIFACTS, `failure-${Date.now()}.png`);
    await page.screenshot({ path: shot }).then(
      () => log(`screenshot: ${path.relative(ROOT, shot)}`),
      () => {},
    );
    if (!sawMocha) log('no mocha output arrived; the full workbench log is below the run folder');
  }
  log(`full log: ${path.relative(ROOT, fullLog)}; code-server log: ${path.relative(ROOT, server.logFile)}`);
  await browser.close();
  await server.stop();
  await postgres.stop();
  await killAllGroups();
  log(`total ${seconds(t0)} s`);
  return result.code;
}

main().then(
  (code) => exitAfterOutput(code),
  async (err) => {
    console.error(`[test:vscode] ${err instanceof Error ? err.stack : err}`);
    await killAllGroups();
    exitAfterOutput(1);
  },
);
