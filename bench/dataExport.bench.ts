/**
 * Export Data… through the code the command runs (`src/data/export/exportRows.ts`: the reader, the CSV
 * encoder, the temporary file and its rename), against sandboxes in their own processes:
 * - 100,000 rows as CSV at the service's 20 requests a second, against the rate bound
 *   (100 pages of 1,000 = 100 requests = 5.0 s);
 * - the heap of a process of its own (`childExportHeap.ts`) while it exports 1,000,000 rows as
 *   CSV with the limit off: sampled at every page and every free millisecond, garbage included,
 *   and kept after a full GC at the end. (Measured in this process, the sections run before it
 *   decided when V8's first full collection came: 36.6 MB in one full run, 53.5 MB in another.)
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';

import { MemoryCredentialsStore } from '../src/api/auth/auth';
import { ScrapedeckClient } from '../src/api/client';
import { TaskExport } from '../src/data/export/exportRows';
import { bigTaskId, type ExportHeapFigures, exportHeapInChild, isExportHeapChild } from './childExportHeap';
import { type ChildSandbox, isSandboxChild, startChildSandbox } from './childSandbox';
import { mb, median, seconds, sleep } from './figures';
import { measureCase, missed } from './judge';
import type { BenchRow, BenchSection } from './types';

isSandboxChild();
isExportHeapChild();

const RATE = 20;
const EXPORT_ROWS = 100_000;
const HEAP_ROWS = 1_000_000;
const RUNS = 3;
const HEAP_TARGET = 50e6;
/** The export reads pages of 1,000 rows: one progress report (and heap sample) each. */
const HEAP_PAGES = HEAP_ROWS / 1000;
const HEAP_NAME = `Export Data… heap growth over ${HEAP_ROWS.toLocaleString('en')} rows to CSV, in a process of its own (peak at any page, garbage included)`;

function clientFor(sandbox: ChildSandbox): ScrapedeckClient {
  const ada = sandbox.info.accounts[0];
  if (!ada) throw new Error('no demo account');
  return new ScrapedeckClient({
    baseUrl: sandbox.info.baseUrl,
    credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: ada.apiKey }),
    env: {},
  });
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
        const client = clientFor(limited);
        const taskId = await bigTaskId(client);
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

    // ---- 2. the heap of an export of 1,000,000 rows as CSV, limit off, in its own process ------
    {
      const ada = open.info.accounts[0];
      rows.push(
        ...(await measureCase(HEAP_NAME, async () =>
          exportHeapRows(
            await exportHeapInChild(__filename, {
              baseUrl: open.info.baseUrl,
              apiKey: ada?.apiKey ?? '',
              target: path.join(dir, 'million.csv'),
            }),
          ),
        )),
      );
    }
  } finally {
    await Promise.all([limited.close(), open.close()]);
    rmSync(dir, { recursive: true, force: true });
  }
  return { title: 'Export Data…: the export code path against the sandbox', rows, notes };
}

/**
 * The heap rows, judged on what the child observed: an export that wrote fewer rows, or whose
 * pages were not all sampled, measured nothing worth a pass (a peak of no sample is 0 MB).
 */
export function exportHeapRows(f: ExportHeapFigures): BenchRow[] {
  if (f.rows !== HEAP_ROWS || f.pages < HEAP_PAGES || f.samples <= f.pages) {
    return [
      missed(
        HEAP_NAME,
        `${f.rows.toLocaleString('en')} of ${HEAP_ROWS.toLocaleString('en')} rows written, ${f.pages} of ${HEAP_PAGES} pages sampled, ${f.samples} samples`,
      ),
    ];
  }
  return [
    {
      name: HEAP_NAME,
      value: mb(f.peakBytes),
      against: `${f.rows.toLocaleString('en')} rows, ${mb(f.fileBytes)} written; ${f.samples} samples, ${f.majorGcs} full GC(s)`,
      target: `≤ ${mb(HEAP_TARGET)}`,
      pass: f.peakBytes <= HEAP_TARGET,
    },
    {
      name: '  kept after a full GC at the end',
      value: mb(f.retainedBytes),
      against: `base ${mb(f.baseBytes)}`,
    },
    {
      name: '  time (context: the sandbox generates every row)',
      value: seconds(f.wallMs),
      against: `${Math.round(f.rows / (f.wallMs / 1000)).toLocaleString('en')} rows/s`,
    },
  ];
}
