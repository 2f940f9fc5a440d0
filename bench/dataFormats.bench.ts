/**
 * Issue 29's figures, through the code the commands run, against sandboxes in their own processes:
 * - Pull New Rows of 100,000 rows into SQLite at the service's 20 requests a second, against the
 *   rate bound (100 batches: a not-exported request and a mark each = 200 requests = 10.0 s), and
 *   the 429s the sandbox counted on the wire (target 0);
 * - Export Data… of 100,000 rows to .xlsx at 20 req/s (100 pages = 5.0 s), and its 429s;
 * - the heap of this process over 1,000,000 rows: pulled into SQLite, and exported to .xlsx (past
 *   a sheet's 1,048,575 rows: 1,100,000, and the sheets' rows counted back by Python);
 * - pulls killed (SIGKILL, a child process) at every point of a batch for CSV, JSON Lines and
 *   SQLite, then completed, the destination compared with the sandbox row by row.
 * A row passes only on what it observed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { TaskExport } from '../src/data/export/exportRows';
import type { PullFormat } from '../src/data/pull/pullSinks';
import { compareRows, expected, PYTHON, readBack } from '../test/shared/pullDestination';
import { isKillChild, KILL_POINTS, killedPull } from '../test/shared/pullKill';
import { bigTask, EXTENSIONS, pullOnce, sandboxClient, TaskPool } from '../test/shared/pullScenario';
import { type ChildSandbox, isSandboxChild, startChildSandbox } from './childSandbox';
import { mb, seconds, sleep } from './figures';
import { no429Row } from './judge';
import type { BenchRow, BenchSection } from './types';

isSandboxChild();
isKillChild();

const RATE = 20;
const ROWS = 100_000;
const HEAP_ROWS = 1_000_000;
const XLSX_HEAP_ROWS = 1_100_000;
const HEAP_TARGET = 50e6;

function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

function client(sandbox: ChildSandbox, limited: boolean) {
  const ada = sandbox.info.accounts[0];
  if (!ada) throw new Error('no demo account');
  return sandboxClient(sandbox.info.baseUrl, ada.apiKey, limited);
}

/** Heap growth while work runs, sampled by `sample()`; and the process's resident memory (SQLite's WebAssembly memory is outside the heap). */
interface HeapProbe {
  /** An `onProgress` that samples the heap at every report and collects at every `every` rows. */
  onProgress(every: number): (p: { rows: number }) => void;
  report(): { peak: number; outside: number; kept: number[] };
}

function heapProbe(): HeapProbe {
  const gc = exposeGc();
  gc();
  const base = process.memoryUsage();
  let peak = 0;
  let outside = 0;
  const kept: number[] = [];
  return {
    onProgress(every) {
      let next = every;
      return (p) => {
        const m = process.memoryUsage();
        peak = Math.max(peak, m.heapUsed - base.heapUsed);
        outside = Math.max(outside, m.rss);
        if (p.rows < next) return;
        next += every;
        gc();
        kept.push(process.memoryUsage().heapUsed - base.heapUsed);
      };
    },
    report: () => ({ peak, outside, kept }),
  };
}

/** The judged peak of a probe's run and, beside it, what was kept at the worst checkpoint. */
function heapRows(name: string, r: ReturnType<HeapProbe['report']>, against: string, complete: boolean): BenchRow[] {
  return [
    { name, value: mb(r.peak), against, target: `≤ ${mb(HEAP_TARGET)}`, pass: r.peak <= HEAP_TARGET && complete },
    {
      name: '  kept after a full GC (worst checkpoint: flat)',
      value: mb(Math.max(...r.kept)),
      against: `first ${mb(r.kept[0] ?? NaN)}, last ${mb(r.kept.at(-1) ?? NaN)}`,
    },
  ];
}

