#!/usr/bin/env node
// `npm run test:e2e`: the end-to-end journey. Packages the .vsix, starts a sandbox and a code-server
// with the extension installed from that .vsix (settings pointing at the sandbox), then runs mocha on
// out/test/e2e/*.test.js, which drives the real workbench with playwright-core + Debian's chromium.
// Everything this starts is stopped afterwards, by process group.
//
// Flags: --no-install (skip deps/code-server checks), --no-compile (the caller compiled the tests),
//        --grep TEXT (mocha --grep), --keep (leave the servers running until Ctrl-C, for debugging),
//        --wait-for-go (npm test: start everything, then wait for a line "go" on stdin before the
//        journey; npm test starts this during the tiers before it, so its servers are ready in time).
// The .vsix is packaged only when its sources changed since it was last packaged.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

import { prepareArtifacts } from './lib/artifacts.mjs';
import {
  createRunFolder,
  installExtension,
  runEnv,
  settingsPath,
  startCodeServer,
  TEST_SETTINGS,
  workbenchUrl,
  writeKeybindings,
  writeSettings,
} from './lib/codeserver.mjs';
import { e2eMochaArgs } from './lib/mocha.mjs';
import { startPostgres } from './lib/postgres.mjs';
import { exitAfterOutput, killAllGroups, onShutdown, run, seconds } from './lib/proc.mjs';
import {
  compileTests,
  ensureDeps,
  ensureVscode,
  log as logLine,
  packageFixture,
  packageVsix,
  ROOT,
  STILL_INDICATORS_SCRIPT,
  TEST_CHROMIUM_ARGS,
  testChromium,
  VSIX,
} from './lib/project.mjs';
import { startSandboxProcess } from './lib/sandbox.mjs';

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const log = (m) => logLine('test:e2e', m);

export const ARTIFACTS = path.join(ROOT, 'artifacts', 'e2e');

/**
 * Keys the steps press for the workbench's housekeeping, bound in both code-servers' keybindings.
 * Clear All Notifications has no key of its own: through the Command Palette it took ~0.24 s, and
 * the steps clear notifications about 70 times a journey. `press` is the same key as Playwright
 * names it.
 */
const KEYS = { clearNotifications: { key: 'ctrl+alt+shift+f9', press: 'Control+Alt+Shift+F9' } };
const KEYBINDINGS = [{ key: KEYS.clearNotifications.key, command: 'notifications.clearAll' }];

// The journey sandbox's run clock, shorter than the sandbox's own (5 s queued, 30 s running). A run
// extracts at once and for 15 s: a started run (runs R1) has about 13 s, after it is seen
// extracting, to be asked, kept and stopped (that takes ~3 s on an idle machine), and a run that
// a step starts for its rows (task data D3, D3b, PostgreSQL P2) has them at once. A run that a step
// watches from its start to its end (runs R3, a task kept in sync in PostgreSQL P3) is of a task
// named in `watched` (R3 needs one, P3 takes one when it fits, R1 never does): 3 s queued still
// shows Queued between the start's own refresh and the next poll (2 s, below), and 6 s running is
// three polls, so the row is seen extracting, with rows, before it is seen finished.
const RUN_CLOCK = {
  queueSeconds: 0,
  runSeconds: 15,
  watched: {
    queueSeconds: 3,
    runSeconds: 6,
    tasks: ['Indeed top sellers', 'Booking search results', 'Walmart top sellers', 'Yelp ratings'],
  },
};

