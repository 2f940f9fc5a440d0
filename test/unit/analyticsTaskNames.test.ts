/**
 * The task chips' names (issue 21 item 1): the host names tasks from the Tasks view's cache of the
 * signed-in account, sends them with `init`, and loads the task list once for names the cache did
 * not have. Nothing of another account is named.
 */
import * as assert from 'node:assert/strict';

import { namesFor, namesFromListing, shownTaskIds, unnamed } from '../../src/analytics/host/chipNames';
import { MessageRouter } from '../../src/analytics/host/messages';
import type { TaskListing } from '../../src/analytics/host/pickTasks';
import type { MessageRouterDeps } from '../../src/analytics/host/routerDeps';
import {
  type HostMessage,
  hostMessageSchema,
  MESSAGE_LIMITS,
  type PageState,
  type Preset,
} from '../../src/analytics/protocol';
import { ApiError } from '../../src/api/errors/errors';
import type { Task, TaskGroup } from '../../src/api/schemas/schemas';
import type { TaskSource } from '../../src/tasks/taskReads';
import { TasksModel } from '../../src/tasks/tasksModel';

const cache = new Map([
  ['t1', 'Prices'],
  ['t2', 'Reviews'],
]);
const known = (ids: readonly string[]): Map<string, string> => new Map([...cache].filter(([id]) => ids.includes(id)));

function router(overrides: Partial<MessageRouterDeps> & { preset?: Preset; state?: PageState; account?: string }): {
  router: MessageRouter;
  posted: HostMessage[];
  listed: AbortSignal[];
} {
  const posted: HostMessage[] = [];
  const listed: AbortSignal[] = [];
  const deps: MessageRouterDeps = {
    getClient: () => ({ queryTaskAnalytics: () => Promise.reject(new Error('not used')) }),
    listTasks: async (signal) => {
      if (signal) listed.push(signal);
      return [{ taskId: 't9', taskName: 'Stock', taskGroupName: 'Shop' }];
    },
    ui: { showQuickPick: async () => undefined },
    exportRecords: async () => undefined,
    writeClipboard: async () => undefined,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    post: (m) => {
      assert.ok(hostMessageSchema.safeParse(m).success, `host message parses: ${JSON.stringify(m).slice(0, 200)}`);
      posted.push(m);
    },
    today: () => '2026-11-22',
    initial: () => ({
      preset: overrides.preset,
      state: overrides.state,
      ...(overrides.account ? { account: overrides.account } : {}),
    }),
    onState: () => undefined,
    isSignedIn: () => true,
    autoFetchRows: () => 10_000,
    knownTaskNames: known,
    ...overrides,
  };
  return { router: new MessageRouter(deps), posted, listed };
}

