/**
 * The Tasks view's model in plain Node: paging math, the name filter, the last good answer after
 * a failure, single-flight requests and resets. A scripted in-memory source stands in for the
 * service here; tree.sandbox.test.ts runs the same model against a real sandbox.
 */
import * as assert from 'node:assert/strict';

import { ApiError } from '../../src/api/errors/errors';
import type { Task, TaskGroup } from '../../src/api/schemas/schemas';
import {
  filterAttention,
  filterGroups,
  loadMoreLabel,
  matchesFilter,
  nextLimit,
  normaliseFilter,
  sliceTasks,
} from '../../src/tasks/paging';
import type { TaskSource } from '../../src/tasks/taskReads';
import { TasksModel } from '../../src/tasks/tasksModel';

const tasks = (prefix: string, n: number): Task[] =>
  Array.from({ length: n }, (_, i) => ({
    taskId: `${prefix}-${i + 1}`,
    taskName: `${prefix} task ${String(i + 1).padStart(3, '0')}`,
  }));

class FakeSource implements TaskSource {
  groups: TaskGroup[] = [
    { taskGroupId: 'g1', taskGroupName: 'Price monitoring' },
    { taskGroupId: 'g2', taskGroupName: 'Product catalog' },
    { taskGroupId: 'g3', taskGroupName: 'Drafts' },
  ];
  tasks = new Map<string, Task[]>([
    [
      'g1',
      [
        { taskId: 'a', taskName: 'Amazon prices' },
        { taskId: 'b', taskName: 'eBay listings' },
      ],
    ],
    ['g2', tasks('Catalog', 180)],
    ['g3', []],
  ]);
  calls: string[] = [];
  failNext = false;
  /** This group's task search fails (every time). */
  failTasksOf: string | undefined;

  listTaskGroups(): Promise<readonly TaskGroup[]> {
    this.calls.push('groups');
    return this.answer(this.groups);
  }
  searchTasks(id: string): Promise<readonly Task[]> {
    this.calls.push(`tasks:${id}`);
    if (id === this.failTasksOf) return Promise.reject(new Error(`no tasks of ${id}`));
    return this.answer(this.tasks.get(id) ?? []);
  }
  private async answer<T>(value: T): Promise<T> {
    await new Promise((r) => setImmediate(r));
    if (this.failNext) {
      this.failNext = false;
      throw new Error('boom');
    }
    return structuredClone(value);
  }
}

describe('tree: tasks paging and filter (pure)', () => {
  it('slices the first page and says whether there is more', () => {
    const all = tasks('T', 180);
    const s = sliceTasks(all, 50);
    assert.equal(s.visible.length, 50);
    assert.equal(s.shown, 50);
    assert.equal(s.total, 180);
    assert.equal(s.hasMore, true);
    assert.equal(loadMoreLabel(s.shown, s.total), 'Load more… (50 of 180)');
  });

  it('pages up to the total and never past it', () => {
    assert.equal(nextLimit(50, 180), 100);
    assert.equal(nextLimit(150, 180), 180);
    assert.equal(nextLimit(180, 180), 180);
    const last = sliceTasks(tasks('T', 180), 180);
    assert.equal(last.hasMore, false);
    assert.equal(sliceTasks(tasks('T', 3), 50).shown, 3);
    assert.equal(sliceTasks(tasks('T', 3), -5).shown, 0);
    assert.equal(sliceTasks([], 50).hasMore, false);
  });

  it('matches names case-insensitively as a substring; blank means no filter', () => {
    assert.equal(matchesFilter('Amazon Prices', 'PRICE'), true);
    assert.equal(matchesFilter('Amazon Prices', 'ebay'), false);
    assert.equal(matchesFilter('anything', '   '), true);
    assert.equal(normaliseFilter('  x  '), 'x');
    assert.equal(normaliseFilter(undefined), '');
  });

  it('keeps a group by its own name with all its tasks, or by its matching tasks only', () => {
    const src = new FakeSource();
    const byId = (id: string) => src.tasks.get(id);
    const r = filterGroups(src.groups, byId, 'price');
    assert.deepEqual(
      r.map((g) => [g.group.taskGroupName, g.byName, g.tasks?.length]),
      [['Price monitoring', true, 2]],
    );
    const r2 = filterGroups(src.groups, byId, 'catalog task 01');
    assert.deepEqual(
      r2.map((g) => [g.group.taskGroupId, g.byName, g.tasks?.length]),
      [['g2', false, 10]],
    );
    // "ebay" matches a task, not the group: only that task is kept.
    const r3 = filterGroups(src.groups, byId, 'EBAY');
    assert.deepEqual(
      r3[0]?.tasks?.map((t) => t.taskId),
      ['b'],
    );
    // Unknown tasks: the group survives only by name.
    assert.equal(filterGroups(src.groups, () => undefined, 'amazon').length, 0);
  });

  it('"Needs attention" keeps, under a filter, only the tasks the groups would: by their name or their group\'s', () => {
    const attention = [
      { task: { taskName: 'IKEA stock levels', taskGroupName: 'Stock checks' } },
      { task: { taskName: 'eBay product details', taskGroupName: 'Price monitoring' } },
      { task: { taskName: 'Glassdoor job ads', taskGroupName: 'Lead generation' } },
      { task: { taskName: 'Booking ratings', taskGroupName: 'Price monitoring' } },
    ];
    const names = (filter: string) => filterAttention(attention, filter).map((i) => i.task.taskName);
    assert.deepEqual(names('eBay product'), ['eBay product details']);
    assert.deepEqual(names('PRICE'), ['eBay product details', 'Booking ratings'], "by the group's name");
    assert.deepEqual(names('nothing like it'), []);
    assert.deepEqual(
      names(''),
      attention.map((i) => i.task.taskName),
      'no filter: every task',
    );
  });
});

