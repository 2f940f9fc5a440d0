/**
 * Task health for an account of 1,000 tasks (the sandbox's Benchmarks group alone), against a
 * sandbox in its own process that limits at the service's 20 requests a second, on two fixtures:
 * every task run by one collection method (a record per task and window), and a quarter of them
 * run by both (as the seeded world does), whose records put the floor above 20 requests:
 * - one refresh from nothing (both windows) through the controller and the client's limiter:
 *   analytics requests at the server against the floor the records set, and time against their
 *   rate bound (requests / 20 s);
 * - a later refresh the same day (the previous window's figures reused): requests;
 * - decorating 1,000 task nodes: building each TaskNode with its health part (resource URI,
 *   description, tooltip) and asking the FileDecorationProvider for its URI, median of runs.
 *   `vscode` is a stand-in here (bench/fixtures/fake-vscode.cjs, as the activation section does).
 */
import Module from 'node:module';

import { MemoryCredentialsStore } from '../src/api/auth/auth';
import { ScrapedeckClient } from '../src/api/client';
import { realTimers } from '../src/api/http/limiter';
import { HealthBoard } from '../src/health/healthBoard';
import { HealthCache } from '../src/health/healthCache';
import { HealthController, type HealthTaskRow } from '../src/health/healthController';
import { DEFAULT_HEALTH_SETTINGS } from '../src/health/healthSettings';
import { BENCH_GROUP_NAME } from '../src/sandbox/seed/seed';
import { isSandboxChild, startChildSandbox } from './childSandbox';
import { median } from './figures';
import { decorateRow, RATE, refreshRows, TASKS } from './healthRows';
import type { BenchRow, BenchSection } from './types';

isSandboxChild();

const RUNS = 3;
const DECORATE_RUNS = 15;
const WARM_UP = 3;
const ROUTE = 'POST /taskanalytics/queries';
/**
 * "Today" for the sandbox and the controller: both 7-day windows inside one month, so a task
 * answers a record per method and window. Across a month's end a window answers two (the floor
 * roughly doubles), which is the service's bucketing, not the refresh's cost; pinned so figures
 * compare from run to run.
 */
const TODAY = '2026-11-20';

const spread = (xs: number[], format: (x: number) => string): string =>
  `${format(Math.min(...xs))} – ${format(Math.max(...xs))}`;
const millis = (ms: number): string => `${ms.toFixed(1)} ms`;

class Memento {
  private readonly map = new Map<string, unknown>();
  get(key: string): unknown {
    return this.map.get(key);
  }
  update(key: string, value: unknown): Promise<void> {
    this.map.set(key, value);
    return Promise.resolve();
  }
}

/** The stand-in `vscode`, with the two members health needs beyond what activation does. */
function installVscodeStandIn(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const base = require('./fixtures/fake-vscode.cjs') as Record<string, unknown>;
  const extra: Record<string, unknown> = {
    Uri: {
      from: (c: { scheme: string; authority?: string; path?: string }) => ({
        scheme: c.scheme,
        authority: c.authority ?? '',
        path: c.path ?? '',
        toString: () => `${c.scheme}://${c.authority ?? ''}${c.path ?? ''}`,
      }),
    },
    FileDecoration: class {
      propagate?: boolean;
      constructor(
        readonly badge?: string,
        readonly tooltip?: string,
        readonly color?: unknown,
      ) {}
    },
  };
  // A plain object: the bundle's import helper copies the module's own keys.
  const standIn: Record<string, unknown> = { ...base, ...extra };
  const loader = Module as unknown as { _load(request: string, ...rest: unknown[]): unknown };
  const original = loader._load.bind(Module);
  loader._load = (request: string, ...rest: unknown[]) => (request === 'vscode' ? standIn : original(request, ...rest));
}

/** A sandbox account of exactly 1,000 tasks: by how many methods they run sets the records a window answers. */
interface Fixture {
  label: string;
  /** Each task runs by one collection method (else about a quarter run by both, as the seeded world does). */
  oneMethod: boolean;
}

const FIXTURES: readonly Fixture[] = [
  { label: 'each task run by one method', oneMethod: true },
  { label: 'a quarter of the tasks run by both methods', oneMethod: false },
];

