// `npm run sandbox -- [flags]`: builds dist/sandbox.js when it is missing or older than src/, then
// runs it with the same arguments. Only the sandbox bundle is built (same options as esbuild.mjs),
// so it stays fast and does not depend on the rest of the tree compiling.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'sandbox.js');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

const sources = [join(root, 'src', 'sandbox'), join(root, 'src', 'api')];
const stale = !existsSync(out) || sources.some((d) => newestMtime(d) > statSync(out).mtimeMs);
if (stale) {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [join(root, 'src', 'sandbox', 'main.ts')],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    sourcemap: true,
    logLevel: 'warning',
  });
}

const child = spawn(process.execPath, [out, ...process.argv.slice(2)], { stdio: 'inherit' });
// Forward Ctrl-C / SIGTERM so the sandbox closes cleanly and its exit code is ours.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
