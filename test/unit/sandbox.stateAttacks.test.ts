/**
 * The sandbox's state file against what a planted file could do (issue 44 item 6): the temporary
 * file is never opened through a link planted where it would be, and a state the sandbox could not
 * have written (a hostile task name, a known access token, 1e300 counters) is refused with one
 * sentence, kept aside, and the sandbox starts from its seed.
 */
import * as assert from 'node:assert/strict';
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';
import type { StateFile } from '../../src/sandbox/state/stateSchema';
import { scratchFolder } from '../shared/scratchFolder';

const HOSTILE = '[Accept](command:workbench.action.terminal.new)';

async function call<T>(
  sb: RunningSandbox,
  path: string,
  init: { body?: unknown; bearer?: string } = {},
): Promise<{ status: number; data: T }> {
  const key = sb.info.accounts[0]?.apiKey ?? '';
  const headers: Record<string, string> =
    init.bearer === undefined ? { 'x-api-key': key } : { authorization: `Bearer ${init.bearer}` };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${sb.info.baseUrl}${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, data: ((await res.json()) as { data: T }).data };
}

async function firstTask(sb: RunningSandbox): Promise<{ taskId: string; taskName: string; taskGroupId: string }> {
  const groups = (await call<{ taskGroupId: string }[]>(sb, '/taskGroup')).data;
  const group = groups[0]?.taskGroupId ?? '';
  const task = (await call<{ taskId: string; taskName: string }[]>(sb, `/task/search?taskGroupId=${group}`)).data[0];
  assert.ok(task);
  return { ...task, taskGroupId: group };
}

describe('sandbox: a planted state file (--state FILE)', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => (dir = scratchFolder('scrapedeck-state-attack-')));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a link planted where the temporary file would be (<FILE>.<pid>.tmp) is never written through; the state is written, nothing is left behind', async () => {
    const file = join(dir, 'linked-temp.json');
    const target = join(dir, 'victim.txt');
    writeFileSync(target, 'not ours');
    symlinkSync(target, `${file}.${process.pid}.tmp`);
    const sb = await startSandbox({ statePath: file, rateLimit: 0 });
    try {
      const task = await firstTask(sb);
      assert.equal((await call(sb, '/data/markexported', { body: { taskId: task.taskId } })).status, 200);
    } finally {
      await sb.close();
    }
    assert.equal(readFileSync(target, 'utf8'), 'not ours', "the link's target is untouched (no state, no token in it)");
    assert.ok(lstatSync(file).isFile(), 'the state was written');
    assert.equal(lstatSync(file).mode & 0o077, 0, 'owner-only');
    assert.deepEqual(
      readdirSync(dir).filter((n) => n.startsWith('linked-temp.json.') && n !== `linked-temp.json.${process.pid}.tmp`),
      [],
      'no temporary file left',
    );
  });

  /** A state this sandbox wrote (a copy made, a session started), changed by `plant`, then started from. */
  async function planted(
    name: string,
    plant: (state: StateFile, task: { taskId: string }) => void,
  ): Promise<{ sb: RunningSandbox; file: string }> {
    const file = join(dir, name);
    const first = await startSandbox({ statePath: file, rateLimit: 0 });
    let task: { taskId: string; taskGroupId: string };
    try {
      task = await firstTask(first);
      assert.equal((await call(first, `/task/copy?taskId=${task.taskId}`, { body: {} })).status, 200);
    } finally {
      await first.close();
    }
    const state = JSON.parse(readFileSync(file, 'utf8')) as StateFile;
    plant(state, task);
    writeFileSync(file, JSON.stringify(state));
    return { sb: await startSandbox({ statePath: file, rateLimit: 0 }), file };
  }

  function refused(sb: RunningSandbox, file: string, why: RegExp): void {
    assert.equal(sb.state?.loaded, false, 'not applied');
    assert.match(sb.state?.setAside?.reason ?? '', why);
    assert.doesNotMatch(sb.state?.setAside?.reason ?? '', /\n/, 'one sentence');
    assert.ok(existsSync(`${file}.unreadable`), 'kept aside, not lost');
  }

  it('as written by the sandbox, the same state is applied (the bounds refuse nothing of its own)', async () => {
    const { sb } = await planted('own.json', () => undefined);
    try {
      assert.equal(sb.state?.loaded, true, sb.state?.setAside?.reason);
    } finally {
      await sb.close();
    }
  });

  it('a copy with a hostile task name is refused, and the task list holds no such name', async () => {
    const { sb, file } = await planted('hostile-name.json', (state) => {
      const copy = state.copies[0];
      assert.ok(copy);
      copy.taskName = HOSTILE;
    });
    try {
      refused(sb, file, /name the sandbox did not give it/);
      const task = await firstTask(sb);
      const names = (await call<{ taskName: string }[]>(sb, `/task/search?taskGroupId=${task.taskGroupId}`)).data.map(
        (t) => t.taskName,
      );
      assert.ok(!names.includes(HOSTILE));
    } finally {
      await sb.close();
    }
  });

  it("a known access token is refused and does not open the account, whether of another shape or of the sandbox's shape with a far expiry", async () => {
    for (const [name, token, expiresAt] of [
      ['known-token.json', 'letmein', Date.now() + 60_000],
      ['far-token.json', `sat_${'A'.repeat(32)}`, 1e15],
    ] as const) {
      const { sb, file } = await planted(name, (state) => {
        state.tokens.access.push([token, { username: 'ada', expiresAt }]);
      });
      try {
        refused(sb, file, /does not parse \(tokens|expires later/);
        assert.equal((await call(sb, '/taskGroup', { bearer: token })).status, 401, `${token} opens nothing`);
      } finally {
        await sb.close();
      }
    }
  });

  it('1e300 counters are refused', async () => {
    const { sb, file } = await planted('huge.json', (state, task) => {
      state.copyCount = 1e300;
      state.runtimes[task.taskId] = {
        executedTimes: 1e300,
        lots: [],
        rowEnd: 1e300,
        visibleStart: 0,
        exportedUpTo: 1e300,
        pendingUpTo: 1e300,
      };
    });
    try {
      refused(sb, file, /does not parse/);
      assert.equal((await call<unknown[]>(sb, '/taskGroup')).status, 200, 'the sandbox answers from its seed');
    } finally {
      await sb.close();
    }
  });
});