/** First and later refreshes through the controller and the client's limiter, `RUNS` times, on one fixture. */
async function refreshes(fixture: Fixture, rows: BenchRow[], notes: string[]): Promise<HealthBoard> {
  // The same hour of the day as now, on TODAY: the limiter's seconds stay real.
  const offsetMs = Date.parse(`${TODAY}T00:00:00Z`) - Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  const clock = (): number => Date.now() + offsetMs;
  const sandbox = await startChildSandbox(__filename, {
    rateLimit: RATE,
    seed: 7,
    extraTasks: TASKS,
    extraTasksOnly: true,
    extraTasksOneMethod: fixture.oneMethod,
    offsetMs,
  });
  const ada = sandbox.info.accounts[0];
  if (!ada) throw new Error('no demo account');
  const client = new ScrapedeckClient({
    baseUrl: sandbox.info.baseUrl,
    credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: ada.apiKey }),
    env: {},
  });
  let board = new HealthBoard();
  try {
    // Every task of the account, as the Tasks view lists them.
    const tasks: HealthTaskRow[] = [];
    for (const g of (await client.listTaskGroups()).data) {
      for (const t of (await client.searchTasks(g.taskGroupId)).data)
        tasks.push({ ...t, taskGroupId: g.taskGroupId, taskGroupName: g.taskGroupName });
    }
    if (tasks.length !== TASKS || tasks.some((t) => t.taskGroupName !== BENCH_GROUP_NAME))
      throw new Error(`the account has ${tasks.length} tasks, not the ${TASKS} of ${BENCH_GROUP_NAME} alone`);
    await new Promise((r) => setTimeout(r, 1100)); // the listing leaves the server's trailing second

    const firstCounts: number[] = [];
    const againCounts: number[] = [];
    const walls: number[] = [];
    /** What went wrong besides the figures: a failed or partial refresh passes nothing. */
    const problems: string[] = [];
    let limited = 0;
    let sent = 0;
    for (let i = 0; i < RUNS; i++) {
      board = new HealthBoard();
      const controller = new HealthController({
        board,
        cache: new HealthCache(new Memento(), { warn: () => undefined }),
        getClient: () => client,
        listTasks: () => Promise.resolve({ rows: tasks, complete: true }),
        timers: realTimers,
        clock,
        settings: () => DEFAULT_HEALTH_SETTINGS,
        notifier: {
          crossed: () => undefined,
          unavailable: () => problems.push('health unavailable'),
          failed: (e) => problems.push(`refresh failed: ${String(e)}`),
          clamped: () => undefined,
        },
      });
      controller.setAccount('ada');
      const before = await sandbox.stats();
      const t0 = performance.now();
      await controller.refresh();
      const wall = performance.now() - t0;
      const mid = await sandbox.stats();
      if (board.snapshot?.tasks.length !== tasks.length)
        problems.push(
          `first refresh ${i + 1}: health for ${board.snapshot?.tasks.length ?? 0} of ${tasks.length} tasks`,
        );
      firstCounts.push((mid.byRoute[ROUTE] ?? 0) - (before.byRoute[ROUTE] ?? 0));
      limited += mid.status429 - before.status429;
      sent += mid.requests - before.requests;
      walls.push(wall);
      await controller.refresh(); // the same day: the previous window is reused
      const after = await sandbox.stats();
      if (board.snapshot?.tasks.length !== tasks.length)
        problems.push(
          `later refresh ${i + 1}: health for ${board.snapshot?.tasks.length ?? 0} of ${tasks.length} tasks`,
        );
      againCounts.push((after.byRoute[ROUTE] ?? 0) - (mid.byRoute[ROUTE] ?? 0));
      limited += after.status429 - mid.status429;
      sent += after.requests - mid.requests;
      controller.dispose();
      await new Promise((r) => setTimeout(r, 1100));
    }
    // The floor: every record is one task, collection method and bucket, at most 100 a page. The
    // current window needs each (task, method) that ran in it; the slowdown needs the previous
    // window's of every task timed now, in records of their own (a record covers one range).
    const snap = board.snapshot;
    const windowRecords = async (range: { start: string; end: string }, ids: string[]): Promise<number> => {
      let n = 0;
      for (let i = 0; i < ids.length; i += 100)
        n += (
          await client.queryTaskAnalytics({
            ...range,
            taskIds: ids.slice(i, i + 100),
            timeGranularity: 'Month',
            pageSize: 1,
          })
        ).data.total;
      return n;
    };
    const timedIds = (snap?.tasks ?? []).filter((t) => (t.current?.timedRuns ?? 0) > 0).map((t) => t.taskId);
    const currentRecords = snap
      ? await windowRecords(
          snap.current,
          tasks.map((t) => t.taskId),
        )
      : 0;
    const previousRecords = snap ? await windowRecords(snap.previous, timedIds) : 0;
    const floorFirst = Math.ceil(currentRecords / 100) + Math.ceil(previousRecords / 100);
    rows.push(
      ...refreshRows({
        label: fixture.label,
        runs: RUNS,
        firstCounts,
        againCounts,
        walls,
        limited,
        sent,
        currentRecords,
        previousRecords,
        problems,
      }),
    );
    notes.push(
      `${fixture.label[0]?.toUpperCase() ?? ''}${fixture.label.slice(1)}: ${currentRecords.toLocaleString('en')} records in the current window and ${previousRecords.toLocaleString('en')} in the previous one for the ${timedIds.length.toLocaleString('en')} tasks with timed runs now; the floor is ceil(${currentRecords}/100) + ceil(${previousRecords}/100) = ${floorFirst}.`,
    );
  } finally {
    await client.close();
    await sandbox.close();
  }
  return board;
}

