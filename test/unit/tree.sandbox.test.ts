/**
 * The Tasks view's model against a real sandbox through a real ScrapedeckClient: the seeded
 * groups and tasks come back, "Load more…" pages through the big group, a Free plan's 403 keeps
 * its error, and the hub answers deprecation as the Data Apps view expects.
 */
import * as assert from 'node:assert/strict';

import { MemoryCredentialsStore } from '../../src/api/auth/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { isApiError } from '../../src/api/errors/errors';
import { UnlimitedLimiter } from '../../src/api/http/limiter';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';
import { clientTaskSource } from '../../src/tasks/clientSource';
import { TasksModel } from '../../src/tasks/tasksModel';

describe('tree: TasksModel against the sandbox', function () {
  let sandbox: RunningSandbox;
  const clients: ScrapedeckClient[] = [];
  const clientFor = (apiKey: string): ScrapedeckClient => {
    const c = new ScrapedeckClient({
      baseUrl: sandbox.info.baseUrl,
      datahubUrl: sandbox.info.datahubUrl,
      credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey }),
      // What the tree lists is under test, not the pacing: no limit on either side.
      limiter: new UnlimitedLimiter(),
    });
    clients.push(c);
    return c;
  };
  const account = (name: string) => {
    const a = sandbox.info.accounts.find((x) => x.username === name);
    assert.ok(a, `seeded account ${name}`);
    return a;
  };

  before(async () => {
    sandbox = await startSandbox({ port: 0, rateLimit: 0 });
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await sandbox.close();
  });

  it('returns the seeded groups, and each group’s tasks when it opens', async () => {
    const client = clientFor(account('ada').apiKey);
    const model = new TasksModel(clientTaskSource(() => client));
    const groups = await model.groups();
    assert.equal(groups.error, undefined);
    assert.deepEqual(
      groups.value?.map((g) => g.group.taskGroupName),
      ['Price monitoring', 'Lead generation', 'News & media', 'Product catalog', 'Social listening', 'Drafts'],
    );
    const price = groups.value?.find((g) => g.group.taskGroupName === 'Price monitoring');
    assert.ok(price);
    const tasks = await model.tasks(price.group.taskGroupId);
    assert.equal(tasks.value?.total, 14);
    assert.equal(tasks.value?.hasMore, false);
    assert.ok(tasks.value?.visible.every((t) => t.taskId.length > 0 && t.taskName.length > 0));
    const drafts = groups.value?.find((g) => g.group.taskGroupName === 'Drafts');
    assert.equal((await model.tasks(drafts?.group.taskGroupId ?? '')).value?.total, 0);
  });

  it('"Load more" pages through the big group (160 tasks) without asking again', async () => {
    const client = clientFor(account('ada').apiKey);
    const model = new TasksModel(
      clientTaskSource(() => client),
      50,
    );
    const groups = await model.groups();
    const big = groups.value?.find((g) => g.group.taskGroupName === 'Product catalog');
    assert.ok(big);
    const id = big.group.taskGroupId;
    const before = sandbox.stats.byRoute['GET /task/search'] ?? 0;
    const shown: number[] = [];
    let slice = (await model.tasks(id)).value;
    while (slice) {
      shown.push(slice.shown);
      if (!slice.hasMore) break;
      model.loadMore(id);
      slice = (await model.tasks(id)).value;
    }
    assert.deepEqual(shown, [50, 100, 150, 160]);
    assert.equal(slice?.total, 160);
    assert.equal(new Set(slice?.visible.map((t) => t.taskId)).size, 160, 'all distinct tasks');
    assert.equal(slice?.visible[0]?.taskName, 'Catalog — category 001');
    assert.equal((sandbox.stats.byRoute['GET /task/search'] ?? 0) - before, 1, 'one search for the whole group');
  });

  it('filters the real tasks by name across groups', async () => {
    const client = clientFor(account('ada').apiKey);
    const model = new TasksModel(clientTaskSource(() => client));
    model.setFilter('CATEGORY 15');
    const groups = await model.groups();
    assert.deepEqual(
      groups.value?.map((g) => g.group.taskGroupName),
      ['Product catalog'],
    );
    const tasks = await model.tasks(groups.value?.[0]?.group.taskGroupId ?? '');
    assert.deepEqual(
      tasks.value?.visible.map((t) => t.taskName),
      Array.from({ length: 10 }, (_, i) => `Catalog — category 15${i}`),
    );
  });

  it('a Free account gets the 403 as an error, with nothing to show', async () => {
    const client = clientFor(account('fiona').apiKey);
    const model = new TasksModel(clientTaskSource(() => client));
    const groups = await model.groups();
    assert.equal(groups.value, undefined);
    assert.ok(isApiError(groups.error), String(groups.error));
    assert.equal(groups.error.kind, 'forbidden');
    assert.equal(groups.error.status, 403);
  });

  it('lists every task of the account for the analytics picker', async () => {
    const client = clientFor(account('ada').apiKey);
    const rows = await new TasksModel(clientTaskSource(() => client)).listAllTasks();
    assert.equal(rows.length, 14 + 9 + 22 + 160 + 6);
    assert.ok(rows.every((r) => r.taskGroupName.length > 0));
  });
});
