#!/usr/bin/env node
// `npm start`: the demo. Installs what it needs, builds and packages the extension, starts the
// sandbox and a real VS Code (code-server in your browser) with Scrapedeck installed from the .vsix
// and its settings pointing at the sandbox, then prints the address, the workbench's password and
// the seeded credentials. The workbench has a terminal, so it is never served without a password:
// a new one is made for every run (other users of the machine can reach 127.0.0.1 too).
// Ctrl-C stops everything it started.
//
// Flags: --port N     code-server's port (default 8080, or the next free one)
//        --desktop    launch VS Code desktop (`code` on PATH) instead, with the same settings
//        --smoke      non-interactive: start everything, open the workbench headless, check that
//                     Scrapedeck is installed and activates, print the phase times, stop, exit 0
//        --fresh      start the sandbox from its seed (the kept state is moved aside, not deleted)
//        --sandbox-<option> [value]   passes --<option> [value] to the sandbox (docs/manual/sandbox.md)
//        --sandbox ...  passes everything after it to the sandbox as it is
//        --help       prints these options and exits; an option the demo does not know is refused
// The sandbox keeps what you change (marks, runs, lists, copies, moves) in its cache across restarts.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';

import {
  createRunFolder,
  installExtension,
  runEnv,
  startCodeServer,
  workbenchUrl,
  writeSettings,
} from './lib/codeserver.mjs';
import { demoUsage, splitDemoArgs } from './lib/demoArgs.mjs';
import { exitAfterOutput, killAllGroups, mustRun, onShutdown, portIsFree, seconds } from './lib/proc.mjs';
import { build, CACHE, ensureDeps, ensureVscode, log as logLine, packageVsix, ROOT } from './lib/project.mjs';
import { startSandboxProcess } from './lib/sandbox.mjs';

const log = (m) => logLine('demo', m);
const split = splitDemoArgs(process.argv.slice(2));
// Before anything is installed, built or started.
if (split.help === true) {
  console.log(demoUsage());
  process.exit(0);
}
if (split.problem !== undefined) {
  log(split.problem);
  process.exit(2);
}
const argv = split.demo;
/** Options for the sandbox, as `npm run sandbox` takes them (`--big-task-rows 60000`). */
const sandboxArgs = split.sandbox;
const portArg = (() => {
  const i = argv.findIndex((a) => a === '--port' || a.startsWith('--port='));
  if (i < 0) return undefined;
  const text = argv[i].includes('=') ? argv[i].split('=')[1] : argv[i + 1];
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 65535) {
    log(`--port needs a port number (got ${text})`);
    process.exit(2);
  }
  return n;
})();
const desktop = argv.includes('--desktop');
const smoke = argv.includes('--smoke');
const fresh = argv.includes('--fresh');
/** The demo sandbox's state, kept across restarts (the smoke run keeps none: it checks a fresh start). */
const SANDBOX_STATE = path.join(CACHE, 'demo', 'sandbox-state.json');

/** How long each phase took, printed by --smoke (CI reads it to see a cold install's cost). */
const phases = [];
async function phase(name, fn) {
  const t = Date.now();
  const value = await fn();
  phases.push([name, seconds(t)]);
  if (smoke) log(`${name}: ${seconds(t)} s`);
  return value;
}

function onPath(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).status === 0;
}

async function choosePort() {
  if (portArg !== undefined) {
    if (!(await portIsFree(portArg))) throw new Error(`port ${portArg} is in use; choose another with --port N`);
    return portArg;
  }
  for (let p = 8080; p < 8100; p++) if (await portIsFree(p)) return p;
  return 0; // any free port
}