export default async function run(): Promise<BenchSection> {
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  // ---- 1. refreshes: requests and time against the rate bound, on both fixtures -------------------
  let board = new HealthBoard();
  for (const fixture of FIXTURES) board = await refreshes(fixture, rows, notes);
  notes.push(
    'A record is one task, collection method and Month bucket, and a page holds 100, so a window costs at least ceil(records / 100) requests. Asking 14 days in one query and subtracting the current 7 needs a record per task and method for the 14 days as well, so it costs no less. ≤ 20 on a first refresh therefore holds for accounts whose 1,000 tasks answer at most 2,000 records over both windows (one record per task and window, as when each runs by one method); where a quarter run by both ways the floor is above 20, and the refresh reaches it.',
    `Dates: "today" is pinned to ${TODAY}, so both windows lie inside one month. A window that crosses a month's end answers two Month records per task and method, and the floor (and the refresh) roughly doubles on those days.`,
    'How: more than 100 tasks, and all of the account’s, are asked in one query that names none (the spec: omit taskIds for all tasks), so every page but the last is full. The previous window only serves the slowdown: it is asked after the current one, by whichever shape takes fewer pages (here again all tasks), and kept for the tasks with timed runs now. Before: batches of about 75 ids cut to fill their pages, with a 100-id probe (30 requests on the second fixture); before that, batches of 100 ids (40).',
  );
  // ---- 2. decorating 1,000 nodes -------------------------------------------------------------------
  installVscodeStandIn();
  const { TaskNode } = await import('../src/tasks/taskNodes.js');
  const { HealthDecorations } = await import('../src/health/decorations.js');
  const snapshot = board.snapshot;
  if (!snapshot) throw new Error('no health to decorate with');
  const decorations = new HealthDecorations(board);
  const group = (t: (typeof snapshot.tasks)[number]) => ({
    taskGroupId: t.taskGroupId,
    taskGroupName: t.taskGroupName,
  });
  const nodes = snapshot.tasks.map((task) => new TaskNode(task, group(task), board));
  const build: number[] = [];
  const plain: number[] = [];
  const decorate: number[] = [];
  let decorated = 0;
  let withUri = 0;
  for (let i = 0; i < DECORATE_RUNS + WARM_UP; i++) {
    const t0 = performance.now();
    for (const task of snapshot.tasks) new TaskNode(task, group(task), board);
    const t1 = performance.now();
    for (const task of snapshot.tasks) new TaskNode(task, group(task));
    const t2 = performance.now();
    decorated = 0;
    withUri = 0;
    for (const node of nodes) {
      if (!node.resourceUri) continue;
      withUri++;
      if (decorations.provideFileDecoration(node.resourceUri)) decorated++;
    }
    const t3 = performance.now();
    if (i < WARM_UP) continue;
    build.push(t1 - t0);
    plain.push(t2 - t1);
    decorate.push(t3 - t2);
  }
  decorations.dispose();
  // What the provider should have answered, from the board itself: every task whose health is not ok.
  const unwell = snapshot.tasks.filter((task) => {
    const level = board.task(task.taskId)?.health.level;
    return level !== undefined && level !== 'ok';
  }).length;
  rows.push(decorateRow({ times: decorate, runs: DECORATE_RUNS, nodes: nodes.length, withUri, decorated, unwell }));
  const mb = median(build);
  rows.push({
    name: `  building the ${nodes.length.toLocaleString('en')} nodes with health (URI, description, tooltip), median`,
    value: millis(mb),
    against: `spread ${spread(build, millis)}; without health ${millis(median(plain))} (context)`,
  });
  return { title: 'Task health: requests for 1,000 tasks at 20 req/s, and decorating 1,000 nodes', rows, notes };
}
