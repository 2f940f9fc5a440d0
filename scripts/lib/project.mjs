// Where things are, and the steps every harness shares: dependencies, the cached code-server,
// the build, the compiled tests and the packaged .vsix. The build and each .vsix are made once
// per change of their sources (scripts/lib/stamp.mjs): a second call on the same sources reuses them.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { mustRun } from './proc.mjs';
import { hashInputs, PACKAGE_INPUTS, readStamp, writeStamp } from './stamp.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CACHE = process.env.SCRAPEDECK_CACHE || path.join(os.homedir(), '.cache', 'scrapedeck');
export const NODE24 = path.join(CACHE, 'node24', 'bin', 'node');
/**
 * The unit tier's Node: the Node 24 installed beside code-server (ensureVscode), the Node the
 * integration tiers run the extension's host on, with its compile cache (NODE_COMPILE_CACHE, Node
 * 22.1 and later) in UNIT_COMPILE_CACHE. Its two workers and the Node processes its tests start
 * (the pulls they kill, MCP servers, sandboxes) each compile the same modules; with the cache warm
 * the tier took 167 and 173 CPU-s here, against 183-206 on Node 20.
 * Where Node 24 is not installed, the Node running this script.
 */
export function unitTestNode() {
  return existsSync(NODE24) ? NODE24 : process.execPath;
}
/** Keyed by each file's path and content and by Node's version: a changed file is compiled again. */
export const UNIT_COMPILE_CACHE = path.join(ROOT, 'node_modules', '.cache', 'scrapedeck', 'node-compile');
export const CODE_SERVER = path.join(CACHE, 'cs', 'node_modules', 'code-server');
export const CODE_SERVER_ENTRY = path.join(CODE_SERVER, 'out', 'node', 'entry.js');
export const CHROMIUM = process.env.SCRAPEDECK_CHROMIUM || '/usr/bin/chromium';
/**
 * The test tiers' browser: Chromium's headless shell (Debian's chromium-headless-shell, the same
 * Blink and V8 without the full browser around them), which playwright-core drives by default.
 * Here it loaded a workbench with ~20 % less CPU and ran the page tier with ~8 % less. Where it
 * is not installed yet (scripts/install-vscode.sh installs it), the full Chromium runs headless.
 */
export const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
/** Asked at launch, not at import: on a fresh machine the install runs after this module loads. */
export function testChromium() {
  return process.env.SCRAPEDECK_TEST_CHROMIUM || (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM);
}
/** Debian's chromium, headless and offline-friendly (shared/vscode-offline.md). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
/**
 * As above, asking pages for reduced motion (the workbench's fades and slides, the webview's
 * spinner): the test tiers and the data browser's bench. Drawn in software here, every animation
 * frame costs CPU: the same workbench steps took ~40 % less CPU and time without them, and nothing
 * moves under a click.
 * The demo keeps the user's motion.
 */
export const REDUCED_MOTION_ARGS = [...CHROMIUM_ARGS, '--force-prefers-reduced-motion'];
/**
 * What the test tiers run (page, integration, German, journey): reduced motion, and V8 kept to its
 * baseline compiler (Sparkplug; no Maglev or TurboFan) with its garbage collector on the page's own
 * thread. A test's page lives seconds to minutes and runs each step once: the optimising compilers
 * worked on background threads for code that never paid them back, and parallel collection only
 * contended with the other tiers for the two cores. Measured alone on this machine, the journey took
 * 349.5 CPU-s instead of 390.4 (the renderers' main threads the same, 102 s; their thread pool
 * 17.8 s instead of 41.7) and the page tier 129 and 133 instead of 149. The benchmarks time the
 * page as users run it and keep V8 as it ships (REDUCED_MOTION_ARGS, or CHROMIUM_ARGS).
 */
