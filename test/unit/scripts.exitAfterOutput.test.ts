/**
 * The harness scripts end with exitAfterOutput (scripts/lib/proc.mjs), not process.exit: output to
 * a pipe whose reader is slower than the writer (a CI log, `| tee`) waits in the process, and
 * process.exit drops it. npm test once lost the tail of its last stage, its table and its Total
 * line that way.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';

import { scriptLibUrl } from './helpers/scriptLib';

const PROC = scriptLibUrl('proc.mjs');
const SIZE = 3_000_000;

/**
 * Runs `exit` after writing SIZE bytes and a last line, with a reader that starts 300 ms late, or
 * (`reader`) one that never reads or goes away after the first chunk.
 */
function slowlyRead(
  exit: string,
  reader: 'late' | 'never' | 'gone' = 'late',
): Promise<{ bytes: number; last: string; code: number | null }> {
  const script = `import { exitAfterOutput } from ${JSON.stringify(PROC)};
process.stdout.write('x'.repeat(${SIZE}) + '\\nTotal: 1 passed\\n');
${exit}`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.pause();
  if (reader === 'late') setTimeout(() => child.stdout.resume(), 300);
  if (reader === 'gone') setTimeout(() => child.stdout.destroy(), 300);
  let bytes = 0;
  let tail = '';
  child.stdout.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    tail = (tail + chunk.toString('latin1')).slice(-64);
  });
  // A child that never exits fails its test (code null) instead of holding the tier open.
  const guard = setTimeout(() => child.kill('SIGKILL'), 10_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ bytes, last: tail.trim().split('\n').at(-1) ?? '', code });
    }),
  );
}

describe('scripts: the harness exits only once its output is out', () => {
  it('every byte and the last line reach a slow reader, with the exit code given', async () => {
    const out = await slowlyRead('exitAfterOutput(3);');
    assert.equal(out.code, 3);
    assert.equal(out.bytes, SIZE + '\nTotal: 1 passed\n'.length);
    assert.equal(out.last, 'Total: 1 passed');
  });

  it('a reader that went away ends the wait, with the exit code given', async () => {
    const out = await slowlyRead('exitAfterOutput(3);', 'gone');
    assert.equal(out.code, 3);
  });

  it('a reader that stopped reading is waited for only so long, then the exit code given', async () => {
    const out = await slowlyRead('exitAfterOutput(3, 200);', 'never');
    assert.equal(out.code, 3);
    assert.ok(out.bytes < SIZE, `${out.bytes} bytes arrived`);
  });

  it('process.exit in its place loses the tail here (the case this guards against)', async () => {
    const out = await slowlyRead('process.exit(3);');
    assert.equal(out.code, 3);
    assert.ok(out.bytes < SIZE, `${out.bytes} bytes arrived`);
  });
});
