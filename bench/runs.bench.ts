/**
 * Live run status in the Tasks view, against a sandbox in its own process (1,000 tasks on screen,
 * 30 of them extracting), through the real client, status poller and run store:
 * - status requests at the server per refresh (the client cuts the ids into batches of 100);
 * - the repaint per refresh: taking in the answer (RunStore.apply, which fires the changed rows)
 *   and asking every visible row's run presentation (icon, description part, tooltip lines, menu
 *   flags — what TaskNode.setRun draws from), all 1,000 rows, as a full redraw of the view would;
 *   rows whose run did not change are kept from the last refresh (runText's cache per entry).
 * The workbench's own drawing of the rows is not part of it (no VS Code here); the tree redraws
 * only the rows whose state changed (TasksTreeProvider.redrawRuns).
 */
import { MemoryCredentialsStore } from '../src/api/auth/auth';
import { ScrapedeckClient } from '../src/api/client';
import { realTimers, UnlimitedLimiter } from '../src/api/http/limiter';
import { RunStore } from '../src/runs/runStore';
import { presentRun, type TextOptions, type Translate } from '../src/runs/runText';
import { StatusPoller } from '../src/runs/statusPoller';
import { BENCH_GROUP_NAME } from '../src/sandbox/seed/seed';
import { isSandboxChild, startChildSandbox } from './childSandbox';
import { median } from './figures';
import { missed } from './judge';
import type { BenchRow, BenchSection } from './types';

isSandboxChild();

const TASKS = 1_000;
const RUNNING = 30;
const REFRESHES = 15;
const STATUS_ROUTE = 'POST /cloudextraction/statuses/v2';

const ms = (x: number): string => `${x.toFixed(2)} ms`;
const t: Translate = (message, ...args) =>
  message.replace(/\{(\d+)\}/g, (m, i: string) => String(args[Number(i)] ?? m));

async function idle(poller: StatusPoller): Promise<void> {
  while (poller.isPolling) await new Promise((r) => setTimeout(r, 1));
}

export default async function run(): Promise<BenchSection> {
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  // The service's 20 requests a second; runs long enough to stay extracting through the bench.
  const sandbox = await startChildSandbox(__filename, {
    rateLimit: 20,
    seed: 7,
    extraTasks: TASKS,
    runSeconds: 3600,
    queueSeconds: 0,
  });
  const ada = sandbox.info.accounts[0];
  if (!ada) throw new Error('no demo account');
  const client = new ScrapedeckClient({
    baseUrl: sandbox.info.baseUrl,
    credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: ada.apiKey }),
    env: {},
  });
  const setup = new ScrapedeckClient({
    baseUrl: sandbox.info.baseUrl,
    credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: ada.apiKey }),
    env: {},
    limiter: new UnlimitedLimiter(),
  });
  try {
    const group = (await setup.listTaskGroups()).data.find((g) => g.taskGroupName === BENCH_GROUP_NAME);
    if (!group) throw new Error('the sandbox has no Benchmarks group');
    const ids = (await setup.searchTasks(group.taskGroupId)).data.map((task) => task.taskId);
    if (ids.length !== TASKS) throw new Error(`${ids.length} bench tasks, not ${TASKS}`);
    for (const id of ids.slice(0, RUNNING)) await client.startTask(id);

    const store = new RunStore();
    const text: TextOptions = { t, locale: 'en-US', timeZone: 'Europe/Zurich' };
    const repaints: number[] = [];
    const changedPerRefresh: number[] = [];
    let changedNow = 0;
    store.onDidChange((changed) => (changedNow = changed.length));
    let drawn = 0;
    const timedStore = {
      get: (id: string) => store.get(id),
      anyActive: (list: Iterable<string>) => store.anyActive(list),
      isActive: (id: string) => store.isActive(id),
      anySettling: (list: Iterable<string>) => store.anySettling(list),
      apply: (statuses: Parameters<RunStore['apply']>[0], neverRan?: Parameters<RunStore['apply']>[1]) => {
        changedNow = 0;
        const t0 = performance.now();
        store.apply(statuses, neverRan);
        for (const id of ids) {
          const p = presentRun(store.get(id), text);
          // What the row is drawn from: the joined description and the tooltip's lines.
          drawn +=
            (p?.description.length ?? 0) + (p?.tooltip.join('\n').length ?? 0) + (p?.flags.join(' ').length ?? 0);
        }
        repaints.push(performance.now() - t0);
        changedPerRefresh.push(changedNow);
      },
    };
    // The timer is left to the bench (each refresh is asked for), so the interval is long.
    const poller = new StatusPoller({
      timers: realTimers,
      fetch: async (taskIds, signal) => {
        const r = await client.getTaskStatuses(taskIds, { signal });
        return { statuses: r.data, leftOutNeverRan: r.source === 'v2' };
      },
      store: timedStore,
      intervalMs: () => 3_600_000,
      onError: (error) => notes.push(`a poll failed: ${String(error)}`),
    });
    poller.show('group:bench', ids);
    poller.setVisible(true);
    await idle(poller);
    const scheduled = poller.isScheduled;
    const extracting = ids.filter((id) => store.isActive(id)).length;
    repaints.length = 0;
    changedPerRefresh.length = 0;

    const perRefresh: number[] = [];
    const walls: number[] = [];
    for (let i = 0; i < REFRESHES; i++) {
      await new Promise((r) => setTimeout(r, 1000)); // the runs collect rows meanwhile
      const before = (await sandbox.stats()).byRoute[STATUS_ROUTE] ?? 0;
      const t0 = performance.now();
      poller.refresh();
      await idle(poller);
      walls.push(performance.now() - t0);
      perRefresh.push(((await sandbox.stats()).byRoute[STATUS_ROUTE] ?? 0) - before);
    }
    poller.dispose();

    rows.push(
      ...statusRows({ perRefresh, repaints, changedPerRefresh, walls, extracting, scheduled, drawn, problems: notes }),
    );
  } finally {
    await client.close();
    await setup.close();
    await sandbox.close();
  }
  return { title: 'Runs: live status of 1,000 visible tasks (30 running) against the sandbox', rows, notes };
}

