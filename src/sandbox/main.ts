/**
 * `npm run sandbox -- [--port N] [--host H] [--json] [--token-ttl S] [--rate-limit N] [--faults RATE] [--seed N]
 *   [--run-seconds S] [--queue-seconds S] [--task-clock NAME=Q/S]... [--big-task-rows N] [--extra-tasks N] [--subtask-path both|colon|slash]
 *   [--never-run-as-stopped] [--state FILE]`
 * --state FILE keeps what users change (marks, runs, loop items, copies, moves…) across restarts.
 * With --json the first stdout line is the SandboxInfo as one JSON object (for harnesses); request
 * logs go to stderr so stdout stays machine-readable.
 */
import { errorMessage } from '../api/errors/errors';
import type { SandboxInfo } from './seed/info';
import { DEFAULTS, type SandboxOptions, startSandbox } from './server';

const USAGE = `usage: sandbox [--port N] [--host 127.0.0.1] [--json] [--token-ttl SECONDS] [--rate-limit N] [--faults RATE] [--seed N]
               [--run-seconds SECONDS] [--queue-seconds SECONDS] [--task-clock "TASK NAME=QUEUED/RUNNING"]...
               [--big-task-rows N] [--extra-tasks N]
               [--subtask-path both|colon|slash] [--never-run-as-stopped] [--state FILE] [--quiet]`;

interface Cli {
  options: SandboxOptions;
  json: boolean;
  quiet: boolean;
}

function fail(message: string): never {
  console.error(`sandbox: ${message}\n${USAGE}`);
  process.exit(2);
}

function number(flag: string, text: string | undefined, check: (n: number) => boolean): number {
  const n = Number(text);
  if (text === undefined || text.trim() === '' || !Number.isFinite(n) || !check(n))
    fail(`${flag} needs a valid number (got ${text ?? 'nothing'})`);
  return n;
}

export function parseArgs(argv: string[]): Cli {
  const cli: Cli = { options: {}, json: false, quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    const [name, inline] = flag.includes('=')
      ? [flag.slice(0, flag.indexOf('=')), flag.slice(flag.indexOf('=') + 1)]
      : [flag, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    switch (name) {
      case '--json':
        cli.json = true;
        break;
      case '--quiet':
        cli.quiet = true;
        break;
      case '--port':
        cli.options.port = number(name, value(), (n) => Number.isInteger(n) && n >= 0 && n <= 65535);
        break;
      case '--host':
        cli.options.host = value() ?? fail('--host needs a value');
        break;
      case '--token-ttl':
        cli.options.tokenTtlSeconds = number(name, value(), (n) => Number.isInteger(n) && n > 0);
        break;
      case '--rate-limit':
        cli.options.rateLimit = number(name, value(), (n) => Number.isInteger(n) && n >= 0);
        break;
      case '--faults':
        cli.options.faults = number(name, value(), (n) => n >= 0 && n <= 1);
        break;
      case '--seed':
        cli.options.seed = number(name, value(), (n) => Number.isInteger(n));
        break;
      case '--run-seconds':
        cli.options.runSeconds = number(name, value(), (n) => n > 0 && n <= 86_400);
        break;
      case '--task-clock': {
        // "NAME=QUEUED/RUNNING": a run of that task (by name) waits and extracts this many seconds
        // instead of --queue-seconds and --run-seconds; the flag can be given again.
        const v = value() ?? '';
        const at = v.lastIndexOf('=');
        const [queued, running] = v.slice(at + 1).split('/');
        if (at <= 0 || running === undefined)
          fail(`--task-clock needs "TASK NAME=QUEUED/RUNNING" in seconds (got ${v || 'nothing'})`);
        const clock = {
          queueSeconds: number(name, queued, (n) => n >= 0 && n <= 3600),
          runSeconds: number(name, running, (n) => n > 0 && n <= 86_400),
        };
        cli.options.clockByTask = { ...cli.options.clockByTask, [v.slice(0, at)]: clock };
        break;
      }
      case '--queue-seconds':
        cli.options.queueSeconds = number(name, value(), (n) => n >= 0 && n <= 3600);
        break;
      case '--never-run-as-stopped':
        cli.options.neverRun = 'stopped';
        break;
      case '--state':
        cli.options.statePath = value() ?? fail('--state needs a file');
        break;
      case '--big-task-rows':
        cli.options.bigTaskRows = number(name, value(), (n) => Number.isInteger(n) && n >= 0 && n <= 100_000_000);
        break;
      case '--extra-tasks':
        cli.options.extraTasks = number(name, value(), (n) => Number.isInteger(n) && n >= 0 && n <= 100_000);
        break;
      case '--subtask-path': {
        const v = value();
        if (v !== 'both' && v !== 'colon' && v !== 'slash')
          fail(`--subtask-path needs both, colon or slash (got ${v ?? 'nothing'})`);
        cli.options.subtaskSpelling = v;
        break;
      }
      case '--help':
      case '-h':
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        fail(`unknown option ${flag}`);
    }
  }
  return cli;
}

function banner(info: SandboxInfo, options: SandboxOptions): string {
  const lines = [
    'Scrapedeck sandbox is running (seeded test data; nothing leaves this machine).',
    `  base URL:    ${info.baseUrl}`,
    `  datahub URL: ${info.datahubUrl}`,
    `  rate limit:  ${options.rateLimit ?? DEFAULTS.rateLimit}/s per credential · token TTL ${options.tokenTtlSeconds ?? DEFAULTS.tokenTtlSeconds}s · faults ${options.faults ?? 0} · seed ${options.seed ?? DEFAULTS.seed}`,
    `  runs:        ${options.queueSeconds ?? DEFAULTS.queueSeconds}s queued, then ${options.runSeconds ?? DEFAULTS.runSeconds}s each${options.bigTaskRows ? ` · big task ${options.bigTaskRows.toLocaleString('en-US')} rows` : ''}${options.extraTasks ? ` · ${options.extraTasks} extra tasks` : ''}`,
    '  accounts:',
  ];
  for (const a of info.accounts) {
    lines.push(`    ${a.username.padEnd(8)} ${a.plan.padEnd(12)} password ${a.password}   API key ${a.apiKey}`);
    lines.push(`             team: ${a.team.join(', ')}   apps: ${a.apps.join(', ')}`);
  }
  lines.push('  Press Ctrl-C to stop.');
  return lines.join('\n');
}

async function main(): Promise<void> {
  const cli = parseArgs(process.argv.slice(2));
  const sandbox = await startSandbox({
    ...cli.options,
    log: cli.quiet ? undefined : (line) => process.stderr.write(`${line}\n`),
  });
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void sandbox.close().then(() => process.exit(0));
  };
  // Before the banner: a pipe write is synchronous, and a harness that stops the sandbox as soon
  // as it reads the banner must find the handlers there (without them a signal kills the process).
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.stdout.write(`${cli.json ? JSON.stringify(sandbox.info) : banner(sandbox.info, cli.options)}\n`);
  // On stderr: stdout's first line stays the info for harnesses.
  const kept = sandbox.state;
  if (kept?.setAside)
    process.stderr.write(
      `sandbox: the state file could not be used (${kept.setAside.reason}); it was kept as ${kept.setAside.movedTo} and the sandbox starts from the seed\n`,
    );
  else if (kept !== undefined)
    process.stderr.write(
      `sandbox: state ${kept.loaded ? 'restored from' : 'will be kept in'} ${cli.options.statePath ?? ''}\n`,
    );
}

main().catch((err: unknown) => {
  console.error(`sandbox: ${errorMessage(err)}`);
  process.exit(1);
});
