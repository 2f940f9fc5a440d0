// Process helpers shared by the harness scripts: run a command and stream its output, start a
// long-lived child in its own process group, and stop every group this process started, on
// success, on failure and on Ctrl-C.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';

/** Set (to a nice value) in the environment of a stage that yields the CPU: npm test's second lane. */
export const YIELD_ENV = 'SCRAPEDECK_YIELD_CPU';

/**
 * Lowers the CPU priority of `pid` and its session when `env` asks (YIELD_ENV), best effort.
 * Linux schedules each session (setsid: every group these helpers start, and Chromium) as one
 * "autogroup" and shares the CPU equally between them, whatever a process's own nice value; so
 * the group's nice is set as well as the process's (the latter alone counts where there are no
 * autogroups). Children in the same session share its group; each new session gets it here.
 */
export function yieldCpu(pid, env = process.env) {
  const nice = Number(env[YIELD_ENV]);
  if (!pid || !Number.isInteger(nice) || nice <= 0) return;
  try {
    writeFileSync(`/proc/${pid}/autogroup`, String(nice));
  } catch {
    // no autogroups here (or not ours to change): the process's own nice still applies
  }
  try {
    os.setPriority(pid, nice);
  } catch {
    // gone already, or not permitted: it runs at the usual priority
  }
}

/** The pids whose command line holds `text` (e.g. a browser's --user-data-dir), for yieldCpu. */
export function pidsWithArgument(text) {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(text)) pids.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

/** Process groups started by this process that are still running, by leader pid. */
const groups = new Map();

function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // already gone
  }
}

function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops one process group: SIGTERM, then SIGKILL after `graceMs` if anything is left. */
export async function killGroup(pid, { graceMs = 5000 } = {}) {
  if (!pid) return;
  if (!signalGroup(pid, 'SIGTERM')) {
    groups.delete(pid);
    return;
  }
  const deadline = Date.now() + graceMs;
  while (groupAlive(pid) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  if (groupAlive(pid)) signalGroup(pid, 'SIGKILL');
  groups.delete(pid);
}

/** Stops every process group still registered, in reverse start order. */
export async function killAllGroups(options) {
  for (const pid of [...groups.keys()].reverse()) await killGroup(pid, options);
}

let handlersInstalled = false;
const cleanups = [];
// Set once a signal has begun the shutdown: nothing new starts after it, since a process started
// while the output drains would only be SIGKILLed at exit, and could not stop what it started.
let stopping = false;

function refuseWhileStopping(cmd) {
  if (stopping) throw new Error(`not starting ${cmd}: the run is stopping`);
}

/** How long exitAfterOutput waits for a reader that stopped reading. */
export const EXIT_WAIT_MS = 15_000;

/**
 * Exits with `code` once stdout and stderr have taken everything written to them. Node writes to a
 * pipe in the background when its reader is slower, and process.exit drops what is still waiting:
 * a log read through a slow pipe once lost all but the first 64 KB of the last stage's output, the
 * per-stage table and the Total line. A reader that went away (EPIPE) ends the wait with the same
 * code, and one that stopped reading is waited for at most `waitMs`.
 */
export function exitAfterOutput(code, waitMs = EXIT_WAIT_MS) {
  const exit = () => process.exit(code);
  let waiting = 2;
  const done = () => {
    waiting -= 1;
    if (waiting === 0) exit();
  };
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', exit);
    stream.write('', done);
  }
  setTimeout(exit, waitMs);
}

/** Registers `fn` to run (once) before exit on SIGINT/SIGTERM; process groups are stopped after it. */
export function onShutdown(fn) {
  cleanups.push(fn);
  installHandlers();
}

function installHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  const stop = async (signal) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`\n${signal}: stopping everything this run started…\n`);
    for (const fn of cleanups.reverse()) {
      try {
        await fn();
      } catch {
        /* keep stopping */
      }
    }
    await killAllGroups({ graceMs: 3000 });
    exitAfterOutput(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGHUP', () => void stop('SIGHUP'));
  // Last resort on any exit: nothing this process started may outlive it.
  process.on('exit', () => {
    for (const pid of groups.keys()) signalGroup(pid, 'SIGKILL');
  });
}

/**
 * Starts a long-lived command in its own process group (setsid). Output goes to `logFile` when
 * given (and is otherwise inherited). Returns the child; stop it with `killGroup(child.pid)`.
 */
export function startGroup(cmd, args, { cwd, env, logFile, stdio } = {}) {
  installHandlers();
  refuseWhileStopping(cmd);
  let out = 'inherit';
  let log;
  if (logFile) {
    log = createWriteStream(logFile, { flags: 'a' });
    out = 'pipe';
  }
  const child = spawn(cmd, args, {
    cwd,
    env: env ?? process.env,
    detached: true,
    stdio: stdio ?? ['ignore', out, out],
  });
  if (log) {
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    child.once('exit', () => setTimeout(() => log.end(), 50));
  }
  if (child.pid) groups.set(child.pid, { cmd });
  yieldCpu(child.pid, env ?? process.env);
  child.once('exit', () => {
    // The leader is gone; the group may still hold helpers, so keep it until killGroup.
  });
  return child;
}

/**
 * Runs a command to completion (in its own process group, stopped on Ctrl-C), streaming its
 * output to ours, optionally teeing it into `capture` (an array of strings). `quiet` (or a function
 * asked at each chunk) keeps the output off ours. `input`: a promise of text written to the
 * command's stdin when it resolves (stdin then ends). Resolves to the exit code.
 */
export async function run(cmd, args, { cwd, env, capture, quiet = false, timeoutMs, input } = {}) {
  installHandlers();
  refuseWhileStopping(cmd);
  const child = spawn(cmd, args, {
    cwd,
    env: env ?? process.env,
    detached: true,
    stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  if (child.pid) groups.set(child.pid, { cmd });
  yieldCpu(child.pid, env ?? process.env);
  if (input) {
    child.stdin.on('error', () => {}); // a command that ended first no longer reads
    void input.then((text) => child.stdin.end(text));
  }
  const silent = typeof quiet === 'function' ? quiet : () => quiet;
  const onData = (stream) => (chunk) => {
    const text = chunk.toString();
    if (capture) capture.push(text);
    if (!silent()) stream.write(text);
  };
  child.stdout.on('data', onData(process.stdout));
  child.stderr.on('data', onData(process.stderr));
  let timer;
  let timedOut = false;
  if (timeoutMs) {
    timer = setTimeout(() => {
      timedOut = true;
      void killGroup(child.pid, { graceMs: 3000 });
    }, timeoutMs);
  }
  const [code, signal] = await once(child, 'close');
  if (timer) clearTimeout(timer);
  // Anything the command left behind in its group goes too.
  if (groupAlive(child.pid)) await killGroup(child.pid, { graceMs: 2000 });
  groups.delete(child.pid);
  if (timedOut) {
    process.stderr.write(`\n${cmd} ${args.join(' ')}: timed out after ${Math.round(timeoutMs / 1000)} s\n`);
    return 124;
  }
  return code ?? (signal ? 128 : 1);
}

/** Runs a command and throws when it fails. */
export async function mustRun(cmd, args, options) {
  const code = await run(cmd, args, options);
  if (code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${code}`);
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export async function freePort() {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

/** True when nothing listens on 127.0.0.1:port. */
export async function portIsFree(port) {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Polls `check` until it returns a truthy value or `timeoutMs` passes. */
export async function waitFor(check, { timeoutMs = 60_000, intervalMs = 200, what = 'condition' } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}${lastError ? `: ${lastError.message}` : ''}`,
      );
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Seconds since `start` (a Date.now() value), one decimal. */
export function seconds(start) {
  return ((Date.now() - start) / 1000).toFixed(1);
}
