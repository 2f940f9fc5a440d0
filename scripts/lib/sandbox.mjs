// Starts the sandbox service (dist/sandbox.js) as a separate process group and reads the
// SandboxInfo JSON line it prints first; request logs (stderr) go to a file.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

import { killGroup, startGroup } from './proc.mjs';
import { ROOT } from './project.mjs';

/** Resolves to { info, child, logFile, stop() }. */
export async function startSandboxProcess({ logFile, port = 0, extraArgs = [], timeoutMs = 60_000 } = {}) {
  const entry = path.join(ROOT, 'dist', 'sandbox.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: build first (node esbuild.mjs)`);
  const child = startGroup(process.execPath, [entry, '--port', String(port), '--json', ...extraArgs], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { createWriteStream } = await import('node:fs');
  const log = createWriteStream(logFile, { flags: 'a' });
  child.stderr.pipe(log);
  const lines = createInterface({ input: child.stdout });
  const info = await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the sandbox printed nothing in ${timeoutMs / 1000} s (see ${logFile})`)),
      timeoutMs,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox exited with ${code} before it was ready (see ${logFile})`));
    });
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line));
      } catch (err) {
        reject(new Error(`the sandbox's first line is not JSON: ${err.message}`));
      }
    });
  });
  // Anything else on stdout goes to the log too.
  lines.on('line', (line) => log.write(`${line}\n`));
  const stop = async () => {
    await killGroup(child.pid, { graceMs: 3000 });
    log.end();
  };
  return { info, child, logFile, stop };
}
