import * as assert from 'node:assert/strict';

import type { Task as ServiceTask, TaskGroup } from '../../src/api/schemas/schemas';
import { codeOf, dataOf, messageOf, TestSandbox } from './helpers/sandbox';

type Group = Pick<TaskGroup, 'taskGroupId' | 'taskGroupName'>;
type Task = Pick<ServiceTask, 'taskId' | 'taskName'>;

describe('sandbox: task groups and task search', () => {
  let sb: TestSandbox;
  before(async () => {
    sb = await TestSandbox.start();
  });
  after(() => sb.close());

  const groups = async (apiKey: string) =>
    dataOf<Group[]>(await sb.call('/taskGroup', { headers: { 'x-api-key': apiKey } }));
  const search = (apiKey: string, q: string) => sb.call(`/task/search${q}`, { headers: { 'x-api-key': apiKey } });

  it('the demo account has several groups, dozens of tasks and one group of more than 150', async () => {
    const key = sb.user('ada').apiKey;
    const list = await groups(key);
    assert.ok(list.length >= 4);
    let total = 0;
    let biggest = 0;
    const ids = new Set<string>();
    for (const g of list) {
      const r = await search(key, `?taskGroupId=${encodeURIComponent(g.taskGroupId)}`);
      assert.equal(r.status, 200);
      const tasks = dataOf<Task[]>(r);
      for (const t of tasks) ids.add(t.taskId);
      total += tasks.length;
      biggest = Math.max(biggest, tasks.length);
    }
    assert.ok(total >= 36, `dozens of tasks (${total})`);
    assert.ok(biggest > 150, `a group large enough to page (${biggest})`);
    assert.equal(ids.size, total, 'task ids are unique');
  });

  it('the Enterprise account has at least 100 tasks', async () => {
    const key = sb.account('Enterprise').apiKey;
    let total = 0;
    for (const g of await groups(key))
      total += dataOf<Task[]>(await search(key, `?taskGroupId=${g.taskGroupId}`)).length;
    assert.ok(total >= 100, String(total));
  });

  it('missing taskGroupId is 400 naming it', async () => {
    for (const q of ['', '?taskGroupId=', '?other=1']) {
      const r = await search(sb.user('ada').apiKey, q);
      assert.equal(r.status, 400);
      assert.equal(codeOf(r), 'InvalidParameter.Required');
      assert.match(messageOf(r), /taskGroupId/);
    }
  });

  it("an unknown group, or another account's group, is 404", async () => {
    const other = (await groups(sb.user('grace').apiKey))[0] as Group;
    for (const id of ['1', other.taskGroupId]) {
      const r = await search(sb.user('ada').apiKey, `?taskGroupId=${id}`);
      assert.equal(r.status, 404);
      assert.equal(codeOf(r), 'InvalidTaskGroupId');
      assert.match(messageOf(r), /taskGroupId/);
    }
  });
});