/** What the refreshes observed: requests counted at the sandbox, the repaints timed, and what went wrong. */
export interface StatusFigures {
  perRefresh: number[];
  repaints: number[];
  changedPerRefresh: number[];
  walls: number[];
  extracting: number;
  scheduled: boolean;
  /** Characters of row text presented over every repaint: 0 means no row was drawn from a run. */
  drawn: number;
  /** A poll that failed, said by the poller. */
  problems: readonly string[];
}

/** The section's rows, each judged after every check (a poll failed, no row text presented, a refresh missing). */
export function statusRows(f: StatusFigures): BenchRow[] {
  const problems = [...f.problems, ...(f.drawn === 0 ? ['no row text was presented'] : [])];
  const why = problems.length === 0 ? '' : ` (${problems.join('; ')})`;
  const requestsName = `status requests per refresh: ${TASKS.toLocaleString('en')} visible tasks, ${RUNNING} running (${REFRESHES} refreshes)`;
  const repaintName = `repaint per refresh: answer taken in + ${TASKS.toLocaleString('en')} rows presented (median of ${f.repaints.length})`;
  if (f.perRefresh.length !== REFRESHES || f.repaints.length !== REFRESHES) {
    return [
      missed(
        requestsName,
        `${f.perRefresh.length} of ${REFRESHES} refreshes counted, ${f.repaints.length} repaints timed${why}`,
      ),
      missed(repaintName, 'not every refresh was timed'),
    ];
  }
  const most = Math.max(...f.perRefresh);
  const repaint = median(f.repaints);
  return [
    {
      name: requestsName,
      value: `${most} requests${why}`,
      against: `${TASKS} ids / 100 per request`,
      target: '≤ 10',
      pass: problems.length === 0 && most <= 10,
    },
    { name: '  requests per refresh (min – max)', value: `${Math.min(...f.perRefresh)} – ${most}` },
    {
      name: repaintName,
      value: `${ms(repaint)}${why}`,
      target: '≤ 50 ms',
      pass: problems.length === 0 && repaint <= 50,
    },
    { name: '  spread (min – max)', value: `${ms(Math.min(...f.repaints))} – ${ms(Math.max(...f.repaints))}` },
    {
      name: '  rows whose run changed per refresh (median; the running ones grow)',
      value: `${median(f.changedPerRefresh)}`,
    },
    { name: '  one refresh end to end @ 20 req/s (median; context)', value: ms(median(f.walls)) },
    {
      name: `  extracting after the first poll; the poll timer set`,
      value: `${f.extracting} of ${RUNNING}; ${f.scheduled ? 'yes' : 'no'}`,
      target: `${RUNNING}; yes`,
      pass: f.extracting === RUNNING && f.scheduled,
    },
  ];
}
