import * as assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';

import { type SandboxInfo, sandboxInfoSchema } from '../../src/sandbox/seed/info';

// tsc puts this file in out/test/unit and the CLI in out/src/sandbox.
const MAIN = join(__dirname, '..', '..', 'src', 'sandbox', 'main.js');

interface Proc {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

function run(args: string[]): Proc {
  const child = spawn(process.execPath, [MAIN, ...args]);
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exit };
}

// A safety net, not a measure: a child started on a loaded machine can take many seconds to seed.
async function until(check: () => boolean, ms = 40_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('sandbox: command line', function () {
  it('--json: the first stdout line is the info; logs go to stderr without secrets; SIGTERM exits 0', async () => {
    const p = run(['--port', '0', '--json', '--seed', '1', '--rate-limit', '0']);
    try {
      await until(() => p.stdout().includes('\n'));
      const info: SandboxInfo = sandboxInfoSchema.parse(JSON.parse(p.stdout().split('\n')[0] as string));
      const ada = info.accounts[0] as SandboxInfo['accounts'][number];
      const tokenReply = await fetch(`${info.baseUrl}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: ada.username, password: ada.password, grant_type: 'password' }),
      });
      const token = ((await tokenReply.json()) as { data: { access_token: string; refresh_token: string } }).data;
      await fetch(`${info.baseUrl}/taskGroup?secret=${ada.apiKey}`, { headers: { 'x-api-key': ada.apiKey } });
      await fetch(`${info.baseUrl}/taskGroup`, { headers: { authorization: `Bearer ${token.access_token}` } });
      await fetch(`${info.baseUrl}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refresh_token: token.refresh_token, grant_type: 'refresh_token' }),
      });
      await fetch(`${info.datahubUrl}/v1/data-apps/ada%2Fnews-digest/deprecate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ada.apiKey}` },
      });
      await until(() => p.stderr().split('\n').length > 5);
      const log = p.stderr();
      assert.match(log, /^POST \/token 200 \d+ms [0-9a-f-]{36}$/m);
      assert.match(log, /^GET \/taskGroup 200 \d+ms /m);
      assert.match(log, /^POST \/datahub\/v1\/data-apps\/ada%2Fnews-digest\/deprecate 200 /m);
      for (const secret of [ada.apiKey, ada.password, token.access_token, token.refresh_token, 'secret=']) {
        assert.ok(!log.includes(secret), 'no secret in the request log');
      }
      assert.equal(p.stdout().trim().split('\n').length, 1, 'stdout stays one JSON line');
      p.child.kill('SIGTERM');
      assert.equal(await p.exit, 0);
    } finally {
      p.child.kill('SIGKILL');
    }
  });

  it('without --json: a banner with the same facts; SIGINT exits 0', async () => {
    const p = run(['--port', '0']);
    try {
      await until(() => p.stdout().includes('Ctrl-C'));
      const out = p.stdout();
      assert.match(out, /base URL: +http:\/\/127\.0\.0\.1:\d+/);
      assert.match(out, /datahub URL: +http:\/\/127\.0\.0\.1:\d+\/datahub/);
      for (const name of ['ada', 'grace', 'linus', 'fiona', 'Professional', 'sdk_', 'ada/news-digest'])
        assert.ok(out.includes(name), name);
      p.child.kill('SIGINT');
      assert.equal(await p.exit, 0);
    } finally {
      p.child.kill('SIGKILL');
    }
  });

  it('a bad flag exits 2 with usage', async () => {
    for (const args of [
      ['--nope'],
      ['--port', 'x'],
      ['--faults', '2'],
      ['--run-seconds', '0'],
      ['--big-task-rows', '-1'],
      ['--extra-tasks', '1.5'],
    ]) {
      const p = run(args);
      assert.equal(await p.exit, 2, args.join(' '));
      assert.match(p.stderr(), /usage: sandbox/);
    }
  });

  it('--run-seconds, --big-task-rows and --extra-tasks: in the banner, and the demo account gets the Benchmarks group', async () => {
    const p = run(['--port', '0', '--run-seconds', '5', '--big-task-rows', '2500', '--extra-tasks', '3', '--quiet']);
    try {
      await until(() => p.stdout().includes('Ctrl-C'));
      const out = p.stdout();
      assert.match(out, /runs: +5s queued, then 5s each · big task 2,500 rows · 3 extra tasks/);
      const key = /ada +Professional +password \S+ +API key (\S+)/.exec(out)?.[1] ?? '';
      const baseUrl = /base URL: +(\S+)/.exec(out)?.[1] ?? '';
      const groups = (
        (await (await fetch(`${baseUrl}/taskGroup`, { headers: { 'x-api-key': key } })).json()) as {
          data: { taskGroupId: string; taskGroupName: string }[];
        }
      ).data;
      const bench = groups.find((g) => g.taskGroupName === 'Benchmarks');
      assert.ok(bench, 'a Benchmarks group');
      const tasks = (
        (await (
          await fetch(`${baseUrl}/task/search?taskGroupId=${bench.taskGroupId}`, { headers: { 'x-api-key': key } })
        ).json()) as { data: { taskName: string }[] }
      ).data;
      assert.deepEqual(
        tasks.map((t) => t.taskName),
        ['Big export (2,500 rows)', 'Bulk task 0001', 'Bulk task 0002', 'Bulk task 0003'],
      );
      p.child.kill('SIGTERM');
      assert.equal(await p.exit, 0);
    } finally {
      p.child.kill('SIGKILL');
    }
  });
});