describe('tree: TasksModel', () => {
  let src: FakeSource;
  let model: TasksModel;
  beforeEach(() => {
    src = new FakeSource();
    model = new TasksModel(() => src, 50);
  });

  it('lists groups, then a group’s tasks lazily, 50 at a time', async () => {
    const groups = await model.groups();
    assert.deepEqual(
      groups.value?.map((g) => g.group.taskGroupName),
      ['Price monitoring', 'Product catalog', 'Drafts'],
    );
    assert.deepEqual(src.calls, ['groups']); // no task requests until a group opens
    const first = await model.tasks('g2');
    assert.equal(first.value?.shown, 50);
    assert.equal(first.value?.total, 180);
    model.loadMore('g2');
    model.loadMore('g2');
    model.loadMore('g2');
    const all = await model.tasks('g2');
    assert.equal(all.value?.shown, 180);
    assert.equal(all.value?.hasMore, false);
    model.loadMore('g2'); // past the end stays at the end
    assert.equal((await model.tasks('g2')).value?.shown, 180);
    assert.deepEqual(src.calls, ['groups', 'tasks:g2']); // paging asks the service nothing
  });

  it('shares one request between concurrent reads', async () => {
    await Promise.all([model.groups(), model.groups(), model.tasks('g1'), model.tasks('g1')]);
    assert.deepEqual(src.calls.sort(), ['groups', 'tasks:g1']);
  });

  it('on failure returns the last good answer with the error; the first failure returns nothing', async () => {
    src.failNext = true;
    const failed = await model.groups();
    assert.equal(failed.value, undefined);
    assert.ok(failed.error instanceof Error);

    const good = await model.groups();
    assert.equal(good.value?.length, 3);
    model.invalidate();
    src.groups = [];
    src.failNext = true;
    const kept = await model.groups();
    assert.equal(kept.value?.length, 3, 'last good groups kept');
    assert.ok(kept.error instanceof Error);
    // A refresh that succeeds replaces them.
    model.invalidate();
    assert.equal((await model.groups()).value?.length, 0);
  });

  it('keeps last good tasks of a group after a failed refresh', async () => {
    await model.tasks('g1');
    model.invalidate();
    src.failNext = true;
    const r = await model.tasks('g1');
    assert.equal(r.value?.total, 2);
    assert.ok(r.error);
  });

  it('filters across groups, loading every group’s tasks, and restarts paging', async () => {
    await model.tasks('g2');
    model.loadMore('g2');
    assert.equal((await model.tasks('g2')).value?.shown, 100);
    assert.equal(model.setFilter('  catalog TASK 1 '), true);
    assert.equal(model.setFilter('catalog TASK 1'), false, 'same filter after trimming is no change');
    const groups = await model.groups();
    assert.deepEqual(
      groups.value?.map((g) => g.group.taskGroupId),
      ['g2'],
    );
    // "Product catalog" does not contain "catalog task 1", so only matching tasks: 100-180 (001 is zero-padded).
    const slice = (await model.tasks('g2')).value;
    assert.equal(slice?.total, 81);
    assert.equal(slice?.shown, 50);
    assert.deepEqual(model.taskCount('g2'), { matching: 81, total: 180 });
    model.setFilter('');
    assert.equal((await model.tasks('g2')).value?.shown, 50);
    assert.equal((await model.groups()).value?.length, 3);
  });

  it('a group matched by its name keeps all its tasks', async () => {
    model.setFilter('PRODUCT');
    await model.groups();
    assert.equal((await model.tasks('g2')).value?.total, 180);
  });

  it('reset forgets everything and drops answers that arrive afterwards', async () => {
    await model.groups();
    const pending = model.tasks('g1');
    model.reset();
    assert.equal((await pending).value, undefined);
    assert.equal((await pending).error, undefined, 'an abandoned request reports nothing');
    assert.equal(model.groupById('g1'), undefined);
    await model.groups();
    assert.equal(src.calls.filter((c) => c === 'groups').length, 2);
  });

  it('signed out (no source) yields no value and no error', async () => {
    const out = new TasksModel(() => undefined);
    const r = await out.groups();
    assert.equal(r.value, undefined);
    assert.equal(r.error, undefined);
    // The picker's list says why, as an ApiError (an undefined throw reads "Something went wrong: undefined").
    await assert.rejects(
      out.listAllTasks(),
      (e: unknown) => e instanceof ApiError && e.kind === 'auth' && /sign in/i.test(e.message),
    );
  });

  it('lists every task with its group for pickers', async () => {
    const rows = await model.listAllTasks();
    assert.equal(rows.length, 182);
    assert.deepEqual(rows[0], {
      taskId: 'a',
      taskName: 'Amazon prices',
      taskGroupId: 'g1',
      taskGroupName: 'Price monitoring',
    });
    assert.equal((await model.listEveryTask()).complete, true, 'every group answered');
  });

  it('says the list is not every task when a group’s tasks could not be read (task health then asks by id)', async () => {
    const failing = new FakeSource();
    failing.failTasksOf = 'g2';
    const m = new TasksModel(() => failing, 50);
    const listing = await m.listEveryTask();
    assert.equal(listing.complete, false);
    assert.deepEqual(
      listing.rows.map((r) => r.taskId),
      ['a', 'b'],
    );
    failing.failTasksOf = undefined;
    m.invalidate();
    assert.equal((await m.listEveryTask()).complete, true, 'complete again once it answers');
  });

  it("says which groups' counts to ask for: never listed, or listed before a refresh, and not while on the way", async () => {
    assert.equal(model.needsCount('g1'), true, 'the group listing carries no count');
    const pending = model.allTasksOf('g1');
    assert.equal(model.needsCount('g1'), false, 'already asked');
    await pending;
    assert.equal(model.needsCount('g1'), false);
    assert.deepEqual(model.taskCount('g1'), { matching: 2, total: 2 });
    model.invalidate();
    assert.equal(model.needsCount('g1'), true, 'a refresh makes it a count of before');
    assert.deepEqual(model.taskCount('g1'), { matching: 2, total: 2 }, 'still shown until the answer comes');
    model.reset();
    assert.equal(model.needsCount('g1'), true);
  });

  it("a moved task leaves its group's count and joins its new group's at once, before any request", async () => {
    await model.allTasksOf('g1');
    await model.allTasksOf('g3');
    const asked = src.calls.length;
    model.applyMove([{ taskId: 'a', taskName: 'Amazon prices' }], 'g3');
    assert.deepEqual(model.taskCount('g1'), { matching: 1, total: 1 });
    assert.deepEqual(model.taskCount('g3'), { matching: 1, total: 1 });
    assert.deepEqual(
      (await model.tasks('g3')).value?.visible.map((t) => t.taskId),
      ['a'],
    );
    // A task the source's list did not hold yet (a copy made since) still counts in its new group, once.
    model.applyMove(
      [
        { taskId: 'a', taskName: 'Amazon prices' },
        { taskId: 'copy', taskName: 'Amazon prices (copy)' },
      ],
      'g3',
    );
    assert.deepEqual(model.taskCount('g3'), { matching: 2, total: 2 });
    // A group never listed stays unknown: its first listing counts it.
    model.applyMove([{ taskId: 'b', taskName: 'eBay listings' }], 'g2');
    assert.equal(model.taskCount('g2'), undefined);
    assert.deepEqual(model.taskCount('g1'), { matching: 0, total: 0 });
    assert.equal(src.calls.length, asked, 'no request');
  });
});
