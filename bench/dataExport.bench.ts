/**
 * Export Data… through the code the command runs (`src/data/export/exportRows.ts`: the reader, the CSV
 * encoder, the temporary file and its rename), against sandboxes in their own processes:
 * - 100,000 rows as CSV at the service's 20 requests a second, against the rate bound
 *   (100 pages of 1,000 = 100 requests = 5.0 s);
 * - the heap of this process (the one running the export) while it exports 1,000,000 rows as CSV
 *   with the limit off: sampled at every page, garbage included, and kept after a full GC.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { MemoryCredentialsStore } from '../src/api/auth/auth';
import { ScrapedeckClient } from '../src/api/client';
import { UnlimitedLimiter } from '../src/api/http/limiter';
import { TaskExport } from '../src/data/export/exportRows';
import { BENCH_GROUP_NAME } from '../src/sandbox/seed/seed';
import { type ChildSandbox, isSandboxChild, startChildSandbox } from './childSandbox';
import { mb, median, seconds, sleep } from './figures';
import { missed, worstOf } from './judge';
import type { BenchRow, BenchSection } from './types';

isSandboxChild();

const RATE = 20;
const EXPORT_ROWS = 100_000;
const HEAP_ROWS = 1_000_000;
const RUNS = 3;
const HEAP_TARGET = 50e6;

function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

function clientFor(sandbox: ChildSandbox, unlimited: boolean): ScrapedeckClient {
  const ada = sandbox.info.accounts[0];
  if (!ada) throw new Error('no demo account');
  return new ScrapedeckClient({
    baseUrl: sandbox.info.baseUrl,
    credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: ada.apiKey }),
    env: {},
    limiter: unlimited ? new UnlimitedLimiter() : undefined,
  });
}

async function bigTask(client: ScrapedeckClient): Promise<string> {
  const group = (await client.listTaskGroups()).data.find((g) => g.taskGroupName === BENCH_GROUP_NAME);
  if (!group) throw new Error('the sandbox has no Benchmarks group');
  const task = (await client.searchTasks(group.taskGroupId)).data[0];
  if (!task) throw new Error('no big task');
  return task.taskId;
}

export default async function run(): Promise<BenchSection> {
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-bench-export-'));
  const [limited, open] = await Promise.all([
    startChildSandbox(__filename, { rateLimit: RATE, seed: 7, bigTaskRows: EXPORT_ROWS }),
    startChildSandbox(__filename, { rateLimit: 0, seed: 7, bigTaskRows: HEAP_ROWS }),
  ]);
  try {
    // ---- 1. Export Data… of 100,000 rows as CSV at 20 req/s ----------------------------------
    {
      const walls: number[] = [];
      let wire429 = 0;
      let bytes = 0;
      for (let i = 0; i < RUNS; i++) {
        const client = clientFor(limited, false);
        const taskId = await bigTask(client);
        await sleep(1100); // an empty window at the server for the measured export
        const before = await limited.stats();
        const target = path.join(dir, `export-${i}.csv`);
        const t0 = performance.now();
        const result = await new TaskExport(client, { taskId, target, format: 'csv' }).run();
        walls.push(performance.now() - t0);
        wire429 += (await limited.stats()).status429 - before.status429;
        bytes = statSync(target).size;
        if (result.rows !== EXPORT_ROWS) notes.push(`run ${i + 1} wrote ${result.rows} rows of ${EXPORT_ROWS}`);
        rmSync(target);
        await client.close();
      }
      const bound = (EXPORT_ROWS / 1000 / RATE) * 1000;
      const wall = median(walls);
      rows.push({
        name: `Export Data… ${EXPORT_ROWS.toLocaleString('en')} rows to CSV @ ${RATE} req/s (median of ${RUNS})`,
        value: seconds(wall),
        against: `bound ${seconds(bound)}`,
        ratio: wall / bound,
        target: '≤ 1.10 x',
        pass: wall / bound <= 1.1 && notes.every((n) => !n.startsWith('run')),
      });
      rows.push({
        name: '  spread over the runs (min – max)',
        value: `${seconds(Math.min(...walls))} – ${seconds(Math.max(...walls))}`,
      });
      rows.push({
        name: '  file written',
        value: mb(bytes),
        against: `${Math.round(bytes / EXPORT_ROWS)} bytes a row`,
      });
      rows.push({
        name: `  429s on the wire (${RUNS} exports; load average ${loadavg()[0]?.toFixed(1) ?? '?'})`,
        value: `${wire429} x 429`,
        against: `${(RUNS * EXPORT_ROWS) / 1000} requests`,
      });
    }

    // ---- 2. this process's heap while exporting 1,000,000 rows as CSV, limit off -------------
    {
      const client = clientFor(open, true);
      const taskId = await bigTask(client);
      const gc = exposeGc();
      gc();
      const base = process.memoryUsage().heapUsed;
      let peak = base;
      let samples = 0;
      const kept: number[] = [];
      let nextCheck = 100_000;
      const target = path.join(dir, 'million.csv');
      const t0 = performance.now();
      const result = await new TaskExport(client, { taskId, target, format: 'csv' }).run({
        onProgress: (p) => {
          samples++;
          peak = Math.max(peak, process.memoryUsage().heapUsed);
          if (p.rows >= nextCheck) {
            nextCheck += 100_000;
            gc();
            kept.push(process.memoryUsage().heapUsed - base);
          }
        },
      });
      const wall = performance.now() - t0;
      const size = statSync(target).size;
      rmSync(target);
      // Judged only when every checkpoint was sampled: a peak read from no sample is 0 MB.
      const checkpoints = HEAP_ROWS / 100_000;
      const worstKept = result.rows === HEAP_ROWS ? worstOf(kept, checkpoints) : undefined;
      const name = `heap growth of the exporting process over ${HEAP_ROWS.toLocaleString('en')} rows (peak at any page, garbage included)`;
      if (worstKept === undefined || samples === 0) {
        rows.push(
          missed(
            name,
            `${result.rows.toLocaleString('en')} rows written, ${samples} progress samples, ${kept.length} of ${checkpoints} checkpoints`,
          ),
        );
      } else {
        rows.push({
          name,
          value: mb(peak - base),
          against: `${result.rows.toLocaleString('en')} rows, ${mb(size)} written; ${samples} samples`,
          target: `≤ ${mb(HEAP_TARGET)}`,
          pass: peak - base <= HEAP_TARGET,
        });
        rows.push({
          name: `  kept after a full GC (worst of ${kept.length} checkpoints: flat)`,
          value: mb(worstKept),
          against: `at 100,000 rows ${mb(kept[0] ?? NaN)}, at the last ${mb(kept.at(-1) ?? NaN)}`,
        });
      }
      rows.push({
        name: '  time (context: the sandbox generates every row)',
        value: seconds(wall),
        against: `${Math.round(result.rows / (wall / 1000)).toLocaleString('en')} rows/s`,
      });
      await client.close();
    }
  } finally {
    await Promise.all([limited.close(), open.close()]);
    rmSync(dir, { recursive: true, force: true });
  }
  return { title: 'Export Data…: the export code path against the sandbox', rows, notes };
}
