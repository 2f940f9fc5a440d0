/**
 * A PostgreSQL pull in a process of its own, so the heap it grows is the pull's alone: nothing
 * of the bench's other sections (their garbage, and the old-generation limit V8 sets from their
 * collections) is in it. The child is this very bundle, forked with an environment flag and
 * `--expose-gc`, as `childSandbox.ts` forks the sandbox; it runs one pull through the code the
 * extension runs (`pgPullOnce`), sends its figures and exits.
 *
 * Heap growth is `used_heap_size` minus the used heap after a full collection just before the
 * pull (the client, `pg` and the task already loaded, as in an extension host that pulls):
 * - peak: the largest growth sampled after every batch and every millisecond the event loop is
 *   free (garbage included: what the process holds at that moment);
 * - retained: the growth after a full collection once the pull has ended (what it keeps).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { constants, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

import { connectionOf, pgPullOnce } from '../test/shared/pgPull';
import { testServer } from '../test/shared/pgServer';
import { bigTask, sandboxClient } from '../test/shared/pullScenario';

const FLAG = 'SCRAPEDECK_BENCH_PG_PULL';

export interface PgPullJob {
  baseUrl: string;
  apiKey: string;
  schema: string;
}

export interface PgPullFigures {
  taskId: string;
  rows: number;
  wallMs: number;
  /** Used heap after a full collection before the pull. */
  baseBytes: number;
  /** Largest used heap minus the base, sampled during the pull. */
  peakBytes: number;
  /** Used heap after a full collection at the end, minus the base. */
  retainedBytes: number;
  /** Largest `external` memory (Buffers: the batch JSON) minus its base. */
  peakExternalBytes: number;
  /** Heap samples taken. */
  samples: number;
  /** Full (mark-compact) collections V8 made during the pull. */
  majorGcs: number;
}

type FromChild = { type: 'done'; figures: PgPullFigures } | { type: 'failed'; message: string };

const used = (): number => getHeapStatistics().used_heap_size;

async function pullHere(job: PgPullJob): Promise<PgPullFigures> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('the pull child runs without --expose-gc');
  const server = testServer();
  const c = sandboxClient(job.baseUrl, job.apiKey, false);
  try {
    const task = await bigTask(c);
    let majorGcs = 0;
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { detail?: { kind?: number } })[]) {
        if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majorGcs++;
      }
    });
    gc();
    gc();
    const base = used();
    const baseExternal = process.memoryUsage().external;
    let peak = 0;
    let peakExternal = 0;
    let samples = 0;
    const sample = (): void => {
      samples++;
      peak = Math.max(peak, used() - base);
    };
    const sampleExternal = (): void => {
      sample();
      peakExternal = Math.max(peakExternal, process.memoryUsage().external - baseExternal);
    };
    observer.observe({ entryTypes: ['gc'] });
    const timer = setInterval(sample, 1);
    const t0 = performance.now();
    let result;
    try {
      result = await pgPullOnce({
        source: c,
        task,
        connection: connectionOf(server, job.schema),
        password: server.password,
        pull: { onProgress: sampleExternal },
      });
    } finally {
      clearInterval(timer);
      await new Promise((resolve) => setImmediate(resolve)); // the last collections' entries delivered
      observer.disconnect();
    }
    const wallMs = performance.now() - t0;
    sample();
    gc();
    gc();
    return {
      taskId: task.taskId,
      rows: result.rows,
      wallMs,
      baseBytes: base,
      peakBytes: peak,
      retainedBytes: used() - base,
      peakExternalBytes: peakExternal,
      samples,
      majorGcs,
    };
  } finally {
    await c.close();
  }
}

/** Call at the top of a bench module: in the forked child it runs the pull instead. */
export function isPgPullChild(): boolean {
  const raw = process.env[FLAG];
  if (raw === undefined || !process.send) return false;
  void pullHere(JSON.parse(raw) as PgPullJob).then(
    (figures) => process.send?.({ type: 'done', figures } satisfies FromChild, () => process.exit(0)),
    (error: unknown) =>
      process.send?.(
        { type: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies FromChild,
        () => process.exit(1),
      ),
  );
  return true;
}

/** One pull in a fresh process of `moduleFile` (a bench bundle that calls `isPgPullChild()` first). */
export function pgPullInChild(moduleFile: string, job: PgPullJob): Promise<PgPullFigures> {
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
        reject(new Error(answer?.type === 'failed' ? answer.message : `the pull child exited (${code ?? 'signal'})`));
    });
  });
}
