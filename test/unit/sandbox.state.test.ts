/**
 * The sandbox keeps its state across a restart (issue 28 item 6): `--state FILE` is written after
 * each change, atomically, so a sandbox killed mid-way (SIGKILL, in the middle of a pull: rows
 * handed out, not yet marked) restarts with the same marks, runs, loop items, copies, moves,
 * deprecations and sessions. A file that cannot be used is kept aside, never lost.
 */
import * as assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { type SandboxInfo, sandboxInfoSchema } from '../../src/sandbox/seed/info';
import { startSandbox } from '../../src/sandbox/server';
import { scratchFolder } from '../shared/scratchFolder';

const MAIN = join(__dirname, '..', '..', 'src', 'sandbox', 'main.js');

interface Proc {
  child: ChildProcessWithoutNullStreams;
  info: SandboxInfo;
  stderr: () => string;
}

async function launch(args: string[]): Promise<Proc> {
  const child = spawn(process.execPath, [MAIN, '--port', '0', '--json', '--rate-limit', '0', '--quiet', ...args]);
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const end = Date.now() + 40_000;
  // The info line on stdout, then (with --state) what became of the file, on stderr.
  while (!out.includes('\n') || (args.includes('--state') && !/sandbox: (state|the state file)/.test(err))) {
    if (Date.now() > end || child.exitCode !== null) throw new Error(`the sandbox did not start: ${err}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { child, info: sandboxInfoSchema.parse(JSON.parse(out.split('\n')[0] as string)), stderr: () => err };
}

async function kill(p: Proc): Promise<void> {
  const exited = new Promise((r) => p.child.once('exit', r));
  p.child.kill('SIGKILL'); // no shutdown handler runs: what is on disk is all there is
  await exited;
}

describe('sandbox: state across a restart (--state FILE)', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => (dir = scratchFolder('scrapedeck-state-')));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("killed mid-way and started again with the same file: marks, a pull's handed-out rows, runs, loop items, copies, moves, deprecations and sessions are there", async () => {
    const file = join(dir, 'state.json');
    // A run of a day: "still under way" after the restart then holds however long a loaded
    // machine takes to kill and start the sandbox (a 35 s run could end within a slow restart).
    const args = ['--state', file, '--run-seconds', '86400'];
    let p = await launch(args);
    const ada = p.info.accounts[0] as SandboxInfo['accounts'][number];
    const call = async <T>(
      path: string,
      body?: unknown,
      headers: Record<string, string> = { 'x-api-key': ada.apiKey },
    ): Promise<{ status: number; data: T }> => {
      const res = await fetch(`${p.info.baseUrl}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as { data: T };
      return { status: res.status, data: json.data };
    };
    const groups = (await call<{ taskGroupId: string; taskGroupName: string }[]>('/taskGroup')).data;
    const search = async (g: { taskGroupId: string }) =>
      (await call<{ taskId: string; taskName: string }[]>(`/task/search?taskGroupId=${g.taskGroupId}`)).data;
    const [g0, g1, drafts] = [groups[0], groups[1], groups.find((g) => g.taskGroupName === 'Drafts')] as {
      taskGroupId: string;
      taskGroupName: string;
    }[];
    const tasks = await search(g0 as { taskGroupId: string });
    const withNew = [];
    for (const t of tasks.slice(0, 10))
      if ((await call<{ total: number }>(`/data/notexported?taskId=${t.taskId}&size=1`)).data.total > 3)
        withNew.push(t.taskId);
    const [marked, pulling, runner] = withNew as [string, string, string];
    assert.ok(runner, 'three tasks with new rows');

    // Marks: hand out all new rows of one task and mark them; hand out 3 rows of another (a pull under way).
    await call(`/data/notexported?taskId=${marked}&size=1000`);
    assert.equal((await call('/data/markexported', { taskId: marked })).status, 200);
    const handedOut = (await call<{ data: unknown[] }>(`/data/notexported?taskId=${pulling}&size=3`)).data.data;
    // A run, loop items, a copy moved to Drafts, a deprecation, a password session.
    const started = (await call<{ lotNo: string }>('/cloudextraction/start', { taskId: runner })).data;
    const loop = (
      await call<{ actions: { actionId: string; loopType: string }[] }[]>('/task/getActions', {
        taskIds: [runner],
        actionTypes: ['LoopAction'],
      })
    ).data[0]?.actions[0] as { actionId: string; loopType: string };
    const items =
      loop.loopType === 'URLList' ? ['https://kept.example/1', 'https://kept.example/2'] : ['kept one', 'kept two'];
    assert.equal(
      (
        await call('/task/updateLoopItems', {
          taskId: runner,
          actionId: loop.actionId,
          loopType: loop.loopType,
          loopItems: items,
          isAppend: false,
        })
      ).status,
      200,
    );
    const copy = (await call<{ taskId: string; taskName: string }>(`/task/copy?taskId=${tasks[0]?.taskId ?? ''}`, {}))
      .data;
    assert.equal(
      (await call(`/task/moveToGroup?taskId=${copy.taskId}&taskGroupId=${drafts?.taskGroupId ?? ''}`, {})).status,
      200,
    );
    const moved = (await search(g1 as { taskGroupId: string }))[0] as { taskId: string };
    assert.equal(
      (await call(`/task/moveToGroup?taskId=${moved.taskId}&taskGroupId=${drafts?.taskGroupId ?? ''}`, {})).status,
      200,
    );
    assert.equal(
      (
        await call(
          `${p.info.datahubUrl.replace(p.info.baseUrl, '')}/v1/data-apps/ada%2Fnews-digest/deprecate`,
          {},
          { authorization: `Bearer ${ada.apiKey}` },
        )
      ).status,
      200,
    );
    const session = (
      await call<{ access_token: string; refresh_token: string }>(
        '/token',
        { username: ada.username, password: ada.password, grant_type: 'password' },
        {},
      )
    ).data;
    const before = {
      markedNew: (await call<{ total: number }>(`/data/notexported?taskId=${marked}&size=1`)).data.total,
      status: (await call<{ executedTimes: number }[]>('/cloudextraction/statuses/v2', { taskIds: [runner] })).data[0]
        ?.executedTimes,
      draftIds: (await search(drafts as { taskGroupId: string })).map((t) => t.taskId),
    };
    assert.deepEqual(before.draftIds, [copy.taskId, moved.taskId]);
    assert.ok(statSync(file).isFile());
    assert.equal(statSync(file).mode & 0o777, 0o600, "owner only: it holds the sandbox's tokens");
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.endsWith('.tmp')),
      [],
      'no temporary file left',
    );

    await kill(p);
    p = await launch(args);
    assert.match(p.stderr(), /state restored from/);

    assert.equal(
      (await call<{ total: number }>(`/data/notexported?taskId=${marked}&size=1`)).data.total,
      before.markedNew,
      'the marks are kept',
    );
    const again = (await call<{ data: unknown[] }>(`/data/notexported?taskId=${pulling}&size=3`)).data.data;
    assert.deepEqual(again, handedOut, 'the rows a pull had handed out come again: it can recover');
    assert.equal((await call('/data/markexported', { taskId: pulling })).status, 200);
    const status = (
      await call<{ executedTimes: number; status: string }[]>('/cloudextraction/statuses/v2', { taskIds: [runner] })
    ).data[0];
    assert.equal(status?.executedTimes, before.status, 'the run is there');
    assert.match(status?.status ?? '', /^(Waiting|Extracting)$/, 'still under way');
    assert.equal(
      (await call<{ total: number }>(`/data/lotno/all?taskId=${runner}&lotno=${started.lotNo}&offset=0&size=10`))
        .status,
      200,
      'its lot too',
    );
    const after = (
      await call<{ actions: { actionId: string; loopItems: string[] }[] }[]>('/task/getActions', {
        taskIds: [runner],
        actionTypes: ['LoopAction'],
      })
    ).data[0]?.actions.find((a) => a.actionId === loop.actionId);
    assert.deepEqual(after?.loopItems, items, 'the loop items are kept');
    assert.deepEqual(
      (await search(drafts as { taskGroupId: string })).map((t) => t.taskId),
      before.draftIds,
      'the copy and the moves are kept',
    );
    assert.ok(!(await search(g1 as { taskGroupId: string })).some((t) => t.taskId === moved.taskId));
    assert.equal(
      (await call<unknown[]>('/taskGroup', undefined, { authorization: `Bearer ${session.access_token}` })).status,
      200,
      'a session survives the restart',
    );
    const copyAgain = (await call<{ taskId: string }>(`/task/copy?taskId=${tasks[0]?.taskId ?? ''}`, {})).data;
    assert.notEqual(copyAgain.taskId, copy.taskId, 'a new copy gets a new id');
    await kill(p);
  });

  it('a file that cannot be used is kept aside and the sandbox starts from the seed; a symbolic link is never written through', async () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{"version": 1, "nonsense": ');
    const sb = await startSandbox({ statePath: file, rateLimit: 0 });
    try {
      assert.equal(sb.state?.loaded, false);
      assert.match(sb.state?.setAside?.reason ?? '', /JSON|parse/i);
      assert.equal(readFileSync(`${file}.unreadable`, 'utf8'), '{"version": 1, "nonsense": ', 'nothing lost');
      assert.ok(!existsSync(file), 'not used');
    } finally {
      await sb.close();
    }
    const other = join(dir, 'other-seed.json');
    const seeded = await startSandbox({ statePath: other, rateLimit: 0, seed: 5 });
    const key = seeded.info.accounts[0]?.apiKey ?? '';
    const groups = (await (
      await fetch(`${seeded.info.baseUrl}/taskGroup`, { headers: { 'x-api-key': key } })
    ).json()) as { data: { taskGroupId: string }[] };
    const task = (
      (await (
        await fetch(`${seeded.info.baseUrl}/task/search?taskGroupId=${groups.data[0]?.taskGroupId ?? ''}`, {
          headers: { 'x-api-key': key },
        })
      ).json()) as { data: { taskId: string }[] }
    ).data[0];
    await fetch(`${seeded.info.baseUrl}/data/markexported`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ taskId: task?.taskId }),
    });
    await seeded.close();
    const mismatch = await startSandbox({ statePath: other, rateLimit: 0, seed: 6 });
    assert.match(mismatch.state?.setAside?.reason ?? '', /another seed \(5, now 6\)/);
    await mismatch.close();

    const target = join(dir, 'elsewhere.json');
    writeFileSync(target, 'not ours');
    const link = join(dir, 'link.json');
    symlinkSync(target, link);
    const linked = await startSandbox({ statePath: link, rateLimit: 0 });
    assert.match(linked.state?.setAside?.reason ?? '', /symbolic link/);
    await linked.close();
    assert.equal(readFileSync(target, 'utf8'), 'not ours', "the link's target is untouched");
  });
});
