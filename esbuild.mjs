// Two bundles: the extension for Node (vscode external) and the webview pages for the browser.
import * as esbuild from 'esbuild';
import { readdirSync } from 'node:fs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Every `src/webview/*.page.ts` becomes `dist/webview/<name>.js`. */
const pages = Object.fromEntries(
  readdirSync('src/webview')
    .filter((f) => f.endsWith('.page.ts'))
    .map((f) => [f.slice(0, -'.page.ts'.length), `src/webview/${f}`]),
);

/** @type {esbuild.BuildOptions[]} */
const builds = [
  {
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    external: ['vscode'],
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
  },
  {
    entryPoints: ['src/sandbox/main.ts'],
    outfile: 'dist/sandbox.js',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    sourcemap: !production,
    minify: production,
    logLevel: 'warning',
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

if (watch) {
  for (const options of builds) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  }
  console.log('esbuild: watching');
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
}
