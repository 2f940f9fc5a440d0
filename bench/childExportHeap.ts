/**
 * Export Data… of the big task as CSV in a process of its own, so the heap it grows is the
 * export's alone: in the bench's own process, the old-generation limit V8 set from the sections
 * that ran before decided when the first full collection came, and the same export measured
 * 36.6 MB in one full run and 53.5 MB in another. The child is this very bundle, forked with an
 * environment flag and `--expose-gc` (as `childPgPull.ts` does for the PostgreSQL pull); it runs
 * one export through the code the command runs (`TaskExport`), sends its figures and exits.
 *
 * Heap growth, as for the pull: `used_heap_size` minus the used heap after a full collection just
 * before the export (the client and the task already loaded):
 * - peak: the largest growth sampled after every page and every millisecond the event loop is
 *   free (garbage included: what the process holds at that moment);
 * - retained: the growth after a full collection once the export has ended (what it keeps).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import { constants, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

import { MemoryCredentialsStore } from '../src/api/auth/auth';
import { ScrapedeckClient } from '../src/api/client';
import { UnlimitedLimiter } from '../src/api/http/limiter';
import { TaskExport } from '../src/data/export/exportRows';
import { BENCH_GROUP_NAME } from '../src/sandbox/seed/seed';

const FLAG = 'SCRAPEDECK_BENCH_EXPORT_HEAP';

export interface ExportHeapJob {
  /** A sandbox with its rate limit off. */
  baseUrl: string;
  apiKey: string;
  /** The CSV file written (removed once measured). */
  target: string;
}

export interface ExportHeapFigures {
  rows: number;
  fileBytes: number;
  wallMs: number;
  /** Used heap after a full collection before the export. */
  baseBytes: number;
  /** Largest used heap minus the base, sampled during the export. */
  peakBytes: number;
  /** Used heap after a full collection at the end, minus the base. */
  retainedBytes: number;
  /** Progress reports (one a page), each sampled. */
  pages: number;
  /** Heap samples taken (pages and timer ticks). */
  samples: number;
  /** Full (mark-compact) collections V8 made during the export. */
  majorGcs: number;
}

type FromChild = { type: 'done'; figures: ExportHeapFigures } | { type: 'failed'; message: string };

const used = (): number => getHeapStatistics().used_heap_size;

/** The sandbox's big task (its Benchmarks group's first). */
export async function bigTaskId(client: ScrapedeckClient): Promise<string> {
  const group = (await client.listTaskGroups()).data.find((g) => g.taskGroupName === BENCH_GROUP_NAME);
  if (!group) throw new Error('the sandbox has no Benchmarks group');
  const task = (await client.searchTasks(group.taskGroupId)).data[0];
  if (!task) throw new Error('no big task');
  return task.taskId;
}

async function exportHere(job: ExportHeapJob): Promise<ExportHeapFigures> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('the export child runs without --expose-gc');
  const client = new ScrapedeckClient({
    baseUrl: job.baseUrl,
    credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: job.apiKey }),
    env: {},
    limiter: new UnlimitedLimiter(),
  });
  try {
    const taskId = await bigTaskId(client);
    let majorGcs = 0;
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { detail?: { kind?: number } })[]) {
        if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majorGcs++;
      }
    });
    gc();
    gc();
    const base = used();
    let peak = 0;
    let samples = 0;
    let pages = 0;
    const sample = (): void => {
      samples++;
      peak = Math.max(peak, used() - base);
    };
    observer.observe({ entryTypes: ['gc'] });
    const timer = setInterval(sample, 1);
    const t0 = performance.now();
    let result;
    try {
      result = await new TaskExport(client, { taskId, target: job.target, format: 'csv' }).run({
        onProgress: () => {
          pages++;
          sample();
        },
      });
    } finally {
      clearInterval(timer);
      await new Promise((resolve) => setImmediate(resolve)); // the last collections' entries delivered
      observer.disconnect();
    }
    const wallMs = performance.now() - t0;
    sample();
    const fileBytes = statSync(job.target).size;
    gc();
    gc();
    return {
      rows: result.rows,
      fileBytes,
      wallMs,
      baseBytes: base,
      peakBytes: peak,
      retainedBytes: used() - base,
      pages,
      samples,
      majorGcs,
    };
  } finally {
    rmSync(job.target, { force: true });
    await client.close();
  }
}

/** Call at the top of a bench module: in the forked child it runs the export instead. */
export function isExportHeapChild(): boolean {
  const raw = process.env[FLAG];
  if (raw === undefined || !process.send) return false;
  void exportHere(JSON.parse(raw) as ExportHeapJob).then(
    (figures) => process.send?.({ type: 'done', figures } satisfies FromChild, () => process.exit(0)),
    (error: unknown) =>
      process.send?.(
        { type: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies FromChild,
        () => process.exit(1),
      ),
  );
  return true;
}

/** One export in a fresh process of `moduleFile` (a bench bundle that calls `isExportHeapChild()` first). */
export function exportHeapInChild(moduleFile: string, job: ExportHeapJob): Promise<ExportHeapFigures> {
  const child: ChildProcess = fork(moduleFile, [], {
    env: { ...process.env, [FLAG]: JSON.stringify(job) },
    execArgv: [...process.execArgv, '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let answer: FromChild | undefined;
    child.once('error', reject);
    child.on('message', (m: FromChild) => void (answer = m));
    child.once('exit', (code) => {
      if (answer?.type === 'done') resolve(answer.figures);
      else
        reject(new Error(answer?.type === 'failed' ? answer.message : `the export child exited (${code ?? 'signal'})`));
    });
  });
}