export const TEST_CHROMIUM_ARGS = [...REDUCED_MOTION_ARGS, '--js-flags=--max-opt=1 --single-threaded-gc'];
/**
 * A Playwright init script for the test tiers' workbench (the integration suite, the German run,
 * the journey): VS Code keeps its endless indicators moving under reduced motion (the infinite
 * progress bar; the sync, loading and tree-loading icons spin), and every frame of them is drawn
 * in software here. This holds them still. Their elements and classes stay, so a step still finds
 * what spins; what ends by itself (a fade) is left to reduced motion. Only the workbench's own
 * document: a webview's page follows reduced motion itself. The journey, alone and back to back
 * with it unchanged: 324.6 CPU-s against 348.7, the display compositor 19.9 s against 25.0.
 */
export const STILL_INDICATORS_SCRIPT = `(() => {
  if (window !== window.top) return;
  const hold = () => {
    const style = document.createElement('style');
    style.textContent =
      '.monaco-progress-container.infinite .progress-bit, .codicon-modifier-spin, .codicon-loading, ' +
      '.codicon-tree-item-loading::before { animation: none !important; }';
    (document.head ?? document.documentElement).appendChild(style);
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', hold);
  else hold();
})();`;
export const VSIX = path.join(ROOT, 'dist-vsix', 'scrapedeck.vsix');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export function log(prefix, message) {
  process.stderr.write(`[${prefix}] ${message}\n`);
}

const INSTALLED_LOCK = path.join(ROOT, 'node_modules', '.scrapedeck-lock.sha256');

function lockHash() {
  const lock = path.join(ROOT, 'package-lock.json');
  return existsSync(lock) ? createHash('sha256').update(readFileSync(lock)).digest('hex') : '';
}

/**
 * True when node_modules is missing or was installed from another package-lock.json. Judged by the
 * lock's content (recorded after each `npm ci`), not by dates: a fresh checkout or a second working
 * tree writes the lock anew, and a date would call a matching install stale. Without a record (an
 * install by hand), the dates decide once.
 */
export function depsStale() {
  const installed = path.join(ROOT, 'node_modules', '.package-lock.json');
  if (!existsSync(installed)) return true;
  if (existsSync(INSTALLED_LOCK)) return readFileSync(INSTALLED_LOCK, 'utf8').trim() !== lockHash();
  const lock = path.join(ROOT, 'package-lock.json');
  return existsSync(lock) && statSync(lock).mtimeMs > statSync(installed).mtimeMs;
}

/** `npm ci` when node_modules is missing or stale. */
export async function ensureDeps(prefix = 'deps') {
  if (!depsStale()) {
    if (!existsSync(INSTALLED_LOCK)) writeFileSync(INSTALLED_LOCK, `${lockHash()}\n`);
    return false;
  }
  log(prefix, 'node_modules missing or installed from another package-lock.json: npm ci');
  await mustRun(NPM, ['ci', '--no-audit', '--no-fund'], { cwd: ROOT });
  writeFileSync(INSTALLED_LOCK, `${lockHash()}\n`);
  return true;
}

/** Debian chromium + Node 24 + code-server in the cache (idempotent, fast when done). */
export async function ensureVscode() {
  await mustRun('bash', [path.join(ROOT, 'scripts', 'install-vscode.sh')], { cwd: ROOT });
  for (const p of [NODE24, CODE_SERVER_ENTRY, CHROMIUM, HEADLESS_SHELL]) {
    if (!existsSync(p)) throw new Error(`missing after install-vscode.sh: ${p}`);
  }
}

/**
 * The production bundle (what the .vsix ships, so every tier runs the bytes users get), built only
 * when its sources changed since the last build (esbuild.mjs --if-changed).
 */
export async function build() {
  await mustRun(process.execPath, ['esbuild.mjs', '--production', '--if-changed'], { cwd: ROOT });
}

/**
 * Deletes compiled files in out/ whose TypeScript source is gone (a renamed or removed test would
 * otherwise keep running from its stale .js). Returns the paths removed.
 */
