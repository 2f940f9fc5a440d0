/**
 * `npm start` passes options to its sandbox (issue 48 item 12): `--sandbox-<option> [value]` and
 * everything after a bare `--sandbox`; the options the demo sets itself are refused with the reason.
 */
import * as assert from 'node:assert/strict';

import { importScriptLib } from './helpers/scriptLib';

type Split = { demo: string[]; sandbox: string[]; problem?: string; help?: true };
let splitDemoArgs: (argv: readonly string[]) => Split;
let demoUsage: () => string;

describe('scripts: the demo passes options to its sandbox', function () {
  before(async () => {
    ({ splitDemoArgs, demoUsage } = await importScriptLib<{
      splitDemoArgs: typeof splitDemoArgs;
      demoUsage: typeof demoUsage;
    }>('demoArgs.mjs'));
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

  it("--help (or -h) asks for the options, whatever else is there; they name the demo's and how to pass the sandbox's", () => {
    assert.equal(splitDemoArgs(['--help']).help, true);
    assert.equal(splitDemoArgs(['--fresh', '-h']).help, true);
    assert.equal(splitDemoArgs(['--bogus', '--help']).help, true, 'asking how wins over a mistake');
    assert.equal(splitDemoArgs(['--sandbox', '--help']).help, undefined, "after --sandbox it is the sandbox's");
    const usage = demoUsage();
    for (const option of ['--port N', '--desktop', '--smoke', '--fresh', '--help', '--sandbox-<option>', '--sandbox '])
      assert.ok(usage.includes(option), option);
  });

  it('an option the demo does not know is refused in one sentence naming the form likely meant', () => {
    assert.deepEqual(
      splitDemoArgs(['--big-task-rows', '60000']).problem,
      "--big-task-rows is not an option of the demo: for its sandbox write --sandbox-big-task-rows (or put it after --sandbox); npm start -- --help lists the demo's options.",
    );
    assert.match(splitDemoArgs(['--run-seconds=5']).problem ?? '', /^--run-seconds is not .* --sandbox-run-seconds /);
    assert.match(splitDemoArgs(['60000']).problem ?? '', /^60000 is not an option of the demo: .+\.$/);
    assert.deepEqual(
      splitDemoArgs(['--port', '9000', '--port=9001', '--desktop', '--smoke', '--fresh']),
      {
        demo: ['--port', '9000', '--port=9001', '--desktop', '--smoke', '--fresh'],
        sandbox: [],
      },
      "the demo's own options, a value after --port included, are not refused",
    );
  });
});
