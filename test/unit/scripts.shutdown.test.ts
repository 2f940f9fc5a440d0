/**
 * Once a signal has begun a harness script's shutdown (scripts/lib/proc.mjs), nothing new starts:
 * a lane whose stage ended during the shutdown once went on to start the journey, whose script was
 * then SIGKILLed at exit and could not stop the code-server it had begun.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';

import { scriptLibUrl } from './helpers/scriptLib';

const PROC = scriptLibUrl('proc.mjs');

/** Runs `body` (with run and startGroup in scope) in a script, and collects its output and code. */
function script(body: string): Promise<{ out: string; code: number | null }> {
  const source = `import { run, startGroup, onShutdown } from ${JSON.stringify(PROC)};\n${body}`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', source], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const guard = setTimeout(() => child.kill('SIGKILL'), 15_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ out, code });
    }),
  );
}

describe('scripts: nothing starts once the run is stopping', () => {
  it("run() and startGroup() refuse during a shutdown, and the script still exits with the signal's code", async () => {
    const { out, code } = await script(`
onShutdown(async () => {
  for (const [name, start] of [['run', () => run(process.execPath, ['-e', 'console.log("child ran")'])], ['startGroup', async () => startGroup(process.execPath, ['-e', 'console.log("group ran")'])]]) {
    try { await start(); console.log(name + ': started'); } catch (err) { console.log(name + ': ' + err.message); }
  }
});
process.kill(process.pid, 'SIGINT');
setTimeout(() => {}, 10_000);`);
    assert.equal(code, 130, out);
    assert.match(out, /run: not starting .*: the run is stopping/);
    assert.match(out, /startGroup: not starting .*: the run is stopping/);
    assert.doesNotMatch(out, /child ran|group ran|: started/);
  });

  it('before any signal, run() starts its command as ever (the control)', async () => {
    const { out, code } = await script(
      `const c = await run(process.execPath, ['-e', 'console.log("child ran")']); console.log('code ' + c);`,
    );
    assert.equal(code, 0, out);
    assert.match(out, /child ran\ncode 0/);
  });
});
