/**
 * The sandbox's task parameters and organisation over raw HTTP: actions and loop items (read,
 * replace, append, validation), action properties, duplicate and move (and what task search
 * shows afterwards), with their refusals.
 */
import * as assert from 'node:assert/strict';

import type { TaskActions } from '../../src/api/schemas/taskOpsSchemas';
import { codeOf, dataOf, messageOf, type Reply, TestSandbox } from './helpers/sandbox';

describe('sandbox: task parameters, duplicate and move', function () {
  let sb: TestSandbox;
  let key: string;
  let groups: { taskGroupId: string; taskGroupName: string }[];
  let tasks: { taskId: string; taskName: string }[];

  before(async () => {
    sb = await TestSandbox.start({ seed: 4 });
    key = sb.user('ada').apiKey;
    groups = dataOf(await get('/taskGroup'));
    tasks = await search(groups[2]?.taskGroupId ?? '');
  });
  after(() => sb.close());

  function get(path: string, apiKey = key): Promise<Reply> {
    return sb.call(path, { headers: { 'x-api-key': apiKey } });
  }
  async function search(gid: string, apiKey = key): Promise<{ taskId: string; taskName: string }[]> {
    return dataOf(await get(`/task/search?taskGroupId=${gid}`, apiKey));
  }
  const post = (path: string, body?: unknown, apiKey = key): Promise<Reply> =>
    sb.call(path, { method: 'POST', headers: { 'x-api-key': apiKey }, body });
  const actions = async (taskIds: string[], actionTypes: string[] = ['LoopAction']): Promise<TaskActions[]> => {
    const r = await post('/task/getActions', { taskIds, actionTypes });
    assert.equal(r.status, 200, r.text);
    return dataOf(r);
  };
  const refused = (r: Reply, status: number, code: string, message: RegExp): void => {
    assert.equal(r.status, status, r.text);
    assert.equal(codeOf(r), code);
    assert.match(messageOf(r), message);
  };

  it('get actions: loop actions with their items; some tasks have several loops, URL and text lists', async () => {
    const all = await actions(tasks.map((t) => t.taskId));
    assert.deepEqual(
      all.map((a) => a.taskId),
      tasks.map((t) => t.taskId),
    );
    assert.ok(
      all.some((t) => t.actions.length > 1),
      'a task with several loops',
    );
    const loops = all.flatMap((t) => t.actions);
    assert.ok(loops.some((a) => a.loopType === 'URLList') && loops.some((a) => a.loopType === 'TextList'));
    for (const a of loops) {
      assert.equal(a.actionType, 'LoopAction');
      assert.ok((a.loopItems ?? []).length > 0);
      if (a.loopType === 'URLList') for (const u of a.loopItems ?? []) assert.match(u, /^https:\/\//);
    }
    assert.deepEqual(await actions([tasks[0]?.taskId as string], ['NoSuchAction']), [
      { taskId: tasks[0]?.taskId, actions: [] },
    ]);
    assert.deepEqual(await actions(['nope']), [], 'unknown ids are left out');
  });

  it('replace and append loop items: later reads return the new list', async () => {
    const id = tasks[1]?.taskId as string;
    const loop = (await actions([id]))[0]?.actions.find((a) => a.loopType === 'URLList');
    assert.ok(loop);
    const base = { taskId: id, actionId: loop.actionId, loopType: 'URLList' };
    const replaced = ['https://example.com/a', 'http://example.com/b?x=1&y=ü'];
    const r = await post('/task/updateLoopItems', { ...base, loopItems: replaced, isAppend: false });
    assert.deepEqual(dataOf(r), { message: 'success' });
    const read = async () => (await actions([id]))[0]?.actions.find((a) => a.actionId === loop.actionId)?.loopItems;
    assert.deepEqual(await read(), replaced);
    await post('/task/updateLoopItems', { ...base, loopItems: ['https://example.com/c'], isAppend: true });
    assert.deepEqual(await read(), [...replaced, 'https://example.com/c']);
  });

  it("loop items are checked: URLs in a URL list, the action's loop type, a known action, not empty", async () => {
    const id = tasks[2]?.taskId as string;
    const loop = (await actions([id]))[0]?.actions[0];
    assert.ok(loop);
    const base = { taskId: id, actionId: loop.actionId, loopType: loop.loopType, isAppend: false };
    if (loop.loopType === 'URLList') {
      refused(
        await post('/task/updateLoopItems', { ...base, loopItems: ['https://ok.example', 'not a url'] }),
        400,
        'InvalidParameter',
        /loopItems\.1: not a URL/,
      );
      refused(
        await post('/task/updateLoopItems', { ...base, loopItems: ['ftp://example.com/x'] }),
        400,
        'InvalidParameter',
        /loopItems\.0/,
      );
    }
    refused(await post('/task/updateLoopItems', { ...base, loopItems: [] }), 400, 'InvalidParameter', /at least one/);
    refused(
      await post('/task/updateLoopItems', { ...base, loopType: 'SomethingElse', loopItems: ['x'] }),
      400,
      'TaskUpdateFail',
      /loopType/,
    );
    refused(
      await post('/task/updateLoopItems', { ...base, actionId: 'nope', loopItems: ['x'] }),
      400,
      'TaskUpdateFail',
      /actionId/,
    );
    refused(
      await post('/task/updateLoopItems', { ...base, isAppend: 'no', loopItems: ['x'] }),
      400,
      'InvalidParameter',
      /isAppend/,
    );
    refused(
      await post('/task/updateLoopItems', { ...base, taskId: 'nope', loopItems: ['x'] }),
      404,
      'InvalidTaskId',
      /nope/,
    );
  });

  it('update action properties: all or nothing; `name` renames the action', async () => {
    const id = tasks[3]?.taskId as string;
    const loop = (await actions([id]))[0]?.actions[0];
    assert.ok(loop);
    const ok = await post('/task/updateActionProperties', {
      taskId: id,
      actions: [
        {
          actionType: 'LoopAction',
          actionId: loop.actionId,
          properties: [
            { name: 'name', value: 'Product pages' },
            { name: 'retries', value: 3 },
          ],
        },
      ],
    });
    assert.deepEqual(dataOf(ok), { message: 'success' });
    assert.equal((await actions([id]))[0]?.actions[0]?.name, 'Product pages');
    const bad = await post('/task/updateActionProperties', {
      taskId: id,
      actions: [
        { actionType: 'LoopAction', actionId: loop.actionId, properties: [{ name: 'name', value: 'Changed' }] },
        { actionType: 'LoopAction', actionId: 'nope', properties: [{ name: 'name', value: 'x' }] },
      ],
    });
    refused(bad, 400, 'TaskUpdateFail', /actions\.1/);
    assert.equal((await actions([id]))[0]?.actions[0]?.name, 'Product pages', 'nothing changed');
  });

  it('duplicate: a new task in the same or a named group, with the loops as they are now and no data', async () => {
    const source = tasks[4] as { taskId: string; taskName: string };
    const gid = groups[2]?.taskGroupId as string;
    const first = dataOf<{ taskId: string; taskName: string }>(await post(`/task/copy?taskId=${source.taskId}`));
    assert.equal(first.taskName, `${source.taskName} (copy)`);
    assert.ok(
      (await search(gid)).some((t) => t.taskId === first.taskId),
      'search shows the copy',
    );
    const second = dataOf<{ taskName: string }>(await post(`/task/copy?taskId=${source.taskId}&taskGroupId=${gid}`));
    assert.equal(second.taskName, `${source.taskName} (copy 2)`);
    const other = groups[5]?.taskGroupId as string; // Drafts: empty
    const third = dataOf<{ taskId: string }>(await post(`/task/copy?taskId=${source.taskId}&taskGroupId=${other}`));
    assert.deepEqual(
      (await search(other)).map((t) => t.taskId),
      [third.taskId],
    );
    const [orig, copy] = await actions([source.taskId, first.taskId]);
    assert.deepEqual(copy?.actions, orig?.actions);
    const rows = dataOf<{ total: number }>(await get(`/data/all?taskId=${first.taskId}&offset=0&size=1`));
    assert.equal(rows.total, 0);
    refused(await post(`/task/copy?taskId=${source.taskId}&taskGroupId=999`), 404, 'InvalidTaskGroupId', /999/);
    refused(await post('/task/copy'), 400, 'InvalidParameter.Required', /taskId/);
  });

  it('move: the task leaves one group for another; to its own group it is not moved', async () => {
    const [from, to] = [groups[0]?.taskGroupId as string, groups[1]?.taskGroupId as string];
    const task = (await search(from))[0] as { taskId: string };
    const moved = dataOf<{ moved: boolean }>(await post(`/task/moveToGroup?taskId=${task.taskId}&taskGroupId=${to}`));
    assert.deepEqual(moved, { moved: true });
    assert.ok(!(await search(from)).some((t) => t.taskId === task.taskId));
    assert.ok((await search(to)).some((t) => t.taskId === task.taskId));
    assert.deepEqual(dataOf(await post(`/task/moveToGroup?taskId=${task.taskId}&taskGroupId=${to}`)), { moved: false });
    refused(await post(`/task/moveToGroup?taskId=${task.taskId}`), 400, 'InvalidParameter.Required', /taskGroupId/);
  });

  it('plans: Standard may duplicate and move but not touch parameters; Free may do neither', async () => {
    const grace = sb.user('grace').apiKey;
    const gg = dataOf<{ taskGroupId: string }[]>(await get('/taskGroup', grace));
    const gt = (await search(gg[0]?.taskGroupId ?? '', grace))[0]?.taskId as string;
    refused(
      await post('/task/getActions', { taskIds: [gt], actionTypes: ['LoopAction'] }, grace),
      403,
      'Forbidden.Plan',
      /Professional or Enterprise.*Standard plan/,
    );
    refused(
      await post(
        '/task/updateLoopItems',
        { taskId: gt, actionId: 'a', loopType: 'URLList', loopItems: ['https://x.example'], isAppend: false },
        grace,
      ),
      403,
      'Forbidden.Plan',
      /Standard/,
    );
    assert.equal((await post(`/task/copy?taskId=${gt}`, undefined, grace)).status, 200);
    assert.equal(
      (await post(`/task/moveToGroup?taskId=${gt}&taskGroupId=${gg[1]?.taskGroupId ?? ''}`, undefined, grace)).status,
      200,
    );
    const fiona = sb.user('fiona').apiKey;
    refused(await post(`/task/copy?taskId=x`, undefined, fiona), 403, 'Forbidden.Plan', /Free plan/);
    refused(
      await post(`/task/moveToGroup?taskId=x&taskGroupId=y`, undefined, fiona),
      403,
      'Forbidden.Plan',
      /Free plan/,
    );
  });
});