/** Lets the router's background work (the task listing) finish. */
const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('analytics task names', () => {
  it('names the shown ids from the cache, in their order, and leaves unknown ids out', () => {
    assert.deepEqual(namesFor(['t2', 'tx', 't1'], known), [
      { taskId: 't2', taskName: 'Reviews' },
      { taskId: 't1', taskName: 'Prices' },
    ]);
    assert.deepEqual(unnamed(['t2', 'tx', 't1'], namesFor(['t2', 'tx', 't1'], known)), ['tx']);
    assert.deepEqual(namesFor(['t1'], undefined), [], 'no cache: no names');
  });

  it("a one-task preset's label names it when the cache cannot; a group's label names no task", () => {
    assert.deepEqual(namesFor(['tx'], known, { taskIds: ['tx'], label: 'From the tree node' }), [
      { taskId: 'tx', taskName: 'From the tree node' },
    ]);
    assert.deepEqual(
      namesFor(['t1'], known, { taskIds: ['t1'], label: 'Older name' }),
      [{ taskId: 't1', taskName: 'Prices' }],
      'the cache wins',
    );
    assert.deepEqual(namesFor(['tx', 'ty'], known, { taskIds: ['tx', 'ty'], label: 'Shop' }), []);
  });

  it('shortens a name longer than a message may carry, so the init still parses', () => {
    const long = 'n'.repeat(MESSAGE_LIMITS.label + 50);
    const [named] = namesFor(['t1'], () => new Map([['t1', long]]));
    assert.equal(named?.taskName.length, MESSAGE_LIMITS.label);
    assert.ok(named?.taskName.endsWith('…'));
    assert.equal(
      namesFromListing(['t1'], [{ taskId: 't1', taskName: long, taskGroupName: 'g' }])[0]?.taskName.length,
      MESSAGE_LIMITS.label,
    );
  });

  it('takes the ids of the preset and of the restored form, once each', () => {
    const form = {
      start: '',
      end: '',
      timeGranularity: 'Day' as const,
      collectionMethod: 'All' as const,
      memberNames: '',
      pageSize: '20',
      page: 1,
      taskIds: ['t2', 't3'],
      taskLabels: [],
    };
    assert.deepEqual(shownTaskIds({ taskIds: ['t1', 't2'] }, { version: 2, form }), ['t1', 't2', 't3']);
    assert.deepEqual(shownTaskIds(undefined, undefined), []);
  });

  it('init carries the names; with all of them known, no task list is loaded', async () => {
    const h = router({ preset: { taskIds: ['t1', 't2'], label: 'Shop' } });
    await h.router.handle({ type: 'ready' });
    await settle();
    const init = h.posted.find((m) => m.type === 'init');
    assert.deepEqual(init?.type === 'init' ? init.taskNames : undefined, [
      { taskId: 't1', taskName: 'Prices' },
      { taskId: 't2', taskName: 'Reviews' },
    ]);
    assert.equal(h.listed.length, 0);
  });

  it('a task the cache lacks: the list is loaded once and its name sent later, under the account', async () => {
    const h = router({ preset: { taskIds: ['t1', 't9', 'gone'], label: 'Shop' }, account: 'acct-a' });
    await h.router.handle({ type: 'ready' });
    await settle();
    assert.equal(h.listed.length, 1);
    assert.deepEqual(
      h.posted.filter((m) => m.type === 'taskNames'),
      [{ type: 'taskNames', account: 'acct-a', names: [{ taskId: 't9', taskName: 'Stock' }] }],
    );
  });

  it('an account change while the list loads: nothing is sent', async () => {
    let release: (rows: TaskListing[]) => void = () => undefined;
    const h = router({
      preset: { taskIds: ['t9'], label: 'Shop' },
      listTasks: (signal) =>
        new Promise((resolve, reject) => {
          release = resolve;
          signal?.addEventListener('abort', () => reject(new ApiError({ kind: 'cancelled', message: 'cancelled' })));
        }),
    });
    await h.router.handle({ type: 'ready' });
    h.router.stopQueries('The account changed.');
    release([{ taskId: 't9', taskName: 'Other account', taskGroupName: 'g' }]);
    await settle();
    assert.deepEqual(
      h.posted.filter((m) => m.type === 'taskNames'),
      [],
    );
  });

  it('signed out: no list is loaded, ids stay as they are', async () => {
    const h = router({ preset: { taskIds: ['t9'] }, isSignedIn: () => false });
    await h.router.handle({ type: 'ready' });
    await settle();
    assert.equal(h.listed.length, 0);
  });

  it("the Tasks view's model names what it has loaded, and nothing after a reset (another account)", async () => {
    const groups: TaskGroup[] = [{ taskGroupId: 'g1', taskGroupName: 'Shop' }];
    const tasks: Task[] = [
      { taskId: 't1', taskName: 'Prices' },
      { taskId: 't2', taskName: '' },
    ];
    const source: TaskSource = { listTaskGroups: async () => groups, searchTasks: async () => tasks };
    const model = new TasksModel(() => source);
    assert.deepEqual([...model.knownTaskNames(['t1'])], [], 'nothing loaded yet, and no request made for names');
    await model.allTasksOf('g1');
    assert.deepEqual([...model.knownTaskNames(['t1', 't2', 't3'])], [['t1', 'Prices']], 'an empty name is no name');
    model.reset();
    assert.deepEqual([...model.knownTaskNames(['t1'])], []);
  });
});
