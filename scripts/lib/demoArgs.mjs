// The demo's (`npm start`) options: its own (below, `DEMO_OPTIONS`), and for its sandbox:
// `--sandbox-<option> [value]` passes `--<option> [value]` to the sandbox, and everything after a
// bare `--sandbox` is passed as it is (`npm start -- --sandbox --big-task-rows 60000 --run-seconds 20`).
// The sandbox checks its options itself (src/sandbox/main.ts); the few the demo sets are refused
// here, with the reason. An option the demo does not know is refused too (it was dropped silently:
// `--big-task-rows 60000` without `--sandbox` did nothing), naming the form that was likely meant.

/** The demo's own options: whether each takes a value, and what it does (`--help` prints these). */
const DEMO_OPTIONS = new Map([
  ['--port', { value: 'N', help: "code-server's port (default 8080, or the next free one)" }],
  ['--desktop', { help: 'launch VS Code desktop (`code` on PATH) instead, with the same settings' }],
  ['--smoke', { help: 'start everything, check that Scrapedeck activates, print the phase times, stop' }],
  ['--fresh', { help: 'start the sandbox from its seed (the kept state is moved aside, not deleted)' }],
  ['--help', { help: 'print these options and exit' }],
]);

/** What `npm start -- --help` prints. */
export function demoUsage() {
  const lines = ['usage: npm start -- [options]', '', 'Options of the demo:'];
  for (const [name, o] of DEMO_OPTIONS) {
    const left = o.value === undefined ? name : `${name} ${o.value}`;
    lines.push(`  ${left.padEnd(30)}${o.help}`);
  }
  lines.push(
    '',
    'Options for its sandbox (`npm run sandbox -- --help` lists them; docs/manual/sandbox.md):',
    `  ${'--sandbox-<option> [value]'.padEnd(30)}passes --<option> [value] to the sandbox`,
    `  ${'--sandbox <options…>'.padEnd(30)}passes everything after it to the sandbox as it is`,
    '',
    'e.g. npm start -- --fresh --sandbox --big-task-rows 60000 --run-seconds 20',
  );
  return lines.join('\n');
}

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
 * sentence when an option is unknown or cannot be passed on, `help` when `--help` (or `-h`) is
 * among the demo's own (it wins over a problem: the user is asking how).
 * @param {readonly string[]} argv
 * @returns {{ demo: string[], sandbox: string[], problem?: string, help?: true }}
 */
export function splitDemoArgs(argv) {
  const demo = [];
  const sandbox = [];
  let unknown;
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
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    if (!DEMO_OPTIONS.has(name) && name !== '-h') unknown ??= arg;
    else if (DEMO_OPTIONS.get(name)?.value !== undefined && !arg.includes('=') && i + 1 < argv.length)
      demo.push(argv[++i]);
  }
  if (demo.includes('--help') || demo.includes('-h')) return { demo, sandbox, help: true };
  if (unknown !== undefined) return { demo, sandbox, problem: unknownProblem(unknown) };
  for (const arg of sandbox) {
    const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
    const why = DEMO_OWNS.get(name);
    if (why !== undefined) return { demo, sandbox, problem: `${name} cannot be passed to the demo's sandbox: ${why}.` };
  }
  return { demo, sandbox };
}

/** One sentence for an argument the demo does not know, naming the form that was likely meant. */
function unknownProblem(arg) {
  if (!arg.startsWith('--'))
    return `${arg} is not an option of the demo: an option starts with -- (npm start -- --help lists them).`;
  const name = arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
  return `${name} is not an option of the demo: for its sandbox write --sandbox-${name.slice(2)} (or put it after --sandbox); npm start -- --help lists the demo's options.`;
}