export function pruneStaleOutputs() {
  const out = path.join(ROOT, 'out');
  const removed = [];
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.js(\.map)?$/.test(entry.name)) {
        const source = path.join(ROOT, path.relative(out, full)).replace(/\.js(\.map)?$/, '.ts');
        if (!existsSync(source)) {
          rmSync(full, { force: true });
          removed.push(path.relative(ROOT, full));
        }
      }
    }
  };
  walk(out);
  return removed;
}

/**
 * tsc -p tsconfig.json is incremental: it re-emits only what changed since its record (the
 * config's `tsBuildInfoFile`), and never looks at the outputs themselves. A compiled file deleted
 * or edited since (a test's .js gone would silently shrink its tier) makes the record a lie: it is
 * deleted, and the next tsc emits everything. Returns the first such output (relative to `root`),
 * or undefined when the record holds or there is none.
 */
export function forgetBuildInfoIfOutputsChanged(root = ROOT) {
  const ts = createRequire(import.meta.url)(path.join(ROOT, 'node_modules', 'typescript'));
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  const record = config?.options.tsBuildInfoFile;
  if (!record || !existsSync(record)) return undefined;
  const recorded = statSync(record).mtimeMs;
  // A source newer than the record is one tsc will compile anyway (a new file's outputs are missing too).
  const sources = config.fileNames.filter((f) => !f.endsWith('.d.ts') && statSync(f).mtimeMs <= recorded);
  const outputs = sources.flatMap((f) => ts.getOutputFileNames(config, f, false));
  const changed =
    config.fileNames.length === 0 ? record : outputs.find((f) => !existsSync(f) || statSync(f).mtimeMs > recorded);
  if (changed !== undefined) rmSync(record, { force: true });
  return changed && path.relative(root, changed);
}

/** Everything the type-check does to out/ before tsc runs; says what it removed. */
export function prepareOut() {
  const notes = [];
  const stale = pruneStaleOutputs();
  if (stale.length) notes.push(`removed compiled files whose source is gone: ${stale.join(', ')}`);
  const changed = forgetBuildInfoIfOutputsChanged();
  if (changed) notes.push(`${changed} is missing or changed since tsc wrote it: everything is compiled again`);
  return notes;
}

export async function compileTests() {
  for (const note of prepareOut()) log('compile', note);
  await mustRun(
    process.execPath,
    [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'],
    { cwd: ROOT },
  );
}

/**
 * `vsce package` of `dir` into `out`, unless `out` was packaged from the same sources already
 * (the hash of `inputs` below `dir`, kept in `<out>.stamp.json`). Resolves to `out`.
 */
async function packageOnce(dir, inputs, out, vsceArgs) {
  const stampFile = `${out}.stamp.json`;
  const hash = hashInputs(dir, inputs);
  if (existsSync(out) && readStamp(stampFile)?.inputs === hash) {
    log('package', `${path.relative(ROOT, out)} is up to date (same sources); not packaged again`);
    return out;
  }
  rmSync(stampFile, { force: true });
  mkdirSync(path.dirname(out), { recursive: true });
  await mustRun(
    process.execPath,
    [
      path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'),
      'package',
      '--no-dependencies',
      ...vsceArgs,
      '-o',
      out,
    ],
    { cwd: dir },
  );
  writeStamp(stampFile, { inputs: hash });
  return out;
}

/**
 * `vsce package --no-dependencies` into dist-vsix/scrapedeck.vsix: vsce runs `vscode:prepublish`,
 * the production build, which is itself skipped when dist/ is up to date.
 */
export async function packageVsix() {
  return packageOnce(ROOT, PACKAGE_INPUTS, VSIX, []);
}

/**
 * A test fixture extension of test/fixtures/<name>, packaged like any other .vsix into
 * dist-vsix/<name>.vsix (never shipped: the extension's own .vsix whitelists its files).
 */
export async function packageFixture(name) {
  return packageOnce(path.join(ROOT, 'test', 'fixtures', name), ['.'], path.join(ROOT, 'dist-vsix', `${name}.vsix`), [
    '--skip-license',
    '--allow-missing-repository',
  ]);
}
