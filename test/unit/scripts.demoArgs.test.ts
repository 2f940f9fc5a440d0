/**
 * `npm start` passes options to its sandbox (issue 48 item 12): `--sandbox-<option> [value]` and
 * everything after a bare `--sandbox`; the options the demo sets itself are refused with the reason.
 */
import * as assert from 'node:assert/strict';

import { importScriptLib } from './helpers/scriptLib';

type Split = { demo: string[]; sandbox: string[]; problem?: string };
let splitDemoArgs: (argv: readonly string[]) => Split;

describe('scripts: the demo passes options to its sandbox', function () {
  before(async () => {
    ({ splitDemoArgs } = await importScriptLib<{ splitDemoArgs: typeof splitDemoArgs }>('demoArgs.mjs'));
  });

  it("--sandbox-<option> with its value, among the demo's own options", () => {
    assert.deepEqual(
      splitDemoArgs(['--port', '9000', '--sandbox-big-task-rows', '60000', '--fresh', '--sandbox-run-seconds=20']),
      {
        demo: ['--port', '9000', '--fresh'],
        sandbox: ['--big-task-rows', '60000', '--run-seconds=20'],
      },
    );
  });

  it("a flag of the sandbox takes no value; the next demo option stays the demo's", () => {
    assert.deepEqual(splitDemoArgs(['--sandbox-never-run-as-stopped', '--desktop']), {
      demo: ['--desktop'],
      sandbox: ['--never-run-as-stopped'],
    });
  });

  it('everything after a bare --sandbox goes to the sandbox as it is', () => {
    assert.deepEqual(splitDemoArgs(['--fresh', '--sandbox', '--big-task-rows', '60000', '--queue-seconds', '0']), {
      demo: ['--fresh'],
      sandbox: ['--big-task-rows', '60000', '--queue-seconds', '0'],
    });
  });

  it('what the demo sets itself is refused, in one sentence naming it', () => {
    for (const argv of [
      ['--sandbox-port', '1'],
      ['--sandbox', '--state', 'x.json'],
      ['--sandbox-json'],
      ['--sandbox-host=0.0.0.0'],
    ]) {
      const { problem } = splitDemoArgs(argv);
      assert.match(
        problem ?? '',
        /^--(port|state|json|host) cannot be passed to the demo's sandbox: .+\.$/,
        argv.join(' '),
      );
    }
  });

  it('nothing for the sandbox: its arguments are empty', () => {
    assert.deepEqual(splitDemoArgs(['--smoke']), { demo: ['--smoke'], sandbox: [] });
  });
});