async function main() {
  const t0 = Date.now();
  if (!flag('--no-install')) {
    await ensureDeps('test:e2e');
    await ensureVscode();
  }
  const tp = Date.now();
  await packageVsix();
  // The journey's own code is compiled TS (npm test compiled it in its typecheck stage).
  if (!flag('--no-compile'))
    await compileTests().catch((err) => log(`tsc reported errors (the typecheck stage shows them): ${err.message}`));
  log(`packaged and compiled in ${seconds(tp)} s`);

  const runDir = createRunFolder('e2e');
  prepareArtifacts(ARTIFACTS);
  log(`run folder ${path.relative(ROOT, runDir.dir)}`);

  // The private PostgreSQL server the PostgreSQL steps write to and read back (as test-vscode.mjs
  // starts it): installed when missing, stopped at the end and on Ctrl-C; without it those steps
  // fail with the reason.
  const postgres = await startPostgres().catch((err) => {
    log(`no PostgreSQL server: ${err.message}`);
    return { env: { SCRAPEDECK_PG_MISSING: err.message }, stop: async () => {} };
  });
  const sandbox = await startSandboxProcess({
    logFile: path.join(runDir.logs, 'sandbox.log'),
    extraArgs: [
      ...['--queue-seconds', String(RUN_CLOCK.queueSeconds), '--run-seconds', String(RUN_CLOCK.runSeconds)],
      ...RUN_CLOCK.watched.tasks.flatMap((name) => [
        '--task-clock',
        `${name}=${RUN_CLOCK.watched.queueSeconds}/${RUN_CLOCK.watched.runSeconds}`,
      ]),
    ],
  });
  onShutdown(() => sandbox.stop());
  log(`sandbox on ${sandbox.info.baseUrl}`);

  const settings = {
    ...TEST_SETTINGS,
    'scrapedeck.baseUrl': sandbox.info.baseUrl,
    'scrapedeck.datahubUrl': sandbox.info.datahubUrl,
    'workbench.colorTheme': 'Dark Modern',
    // The user's own run-status interval, at its smallest (default 10 s): a run's end shows within
    // 2 s, not up to 10, while the steps still watch it go queued, running, finished.
    'scrapedeck.runs.refreshSeconds': 2,
  };
  writeSettings(runDir, settings);
  writeKeybindings(runDir, KEYBINDINGS);
  const env = runEnv(runDir);
  const ti = Date.now();
  await installExtension(runDir, VSIX, env);
  log(`extension installed from ${path.relative(ROOT, VSIX)} in ${seconds(ti)} s`);
  // An ordinary second extension next to Scrapedeck: the journey asks it what Scrapedeck's
  // exports let another extension reach (trust: nothing).
  await installExtension(runDir, await packageFixture('prober'), env);
  const server = await startCodeServer(runDir, { env });
  log(`code-server on ${server.origin}`);

  // A second VS Code with workspace trust on: its folder opens in Restricted Mode.
  const restrictedDir = createRunFolder('e2e-restricted');
  writeSettings(restrictedDir, {
    ...settings,
    'security.workspace.trust.enabled': true,
    'security.workspace.trust.startupPrompt': 'never',
    'security.workspace.trust.banner': 'always',
  });
  writeKeybindings(restrictedDir, KEYBINDINGS);
  const restrictedEnv = runEnv(restrictedDir);
  await installExtension(restrictedDir, VSIX, restrictedEnv);
  const restricted = await startCodeServer(restrictedDir, { env: restrictedEnv, workspaceTrust: true });
  log(`code-server in Restricted Mode on ${restricted.origin}`);

  // What the journey needs to know. Secrets travel in the environment, never in a file of the run.
  const context = {
    origin: server.origin,
    workbenchUrl: workbenchUrl(server.origin, runDir.ws),
    run: runDir,
    settingsFile: settingsPath(runDir),
    // Everything the journey rewrites settings.json with (BASE_SETTINGS included).
    settings: JSON.parse(readFileSync(settingsPath(runDir), 'utf8')),
    chromium: { executablePath: testChromium(), args: TEST_CHROMIUM_ARGS, initScript: STILL_INDICATORS_SCRIPT },
    artifacts: ARTIFACTS,
    codeServerLog: server.logFile,
    sandboxLog: sandbox.logFile,
    restricted: { workbenchUrl: workbenchUrl(restricted.origin, restrictedDir.ws), run: restrictedDir },
    runClock: RUN_CLOCK,
    keys: { clearNotifications: KEYS.clearNotifications.press },
  };
  writeFileSync(path.join(runDir.dir, 'e2e-context.json'), `${JSON.stringify(context, null, 2)}\n`);
  if (flag('--wait-for-go')) {
    log(`ready in ${seconds(t0)} s; the journey starts on npm test's go`);
    if (!(await goFromStdin())) throw new Error('stdin ended without a go: npm test stopped before the journey');
    log('go');
  }
  // Fail closed, as every tier: `.only` and pending tests fail the run (scripts/lib/mocha.mjs).
  const mochaArgs = e2eMochaArgs(ROOT, { grep: option('--grep') });
  const tm = Date.now();
  const code = await run(process.execPath, mochaArgs, {
    cwd: ROOT,
    env: {
      ...process.env,
      ...postgres.env,
      SCRAPEDECK_E2E_CONTEXT: JSON.stringify(context),
      SCRAPEDECK_E2E_SANDBOX: JSON.stringify(sandbox.info),
    },
  });
  log(`journey finished in ${seconds(tm)} s with code ${code}; screenshots in ${path.relative(ROOT, ARTIFACTS)}/`);

  if (flag('--keep')) {
    log(`--keep: ${context.workbenchUrl} stays up; Ctrl-C stops it`);
    await new Promise(() => {});
  }
  // Side by side: each stops its own process group (the run's time ends when the last is gone).
  const ts = Date.now();
  await Promise.all([server.stop(), restricted.stop(), sandbox.stop(), postgres.stop()]);
  await killAllGroups();
  log(`servers stopped in ${seconds(ts)} s`);
  log(`total ${seconds(t0)} s`);
  return code;
}

/** Resolves to true on a line "go" on stdin, false when stdin ends first. */
function goFromStdin() {
  return new Promise((resolve) => {
    const lines = createInterface({ input: process.stdin });
    lines.on('line', (line) => {
      if (line.trim() !== 'go') return;
      resolve(true); // before close(), which says false
      lines.close();
    });
    lines.once('close', () => resolve(false));
  });
}

main().then(
  (code) => exitAfterOutput(code),
  async (err) => {
    console.error(`[test:e2e] ${err instanceof Error ? err.stack : err}`);
    await killAllGroups();
    exitAfterOutput(1);
  },
);
