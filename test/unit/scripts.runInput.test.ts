/**
 * npm test starts the journey's stage before its turn (scripts/test-all.mjs): proc.mjs's `run`
 * holds its output while `quiet` says so and writes `input` to its stdin only when that resolves,
 * which is how the stage is told to go (test-e2e.mjs --wait-for-go).
 */
import * as assert from 'node:assert/strict';

import { importScriptLib } from './helpers/scriptLib';

interface ProcLib {
  run(
    cmd: string,
    args: string[],
    options: { capture?: string[]; quiet?: boolean | (() => boolean); input?: Promise<string> },
  ): Promise<number>;
}

// Prints "ready", then echoes what stdin says once it ends.
const ECHO = `process.stdout.write('ready\\n'); let t = ''; process.stdin.on('data', (c) => (t += c));
process.stdin.on('end', () => { process.stdout.write('got ' + t.trim() + '\\n'); });`;

describe('scripts: run writes its input to the command only when the input is ready', () => {
  let lib: ProcLib;
  before(async () => {
    lib = await importScriptLib<ProcLib>('proc.mjs');
  });

  it('the command waits for its input; what it printed before is captured, held back while quiet', async () => {
    const capture: string[] = [];
    let give = (_: string): void => {};
    const input = new Promise<string>((resolve) => (give = resolve));
    const done = lib.run(process.execPath, ['-e', ECHO], { capture, quiet: () => true, input });
    // The command has started and said so, and waits: nothing on stdin yet.
    for (let i = 0; i < 400 && !capture.join('').includes('ready'); i++) await new Promise((r) => setTimeout(r, 25));
    assert.equal(capture.join(''), 'ready\n');
    give('go\n');
    assert.equal(await done, 0);
    assert.equal(capture.join(''), 'ready\ngot go\n');
  });
});