export default async function run(): Promise<BenchSection> {
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-bench-formats-'));
  const [pullLimited, exportLimited, pullOpen, exportOpen, kills] = await Promise.all([
    startChildSandbox(__filename, { rateLimit: RATE, seed: 7, bigTaskRows: ROWS }),
    startChildSandbox(__filename, { rateLimit: RATE, seed: 7, bigTaskRows: ROWS }),
    startChildSandbox(__filename, { rateLimit: 0, seed: 7, bigTaskRows: HEAP_ROWS }),
    startChildSandbox(__filename, { rateLimit: 0, seed: 7, bigTaskRows: XLSX_HEAP_ROWS }),
    startChildSandbox(__filename, { rateLimit: 0, seed: 29, extraTasks: 80 }),
  ]);
  try {
    // ---- 1. Pull New Rows: 100,000 rows into SQLite @ 20 req/s --------------------------------
    {
      const c = client(pullLimited, true);
      const task = await bigTask(c);
      await sleep(1100);
      const before = await pullLimited.stats();
      const file = path.join(dir, 'pull.sqlite');
      const t0 = performance.now();
      const result = await pullOnce({ source: c, task, file, format: 'sqlite' });
      const wall = performance.now() - t0;
      const after = await pullLimited.stats();
      const requests = after.requests - before.requests;
      const wire429 = after.status429 - before.status429;
      const stored = readBack(file, 'sqlite', task.taskId).length;
      const bound = (requests / RATE) * 1000;
      rows.push({
        name: `Pull New Rows ${ROWS.toLocaleString('en')} rows into SQLite @ ${RATE} req/s`,
        value: seconds(wall),
        against: `bound ${seconds(bound)} (${requests} requests)`,
        ratio: wall / bound,
        target: '≤ 1.10 x',
        pass: wall / bound <= 1.1 && result.rows === ROWS && stored === ROWS,
      });
      rows.push({
        name: "  rows in the table, read back by Python's sqlite3",
        value: stored.toLocaleString('en'),
        target: ROWS.toLocaleString('en'),
        pass: stored === ROWS,
      });
      rows.push(
        no429Row(`  429s counted by the sandbox (load average ${loadavg()[0]?.toFixed(1) ?? '?'})`, wire429, requests),
      );
      rows.push({ name: '  database file', value: mb(statSync(file).size) });
      await c.close();
    }

    // ---- 2. Export Data…: 100,000 rows to .xlsx @ 20 req/s -----------------------------------
    {
      const c = client(exportLimited, true);
      const task = await bigTask(c);
      await sleep(1100);
      const before = await exportLimited.stats();
      const target = path.join(dir, 'export.xlsx');
      const t0 = performance.now();
      const result = await new TaskExport(c, {
        taskId: task.taskId,
        taskName: task.taskName,
        target,
        format: 'xlsx',
      }).run();
      const wall = performance.now() - t0;
      const after = await exportLimited.stats();
      const requests = (after.byRoute['GET /data/all'] ?? 0) - (before.byRoute['GET /data/all'] ?? 0);
      const bound = (requests / RATE) * 1000;
      const counted = Number(
        execFileSync(
          PYTHON,
          [
            '-c',
            'import openpyxl,sys\nwb=openpyxl.load_workbook(sys.argv[1],read_only=True)\nprint(sum(1 for ws in wb.worksheets for _ in ws.iter_rows()))',
            target,
          ],
          { encoding: 'utf8', maxBuffer: 1 << 20 },
        ).trim(),
      );
      rows.push({
        name: `Export Data… ${ROWS.toLocaleString('en')} rows to .xlsx @ ${RATE} req/s`,
        value: seconds(wall),
        against: `bound ${seconds(bound)} (${requests} requests)`,
        ratio: wall / bound,
        target: '≤ 1.10 x',
        pass: wall / bound <= 1.1 && result.rows === ROWS,
      });
      rows.push({
        name: '  rows openpyxl reads back (header included)',
        value: counted.toLocaleString('en'),
        target: (ROWS + 1).toLocaleString('en'),
        pass: counted === ROWS + 1,
      });
      rows.push(
        no429Row('  429s counted by the sandbox', after.status429 - before.status429, after.requests - before.requests),
      );
      rows.push({ name: '  workbook file', value: mb(statSync(target).size) });
      await c.close();
    }

    // ---- 3. heap over 1,000,000 rows: pulled into SQLite, exported to .xlsx (limit off) -------
    {
      const c = client(pullOpen, false);
      const task = await bigTask(c);
      const probe = heapProbe();
      const t0 = performance.now();
      const result = await pullOnce({
        source: c,
        task,
        file: path.join(dir, 'million.sqlite'),
        format: 'sqlite',
        pull: { onProgress: probe.onProgress(100_000) },
      });
      const wall = performance.now() - t0;
      const r = probe.report();
      rows.push(
        ...heapRows(
          `heap growth pulling ${HEAP_ROWS.toLocaleString('en')} rows into SQLite (peak at any batch, garbage included)`,
          r,
          `${result.rows.toLocaleString('en')} rows in ${seconds(wall)}`,
          result.rows === HEAP_ROWS,
        ),
      );
      rows.push({
        name: '  resident memory of the whole process at its peak (WebAssembly memory included; the sandboxes run apart)',
        value: mb(r.outside),
      });
      await c.close();
    }
    {
      const c = client(exportOpen, false);
      const task = await bigTask(c);
      const probe = heapProbe();
      const target = path.join(dir, 'million.xlsx');
      const t0 = performance.now();
      const result = await new TaskExport(c, {
        taskId: task.taskId,
        taskName: task.taskName,
        target,
        format: 'xlsx',
      }).run({ onProgress: probe.onProgress(100_000) });
      const wall = performance.now() - t0;
      const r = probe.report();
      // The sheets' rows, counted in the XML itself (openpyxl would take minutes for a million rows).
      const perSheet = execFileSync(
        PYTHON,
        [
          '-c',
          'import zipfile,sys,re\nz=zipfile.ZipFile(sys.argv[1])\nfor n in sorted(x for x in z.namelist() if x.startswith("xl/worksheets/")):\n    c=0\n    with z.open(n) as f:\n        tail=b""\n        while True:\n            b=f.read(1<<20)\n            if not b: break\n            c+=(tail+b).count(b"<row ")-tail.count(b"<row ")\n            tail=b[-8:]\n    print(c)',
          target,
        ],
        { encoding: 'utf8' },
      )
        .trim()
        .split('\n')
        .map(Number);
      const sheetsOk =
        perSheet.length === 2 && perSheet[0] === 1_048_576 && perSheet[1] === XLSX_HEAP_ROWS - 1_048_575 + 1;
      rows.push(
        ...heapRows(
          `heap growth exporting ${XLSX_HEAP_ROWS.toLocaleString('en')} rows to .xlsx (peak at any page, garbage included)`,
          r,
          `${result.rows.toLocaleString('en')} rows, ${mb(statSync(target).size)}, in ${seconds(wall)}`,
          result.rows === XLSX_HEAP_ROWS,
        ),
      );
      rows.push({
        name: '  rows per sheet in the file (header included)',
        value: perSheet.map((n) => n.toLocaleString('en')).join(' + '),
        target: '1,048,576 + 51,426',
        pass: sheetsOk,
      });
      await c.close();
    }

    // ---- 4. pulls killed at every point, then completed ------------------------------------------
    {
      const pool = await TaskPool.of(client(kills, false));
      const ada = kills.info.accounts[0];
      if (!ada) throw new Error('no demo account');
      for (const format of ['csv', 'jsonl', 'sqlite'] as PullFormat[]) {
        let missing = 0;
        let twice = 0;
        let wrong = 0;
        let scenarios = 0;
        for (const point of KILL_POINTS[format]) {
          for (const batch of [1, 2]) {
            const { task, rows: want } = await pool.next(75);
            const file = path.join(dir, `kill-${point}-${batch}.${EXTENSIONS[format]}`);
            await killedPull(__filename, {
              baseUrl: kills.info.baseUrl,
              apiKey: ada.apiKey,
              task,
              file,
              format,
              batchSize: 25,
              point,
              batch,
            });
            await pullOnce({ source: pool.client, task, file, format, batchSize: 25 });
            const c = compareRows(
              readBack(file, format, task.taskId),
              want.map((r) => expected(r, format)),
            );
            missing += c.missing;
            twice += c.twice;
            wrong += c.wrong;
            scenarios++;
          }
        }
        rows.push({
          name: `pulls into ${format} killed at ${KILL_POINTS[format].join(', ')} (batch 1 and 2), then completed`,
          value: `${missing} missing, ${twice} twice`,
          against: `${scenarios} kills, ${wrong} out of place`,
          target: '0 missing, 0 twice',
          pass: scenarios === KILL_POINTS[format].length * 2 && missing === 0 && twice === 0 && wrong === 0,
        });
      }
      await pool.client.close();
    }
  } finally {
    await Promise.all([
      pullLimited.close(),
      exportLimited.close(),
      pullOpen.close(),
      exportOpen.close(),
      kills.close(),
    ]);
    rmSync(dir, { recursive: true, force: true });
  }
  notes.push(
    'SQLite is node-sqlite3-wasm: its page cache lives in WebAssembly memory, outside the JavaScript heap; the resident-memory row shows the whole process.',
  );
  return {
    title: 'Data exactly once, SQLite and Excel: the pull and export code paths against the sandbox',
    rows,
    notes,
  };
}
