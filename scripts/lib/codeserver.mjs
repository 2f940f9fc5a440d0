// A code-server (VS Code served to a browser, with the real Node extension host) per run:
// its own folder, settings, process group and port. Recipe: shared/vscode-offline.md.
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { freePort, killGroup, mustRun, portIsFree, startGroup, waitFor } from './proc.mjs';
import { CODE_SERVER_ENTRY, NODE24, ROOT } from './project.mjs';

/** Settings every run starts from: quiet, offline, no prompts, no AI, no trust dialog. */
export const BASE_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'chat.disableAIFeatures': true,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'npm.autoDetect': 'off',
  'window.dialogStyle': 'custom',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.commandCenter.enabled': false,
  // No port forwarding to offer in a local test or demo: without this each extension host lists
  // every file descriptor of every process (`ls -l /proc/[0-9]*/fd/[0-9]*`) every 2 s or more, up
  // to 5 % of a core each, beside the tiers on a 2-core machine.
  'remote.autoForwardPorts': false,
};

/**
 * What the test tiers add to BASE_SETTINGS: no animations in the workbench (see TEST_CHROMIUM_ARGS)
 * and a cursor that does not blink (each blink repaints an editor).
 */
export const TEST_SETTINGS = {
  'workbench.reduceMotion': 'on',
  'editor.cursorBlinking': 'solid',
};

function stamp() {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

/** How many run folders `.vscode-test/runs/` keeps for a look at their logs (npm test makes four). */
export const KEEP_RUNS = 12;

/** Whether the process that made a run folder (`<kind>-<timestamp>-<pid>`) is still running. */
function ownerAlive(name) {
  const pid = Number(/-(\d+)$/.exec(name)?.[1]);
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err?.code === 'EPERM';
  }
}

/**
 * Removes the run folders beyond the newest `keep`, except those whose process still runs (a demo
 * or a test in another terminal). Each holds ~20 MB (a browser profile, user data, logs); never
 * pruned they grew to gigabytes, and `vsce package`, which lists every file below the project
 * before applying its whitelist, took 18 s instead of 4 with 124 of them. Returns the names removed.
 */
export function pruneRunFolders(
  runsDir = path.join(ROOT, '.vscode-test', 'runs'),
  keep = KEEP_RUNS,
  alive = ownerAlive,
) {
  let names;
  try {
    names = readdirSync(runsDir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
  } catch {
    return [];
  }
  const mtime = (name) => {
    try {
      return statSync(path.join(runsDir, name)).mtimeMs;
    } catch {
      return 0;
    }
  };
  const removed = [];
  for (const { name } of names
    .map((name) => ({ name, at: mtime(name) }))
    .sort((a, b) => b.at - a.at)
    .slice(keep)) {
    if (alive(name)) continue;
    try {
      rmSync(path.join(runsDir, name), { recursive: true, force: true, maxRetries: 2 });
      removed.push(name);
    } catch (err) {
      // Housekeeping only: a folder that cannot go now (not ours, still being written) stays.
      console.warn(`could not remove the old run folder ${name}: ${err.message}`);
    }
  }
  return removed;
}

/**
 * A fresh folder `.vscode-test/runs/<kind>-<timestamp>/` with ud/, ext/, xdg/{config,data,cache},
 * tmp/, ws/ (the workspace folder) and logs/. Older runs beyond the newest few are removed first.
 */
export function createRunFolder(kind) {
  pruneRunFolders();
  const dir = path.join(ROOT, '.vscode-test', 'runs', `${kind}-${stamp()}-${process.pid}`);
  const run = {
    dir,
    ud: path.join(dir, 'ud'),
    ext: path.join(dir, 'ext'),
    config: path.join(dir, 'xdg', 'config'),
    data: path.join(dir, 'xdg', 'data'),
    cache: path.join(dir, 'xdg', 'cache'),
    tmp: path.join(dir, 'tmp'),
    ws: path.join(dir, 'ws'),
    logs: path.join(dir, 'logs'),
    profile: path.join(dir, 'chromium-profile'),
  };
  for (const d of [
    run.ud,
    path.join(run.ud, 'User'),
    run.ext,
    run.config,
    run.data,
    run.cache,
    run.tmp,
    run.ws,
    run.logs,
    run.profile,
  ]) {
    mkdirSync(d, { recursive: true });
  }
  return run;
}

export function settingsPath(run) {
  return path.join(run.ud, 'User', 'settings.json');
}

/** Writes ud/User/keybindings.json: VS Code's keybinding rules, `{ key, command }`. */
export function writeKeybindings(run, bindings) {
  writeFileSync(path.join(run.ud, 'User', 'keybindings.json'), `${JSON.stringify(bindings, null, 2)}\n`);
}

/** Writes ud/User/settings.json: the base settings plus `extra`. */
export function writeSettings(run, extra = {}) {
  writeFileSync(settingsPath(run), `${JSON.stringify({ ...BASE_SETTINGS, ...extra }, null, 2)}\n`);
}

/** The environment code-server and its extension host run with: everything inside the run folder. */
export function runEnv(run, extra = {}) {
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: run.config,
    XDG_DATA_HOME: run.data,
    XDG_CACHE_HOME: run.cache,
    XDG_RUNTIME_DIR: run.tmp,
    TMPDIR: run.tmp,
    EXTENSIONS_GALLERY: '{}',
    ...extra,
  };
  // The harness's own Node/npm variables mean nothing to code-server's Node 24.
  for (const key of Object.keys(env)) {
    if (key.startsWith('npm_')) delete env[key];
  }
  delete env.NODE_OPTIONS;
  delete env.ELECTRON_RUN_AS_NODE;
  delete env.VSCODE_IPC_HOOK_CLI;
  return env;
}

