// The bundles: the extension for Node (vscode external) with its lazily loaded chunks, the
// sandbox's command line, and the webview pages for the browser.
//
// Flags: --production (minified, no sourcemaps: what the .vsix ships), --watch, --if-changed (build
// only if the sources changed since the last build into dist/: dist/.build-stamp.json holds their
// hash; a production build also serves a request for a development one).
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as esbuild from 'esbuild';

import { BUILD_INPUTS, hashInputs, readStamp, writeStamp } from './scripts/lib/stamp.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const ifChanged = process.argv.includes('--if-changed');
const root = path.dirname(fileURLToPath(import.meta.url));
const STAMP = path.join(root, 'dist', '.build-stamp.json');

/**
 * Every capability's page (`src/<capability>/page/entry.ts`) becomes `dist/webview/<capability>.js`;
 * the data browser's (`src/data/browse/page/entry.ts`) becomes `dist/webview/browse.js`.
 */
const pages = {
  ...Object.fromEntries(
    readdirSync('src', { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(path.join('src', d.name, 'page', 'entry.ts')))
      .map((d) => [d.name, `src/${d.name}/page/entry.ts`]),
  ),
  browse: 'src/data/browse/page/entry.ts',
};

/**
 * Code the extension loads only when first needed lives in its own files next to
 * dist/extension.js, so VS Code reads and compiles less when it activates Scrapedeck: everything
 * behind the activation shell (src/main.ts, on the first tree, command, panel or Accounts menu
 * call), undici (with the first client) and the embedded sandbox ("Try the Sandbox"). A
 * `require()` of one of these, by package name or by the source file's path, becomes
 * `require('./<chunk>.js')`.
 */
const isRequireOf = (args, file) =>
  args.kind === 'require-call' && path.resolve(args.resolveDir, args.path) === path.resolve(file);
const lazyChunks = [
  { chunk: 'main', entry: 'src/main.ts', matches: (args) => isRequireOf(args, 'src/main') },
  { chunk: 'undici', entry: 'undici', matches: (args) => args.path === 'undici' },
  {
    chunk: 'sandbox-server',
    entry: 'src/sandbox/server.ts',
    matches: (args) => isRequireOf(args, 'src/sandbox/server'),
  },
];

/** @type {esbuild.Plugin} */
const lazyChunksPlugin = {
  name: 'lazy-chunks',
  setup(build) {
    build.onResolve({ filter: /^(undici|\.\.?\/.*)$/ }, (args) => {
      if (args.kind === 'entry-point') return undefined; // a chunk's own build bundles its entry
      const lazy = lazyChunks.find((c) => c.matches(args));
      return lazy === undefined ? undefined : { path: `./${lazy.chunk}.js`, external: true };
    });
  },
};

/** What every Node bundle shares (the extension, its lazy chunks, the SQLite worker, the sandbox, the MCP server). */
const nodeBundle = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node18',
  minify: production,
  logLevel: 'warning',
};

/** @type {esbuild.BuildOptions[]} */
const builds = [
  {
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    ...nodeBundle,
    external: ['vscode', 'pg-native'],
    plugins: [lazyChunksPlugin],
    sourcemap: !production,
  },
  ...lazyChunks.map(({ chunk, entry }) => ({
    entryPoints: { [chunk]: entry },
    outdir: 'dist',
    ...nodeBundle,
    // main.js holds the extension's code (vscode external) and loads undici and the sandbox lazily.
    // `pg` is bundled (pure JavaScript); its optional native binding (`pg-native`, loaded only
    // when asked for, which Scrapedeck never does) stays out.
    external: ['vscode', 'pg-native'],
    plugins: [lazyChunksPlugin],
    sourcemap: chunk === 'main' && !production,
  })),
  {
    // SQLite's worker thread (src/data/sqlite/sqliteWorker.ts), started by main.js from beside it.
    entryPoints: ['src/data/sqlite/sqliteWorker.ts'],
    outfile: 'dist/sqliteWorker.js',
    ...nodeBundle,
    sourcemap: !production,
  },
  {
    entryPoints: ['src/sandbox/main.ts'],
    outfile: 'dist/sandbox.js',
    ...nodeBundle,
    sourcemap: !production,
  },
  {
    // The stdio MCP server (`node dist/mcp.js`, package.json "bin"): the MCP SDK bundled in, because
    // the .vsix ships without node_modules; undici is the extension's chunk next to it.
    entryPoints: ['src/mcp.ts'],
    outfile: 'dist/mcp.js',
    ...nodeBundle,
    plugins: [lazyChunksPlugin],
    banner: { js: '#!/usr/bin/env node' },
    define: { SCRAPEDECK_VERSION: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) },
    sourcemap: false,
  },
  {
    entryPoints: pages,
    outdir: 'dist/webview',
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    // Always minified: the page bundle has a size budget, and the sourcemap is kept separately.
    minify: true,
    sourcemap: production ? false : 'linked',
    loader: { '.css': 'text' },
    logLevel: 'warning',
  },
];

/**
 * SQLite (src/data/sqlite/sqliteRuntime.ts) runs node-sqlite3-wasm's own JavaScript with a file system of
 * its own, reading it and its WebAssembly from dist/ at first use: both are copied there as they
 * are, not bundled.
 */
function copySqlite() {
  const from = path.dirname(createRequire(import.meta.url).resolve('node-sqlite3-wasm'));
  mkdirSync(path.join(root, 'dist'), { recursive: true });
  for (const file of ['node-sqlite3-wasm.js', 'node-sqlite3-wasm.wasm'])
    copyFileSync(path.join(from, file), path.join(root, 'dist', file));
}
copySqlite();

/** Every file the builds write (a stamp is only as good as the outputs still being there). */
const outputs = [
  ...builds.filter((b) => b.outfile).map((b) => b.outfile),
  ...lazyChunks.map((c) => `dist/${c.chunk}.js`),
  ...Object.keys(pages).map((name) => `dist/webview/${name}.js`),
].map((f) => path.join(root, f));

const inputs = watch ? undefined : hashInputs(root, BUILD_INPUTS);
const stamp = readStamp(STAMP);
if (
  ifChanged &&
  !watch &&
  stamp?.inputs === inputs &&
  (stamp.production || !production) &&
  outputs.every((f) => existsSync(f))
) {
  console.log(
    `esbuild: dist/ is up to date (${stamp.production ? 'production' : 'development'} build of the same sources); not built again`,
  );
} else {
  // Gone until the build has finished: an interrupted build is never taken for an up-to-date one.
  rmSync(STAMP, { force: true });
  if (watch) {
    for (const options of builds) {
      const ctx = await esbuild.context(options);
      await ctx.watch();
    }
    console.log('esbuild: watching');
  } else {
    await Promise.all(builds.map((options) => esbuild.build(options)));
    writeStamp(STAMP, { inputs, production });
  }
}
