/**
 * Runs an agent starts through the MCP server (another process) reach this window's runs: the
 * server appends a notice before and after each start or stop request to the file VS Code's
 * provider named, and the extension host's reader hands the new ones to runs' hook. Here the
 * real server (out/src/mcp.js over stdio, SDK client) against a sandbox, and the reader on its own:
 * half-written lines, lines that are not notices, a file started again, nothing replayed.
 */
import * as assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import type { Account } from '../../src/account/clientHolder';
import { readMcpEnv } from '../../src/agents/mcpEnv';
import { RunNoticeFollower } from '../../src/agents/runNoticeFollower';
import { NoticeReader, noticeWriter } from '../../src/agents/runNotices';
import type { RunHook } from '../../src/agents/tool';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';
import { clientFor } from './helpers/agents';
import { startMcpSession } from './helpers/mcpSession';

const SERVER = path.resolve(__dirname, '..', '..', '..', 'out', 'src', 'mcp.js');

/** A RunHook that writes down what it is told. */
function recorder(): RunHook & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    before: (verb, task) => seen.push(`before ${verb} ${task.taskId} ${task.taskName}`),
    after: (verb, taskId, result) =>
      seen.push(`after ${verb} ${taskId} ${result.ok ? `ok ${result.lotNo ?? 'no lot'}` : 'failed'}`),
  };
}

describe('agents: runs started through the MCP server reach this window (notices file)', function () {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-notices-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('the real server tells of a start it was asked for: before the request, then its lot', async () => {
    const sandbox: RunningSandbox = await startSandbox({ rateLimit: 0, seed: 11, runSeconds: 600, queueSeconds: 0 });
    const ada = clientFor(sandbox, 'ada');
    const file = path.join(dir, 'ada.jsonl');
    const hook = recorder();
    const reader = new NoticeReader(file, hook);
    try {
      const group = (await ada.listTaskGroups()).data[0];
      assert.ok(group);
      const task = (await ada.searchTasks(group.taskGroupId)).data[0];
      assert.ok(task);
      const apiKey = sandbox.info.accounts.find((a) => a.username === 'ada')?.apiKey ?? '';
      const env = {
        SCRAPEDECK_API_KEY: apiKey,
        SCRAPEDECK_BASE_URL: sandbox.info.baseUrl,
        SCRAPEDECK_RUN_NOTICES: file,
      };
      const session = await startMcpSession(SERVER, env, { args: ['--allow-changes'] });
      try {
        const reply = await session.call('scrapedeck_start_run', { task: task.taskId });
        assert.equal(reply.isError, false, reply.text);
      } finally {
        await session.close();
      }
      reader.poll();
      assert.equal(hook.seen.length, 2, hook.seen.join('; '));
      assert.equal(hook.seen[0], `before start ${task.taskId} ${task.taskName}`);
      // The sandbox answers a start with the run's lot: runs keeps it for the finish notice.
      assert.match(hook.seen[1] ?? '', new RegExp(`^after start ${task.taskId} ok (?!no lot)\\S+$`));
    } finally {
      await ada.close();
      await sandbox.close();
    }
  });

  it('the reader: nothing replayed, half a line waits, what is not a notice is skipped, a new file is read from its start', () => {
    const file = path.join(dir, 'notices.jsonl');
    const writer = noticeWriter(file, () => undefined);
    writer.before('start', { taskId: 'old-task', taskName: 'Before the window looked' });
    const hook = recorder();
    const reader = new NoticeReader(file, hook);

    writer.before('stop', { taskId: 't-1', taskName: 'Prices' });
    appendFileSync(
      file,
      'not json\n{"phase":"after","verb":"start","taskId":"t-2"}\n{"phase":"before","verb":"start","taskId":"bad id <b>","taskName":"x"}\n',
    );
    appendFileSync(file, '{"phase":"after","verb":"stop","taskId":"t-1",');
    reader.poll();
    assert.deepEqual(hook.seen, ['before stop t-1 Prices']);
    appendFileSync(file, '"ok":true,"lotNo":null}\n');
    reader.poll();
    assert.deepEqual(hook.seen, ['before stop t-1 Prices', 'after stop t-1 ok no lot']);

    writeFileSync(file, '');
    writer.after('start', 't-3', { ok: false });
    reader.poll();
    assert.equal(hook.seen.at(-1), 'after start t-3 failed');
    assert.equal(hook.seen.length, 3);
  });

  it('the server takes the notices file from its environment only as an absolute path', () => {
    const base = { SCRAPEDECK_API_KEY: 'op_key_0123456789abcd' };
    const at = (value: string) => {
      const env = readMcpEnv({ ...base, SCRAPEDECK_RUN_NOTICES: value });
      assert.ok(env.ok);
      return env.config.runNotices;
    };
    assert.equal(at(path.join(dir, 'a.jsonl')), path.join(dir, 'a.jsonl'));
    assert.equal(at('relative/a.jsonl'), undefined);
    assert.equal(at(''), undefined);
  });

  it('the window follows the signed-in account’s file only: a notice there reaches runs, another account’s does not', async () => {
    const follower = new RunNoticeFollower(path.join(dir, 'mcp-runs'), { warn: () => undefined });
    const account = (label: string): Account => ({
      label,
      method: 'apiKey',
      baseUrl: 'http://127.0.0.1:9',
      datahubUrl: undefined,
      hasHubKey: true,
    });
    const ada = account('ada');
    const grace = account('grace');
    assert.notEqual(follower.fileFor(ada), follower.fileFor(grace));
    assert.ok(
      !follower.fileFor(ada).includes('ada') && !follower.fileFor(ada).includes('127.0.0.1'),
      'no name or address in the file name',
    );
    const hook = recorder();
    try {
      follower.follow(ada, hook);
      noticeWriter(follower.fileFor(grace), () => undefined).before('start', {
        taskId: 't-grace',
        taskName: 'Not hers',
      });
      noticeWriter(follower.fileFor(ada), () => undefined).before('start', { taskId: 't-ada', taskName: 'Hers' });
      // fs.watch reports the change a moment later: wait for it (no time is asserted).
      for (let i = 0; i < 200 && hook.seen.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
      assert.deepEqual(hook.seen, ['before start t-ada Hers']);

      follower.follow(undefined, undefined);
      noticeWriter(follower.fileFor(ada), () => undefined).after('start', 't-ada', { ok: true, lotNo: 'lot-1' });
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(hook.seen, ['before start t-ada Hers'], 'signed out: nothing followed');
    } finally {
      follower.dispose();
    }
  });
});
