// The demo's (`npm start`) options for its sandbox: `--sandbox-<option> [value]` passes
// `--<option> [value]` to the sandbox, and everything after a bare `--sandbox` is passed as it is
// (`npm start -- --sandbox --big-task-rows 60000 --run-seconds 20`). The sandbox checks the
// options itself (src/sandbox/main.ts); the few the demo sets are refused here, with the reason.

/** Options the demo chooses for its sandbox: the address it reads, its JSON line, its kept state. */
const DEMO_OWNS = new Map([
  ['--port', 'the demo picks a free port for its sandbox'],
  ['--host', 'the sandbox listens on 127.0.0.1 only'],
  ['--json', 'the demo reads the sandbox’s JSON line itself'],
  ['--state', 'the demo keeps its sandbox’s state in its cache (use --fresh to start from the seed)'],
]);

/** Options of the sandbox that take no value (`--sandbox-<flag>` is then followed by the next demo option). */
const SANDBOX_FLAGS = new Set(['--never-run-as-stopped', '--quiet']);

/**
 * Splits the demo's arguments: `demo` are its own, `sandbox` go to the sandbox, `problem` is one
 * sentence when an option cannot be passed on.
 * @param {readonly string[]} argv
 * @returns {{ demo: string[], sandbox: string[], problem?: string }}
 */
export function splitDemoArgs(argv) {
  const demo = [];
  const sandbox = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--sandbox') {
      sandbox.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('--sandbox-')) {
      const option = `--${arg.slice('--sandbox-'.length)}`;
      const name = option.includes('=') ? option.slice(0, option.indexOf('=')) : option;
      sandbox.push(option);
      if (!option.includes('=') && !SANDBOX_FLAGS.has(name) && i + 1 < argv.length && !argv[i + 1].startsWith('--'))
        sandbox.push(argv[++i]);
      continue;
    }
    demo.push(arg);
  }
  for (const arg of sandbox) {
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    const why = DEMO_OWNS.get(name);
    if (why !== undefined) return { demo, sandbox, problem: `${name} cannot be passed to the demo's sandbox: ${why}.` };
  }
  return { demo, sandbox };
}