function printAccess(address, info, run, password) {
  const lines = [
    '',
    '  Scrapedeck demo is ready.',
    '',
    `  Open:      ${address}`,
    ...(password ? [`  Password:  ${password}  (VS Code's login page asks for it; a new one every run)`] : []),
    `  Sandbox:   ${info.baseUrl}  (data-app hub ${info.datahubUrl})`,
    '',
    '  Seeded accounts (Scrapedeck view > Sign In with Username and Password, or Sign In with API Key):',
  ];
  for (const a of info.accounts) {
    lines.push(
      `    ${a.username.padEnd(7)} ${a.plan.padEnd(13)} password ${a.password.padEnd(15)} API key ${a.apiKey}`,
    );
    if (a.apps.length) lines.push(`    ${''.padEnd(21)}apps: ${a.apps.join(', ')}`);
  }
  lines.push(
    '',
    `  State of this run: ${path.relative(ROOT, run.dir)}`,
    `  Sandbox state (kept across restarts; --fresh starts from the seed): ${SANDBOX_STATE}`,
    '  Press Ctrl-C to stop everything.',
    '',
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main() {
  const t0 = Date.now();
  if (desktop && !onPath('code')) {
    log(
      '--desktop needs VS Code desktop: `code` is not on PATH. Install VS Code, or run `npm start` without --desktop for VS Code in the browser.',
    );
    return 1;
  }
  if (desktop && smoke) {
    log('--smoke drives VS Code in the browser; it cannot be combined with --desktop.');
    return 2;
  }
  // The test VS Code installs beside npm ci, the build and the package (on a cold machine it is
  // minutes of compiling code-server's native modules; npm ci is mostly waiting on the registry).
  const vscodeReady = desktop
    ? undefined
    : phase('VS Code (chromium, Node 24, code-server when needed)', () => ensureVscode());
  vscodeReady?.catch(() => undefined); // awaited below; this only keeps an early failure from being "unhandled"
  await phase('dependencies (npm ci when needed)', () => ensureDeps('demo'));
  await phase('build', () => build());
  const vsix = await phase('package .vsix', () => packageVsix());
  await vscodeReady;
  log(`packaged ${path.relative(ROOT, vsix)} (${seconds(t0)} s)`);

  const run = createRunFolder('demo');
  const stateArgs = smoke ? [] : ['--state', SANDBOX_STATE];
  if (!smoke) {
    mkdirSync(path.dirname(SANDBOX_STATE), { recursive: true });
    if (fresh && existsSync(SANDBOX_STATE)) renameSync(SANDBOX_STATE, `${SANDBOX_STATE}.${Date.now()}.old`);
  }
  if (sandboxArgs.length > 0) log(`sandbox options: ${sandboxArgs.join(' ')}`);
  const sandboxLog = path.join(run.logs, 'sandbox.log');
  const sandbox = await phase('sandbox', () =>
    startSandboxProcess({ logFile: sandboxLog, extraArgs: [...stateArgs, ...sandboxArgs] }).catch((err) => {
      // An option the sandbox refuses: its own sentence and usage are in its log.
      throw new Error(
        `${err.message}${sandboxArgs.length > 0 ? `; check the sandbox options (${sandboxArgs.join(' ')}) against \`npm run sandbox -- --help\`` : ''}`,
      );
    }),
  );
  onShutdown(() => sandbox.stop());
  writeSettings(run, {
    'scrapedeck.baseUrl': sandbox.info.baseUrl,
    'scrapedeck.datahubUrl': sandbox.info.datahubUrl,
  });

  if (desktop) {
    const common = ['--user-data-dir', run.ud, '--extensions-dir', run.ext];
    await mustRun('code', [...common, '--install-extension', vsix, '--force']);
    await mustRun('code', [...common, '--new-window', run.ws]);
    printAccess(`VS Code desktop (profile ${path.relative(ROOT, run.ud)})`, sandbox.info, run);
  } else {
    const env = runEnv(run);
    await phase('install the .vsix into code-server', () => installExtension(run, vsix, env));
    // 144 random bits, URL-safe: typed or pasted once into the login page.
    const password = randomBytes(18).toString('base64url');
    const server = await phase('start code-server', async () =>
      startCodeServer(run, { port: smoke ? 0 : await choosePort(), env, password }),
    );
    onShutdown(() => server.stop());
    if (smoke) {
      // Loaded only now: it needs playwright-core, which a fresh clone has only after ensureDeps.
      const { smokeCheck } = await import('./lib/smoke.mjs');
      const seen = await phase('workbench opened, Scrapedeck active', () =>
        smokeCheck({ url: workbenchUrl(server.origin, run.ws), run, password }),
      );
      await server.stop();
      await sandbox.stop();
      process.stdout.write(
        [
          '',
          `  demo smoke passed in ${seconds(t0)} s`,
          `  Scrapedeck activated: ${seen.activation}`,
          `  ${seen.login}`,
          `  ${seen.view} (screenshot ${path.relative(ROOT, seen.screenshot)})`,
          '',
          '  phase times:',
          ...phases.map(([name, secs]) => `    ${name.padEnd(52)} ${secs.padStart(6)} s`),
          '',
        ].join('\n'),
      );
      return 0;
    }
    printAccess(workbenchUrl(server.origin, run.ws), sandbox.info, run, password);
  }
  // Runs until Ctrl-C (the shutdown handlers stop the sandbox and code-server by process group).
  await new Promise(() => {});
  return 0;
}

main().then(
  (code) => exitAfterOutput(code),
  async (err) => {
    console.error(`[demo] ${err instanceof Error ? err.message : err}`);
    await killAllGroups();
    exitAfterOutput(1);
  },
);