function codeServerArgs(run) {
  return [CODE_SERVER_ENTRY, '--user-data-dir', run.ud, '--extensions-dir', run.ext];
}

/** `code-server --install-extension file.vsix` into the run's extensions folder. */
export async function installExtension(run, vsix, env) {
  await mustRun(NODE24, [...codeServerArgs(run), '--force', '--install-extension', vsix], {
    cwd: run.dir,
    env: env ?? runEnv(run),
  });
}

/**
 * Starts code-server in its own process group and waits for GET /healthz.
 * `port` 0 picks a free one; `smokeTestDriver` enables the development/test payload keys;
 * `workspaceTrust` leaves workspace trust on, so an untrusted folder opens in Restricted Mode;
 * `locale` sets VS Code's display language (extensions load their l10n bundle for it);
 * `password` puts the workbench behind code-server's login (given in its environment, never in
 * its arguments, which other users of the machine can list; code-server removes it from the
 * environment its terminals and extensions get).
 * Resolves to { port, origin, child, logFile, stop() }.
 */
export async function startCodeServer(
  run,
  { port = 0, smokeTestDriver = false, env, readyTimeoutMs = 120_000, workspaceTrust = false, locale, password } = {},
) {
  let chosen = port;
  if (!chosen) chosen = await freePort();
  else if (!(await portIsFree(chosen))) throw new Error(`port ${chosen} is in use`);
  const args = [
    ...codeServerArgs(run),
    '--bind-addr',
    `127.0.0.1:${chosen}`,
    '--auth',
    password ? 'password' : 'none',
    '--disable-telemetry',
    '--disable-update-check',
    // Workspace trust is off unless a run tests Restricted Mode.
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--ignore-last-opened',
  ];
  if (smokeTestDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  if (locale) args.push('--locale', locale);
  args.push(run.ws);
  const logFile = path.join(run.logs, 'code-server.log');
  const childEnv = { ...(env ?? runEnv(run)) };
  delete childEnv.PASSWORD;
  delete childEnv.HASHED_PASSWORD;
  if (password) childEnv.PASSWORD = password;
  const child = startGroup(NODE24, args, { cwd: run.dir, env: childEnv, logFile });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const origin = `http://127.0.0.1:${chosen}`;
  const stop = () => killGroup(child.pid, { graceMs: 5000 });
  try {
    await waitFor(
      async () => {
        if (exited) throw new Error(`code-server exited early (see ${logFile})`);
        const res = await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(2000) });
        return res.ok;
      },
      { timeoutMs: readyTimeoutMs, intervalMs: 250, what: `code-server on ${origin}/healthz` },
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { port: chosen, origin, child, logFile, stop };
}

/** The workbench address for a folder, with an optional smoke-test-driver payload. */
export function workbenchUrl(origin, folder, payload) {
  let url = `${origin}/?folder=${encodeURIComponent(folder).replace(/%2F/g, '/')}`;
  if (payload) url += `&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  return url;
}
