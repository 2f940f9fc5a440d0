/**
 * Issue 43's figures for the data browser's store (src/data/browse/store), the code the browser
 * runs in the extension host, on a 1,000,000-row CSV of about 300 MB written here:
 * - open to the first rows read (the first window while the index is still being built);
 * - fully indexed (counts, sort and filter ready), with the progress reports counted;
 * - a stable sort by a text column and by a number column; a search over every column;
 * - the heap growth of this process across all of it (the rows stay in the file).
 * - a 1,000,000-row SQLite table read through the SQLite worker (`browseSqlite.ts`).
 * - the page (headless Chromium, the host's real session over the same store): a scroll through
 *   every row, its frame times' p95, and the page's heap after it.
 * - a task of 100,000 rows at a sandbox allowing 20 requests a second, browsed as Browse Data
 *   does it but without VS Code (bench/browseTask.ts): command to first rows painted, every row
 *   loaded against the rate bound, 429s at the server.
 * A row that could not be measured is a MISSED row with the reason, never left out.
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { indexFile } from '../src/data/browse/store/fileIndexer';
import { RecordFile } from '../src/data/browse/store/recordFile';
import { RowStore } from '../src/data/browse/store/rowStore';
import { mulberry32 } from '../src/sandbox/seed/prng';
import { repoRoot } from '../test/page/harness';
import { measurePage } from './browsePage';
import { sqliteRows } from './browseSqlite';
import { timedStep, viewSteps } from './browseSteps';
import { browseTask } from './browseTask';
import { isSandboxChild, startChildSandbox } from './childSandbox';
import { measureCase, missed, no429Row } from './judge';
import type { BenchRow, BenchSection } from './types';

isSandboxChild();

const ROWS = 1_000_000;
const TASK_ROWS = 100_000;
const RATE = 20;
const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

async function writeCsv(file: string): Promise<void> {
  const random = mulberry32(43);
  const out = createWriteStream(file);
  const words = ['pear', 'Apple', 'fig', 'kiwi', 'plum', 'mango', 'lime', 'date', 'grape', 'melon'];
  out.write('id,name,price,day,url,description,stock,shop\n');
  for (let i = 0; i < ROWS; i++) {
    const w = words[Math.floor(random() * words.length)] as string;
    const price = random() < 0.1 ? '' : (random() * 1000).toFixed(2);
    const day = `2024-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`;
    const desc = `"${w} ${'lorem ipsum dolor sit amet, consectetur '.repeat(4)}""quoted"" ${i}"`;
    const line = `${i},${w} ${Math.floor(random() * 5000)},${price},${day},https://shop.example/${w}/${i},${desc},${Math.floor(random() * 100)},shop ${i % 97}\n`;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

/** Every row loaded against the rate bound: the requests the server answered, at RATE a second. */
function loadRow(ms: number, requests: number, problems: string[]): BenchRow {
  const name = `a task of ${TASK_ROWS.toLocaleString('en-US')} rows fully loaded (${requests} requests @ ${RATE} req/s)`;
  if (requests <= 0) return missed(name, 'no request reached the server');
  const bound = (requests / RATE) * 1000;
  const ratio = ms / bound;
  return {
    name,
    value: problems.length > 0 ? `${seconds(ms)} (${problems.join('; ')})` : seconds(ms),
    against: `bound ${seconds(bound)}`,
    ratio,
    target: '≤ 1.05 x',
    pass: problems.length === 0 && ratio <= 1.05,
  };
}

export default async function run(): Promise<BenchSection> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const dir = mkdtempSync(path.join(tmpdir(), 'browse-bench-'));
  const rows: BenchRow[] = [];
  try {
    const file = path.join(dir, 'big.csv');
    await writeCsv(file);
    const size = statSync(file).size;
    gc();
    // The JavaScript heap and the ArrayBuffers beside it (the index, the view and the sort keys are typed arrays).
    const used = (): number => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    const base = used();
    let peak = 0;
    const sample = (): void => void (peak = Math.max(peak, used() - base));
    const timer = setInterval(sample, 50);
    const records = await RecordFile.open(file, 'csv');
    const store = new RowStore(records);
    rows.push(
      ...(await measureCase('1,000,000-row CSV: open to first rows', async () => {
        const started = performance.now();
        let first: number | undefined;
        let progress = 0;
        const indexing = indexFile(records, {
          onProgress: () => {
            progress++;
            if (first === undefined && records.count >= 100) {
              first = -1;
              void store.window(0, 100).then((w) => {
                if (w.length === 100 && w[0]?.cells[0] === '0') first = performance.now() - started;
              });
            }
          },
        });
        await indexing;
        const indexed = performance.now() - started;
        if (records.count !== ROWS) throw new Error(`indexed ${records.count} rows, not ${ROWS}`);
        if (first === undefined || first < 0) throw new Error('the first window was not read');
        return [
          {
            name: `1,000,000-row CSV (${mb(size)}): open to first rows read`,
            value: seconds(first),
            target: '≤ 1.0 s',
            pass: first <= 1000,
          },
          {
            name: '1,000,000-row CSV: fully indexed (counts ready)',
            value: `${seconds(indexed)}, ${progress} progress reports`,
            target: '≤ 15 s, with progress',
            pass: indexed <= 15_000 && progress > 10,
          },
        ];
      })),
    );
    rows.push(
      ...(await viewSteps(
        {
          text: 'sort 1,000,000 rows by a text column',
          number: 'sort 1,000,000 rows by a number column',
          search: 'filter 1,000,000 rows by a search term',
        },
        ROWS,
        (view) => store.setView(view),
      )),
    );
    rows.push(
      ...(await timedStep(
        'sort 1,000,000 rows by the text column again, other direction (kept keys)',
        2,
        () => store.setView({ sort: { column: 1, direction: 'desc' } }),
        (n) => n === ROWS,
      )),
    );
    clearInterval(timer);
    sample();
    rows.push({
      name: 'extension host heap growth at 1,000,000 rows (peak, JS heap + ArrayBuffers: index, sorts, filter)',
      value: `${mb(peak)}, ${store.keys.size} columns' keys kept`,
      target: '≤ 150 MB',
      pass: peak <= 150e6,
    });
    await store.close(); // the page opens the file afresh, as the custom editor does
    rows.push(
      ...(await measureCase('the page at 1,000,000 rows', async () => {
        const root = repoRoot();
        execFileSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'inherit' }); // the page under test is the current source
        const f = await measurePage(root, file, ROWS);
        const sorted = [...f.frames].sort((a, b) => a - b);
        const p95 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))];
        if (p95 === undefined || f.frames.length !== 600) throw new Error(`${f.frames.length} frames timed, not 600`);
        if (!f.lastRowPainted) throw new Error('the last row was never painted');
        return [
          {
            name: '1,000,000-row CSV: open to first rows painted, index built meanwhile (page in headless Chromium, host session, no VS Code)',
            value: f.paintedBeforeIndexed
              ? seconds(f.firstPaintMs)
              : `${seconds(f.firstPaintMs)}, only after the whole index`,
            target: '≤ 1.0 s, before the index is whole',
            pass: f.firstPaintMs <= 1000 && f.paintedBeforeIndexed,
          },
          {
            name: 'scroll through 1,000,000 rows: frame time p95 (600 frames, first row to last; headless Chromium)',
            value: `${p95.toFixed(1)} ms (median ${(sorted[300] ?? NaN).toFixed(1)}, max ${(sorted[599] ?? NaN).toFixed(1)})`,
            target: '≤ 16 ms',
            pass: p95 <= 16,
          },
          {
            name: 'page heap at 1,000,000 rows (after the scroll, after a GC)',
            value: mb(f.heapBytes),
            target: '≤ 100 MB',
            pass: f.heapBytes > 0 && f.heapBytes <= 100e6,
          },
        ];
      })),
    );
    rmSync(file, { force: true });
    rows.push(...(await sqliteRows(dir, path.dirname(require.resolve('node-sqlite3-wasm')), gc)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  rows.push(
    ...(await measureCase('a task at the sandbox: command to first rows painted', async () => {
      const sandbox = await startChildSandbox(__filename, { rateLimit: RATE, seed: 7, bigTaskRows: TASK_ROWS });
      try {
        const f = await browseTask(repoRoot(), sandbox, TASK_ROWS);
        const problems = f.rows === TASK_ROWS ? [] : [`${f.rows} rows loaded, not ${TASK_ROWS}`];
        return [
          {
            name: 'a task at the sandbox: command to first rows painted (host code + page in headless Chromium, no VS Code)',
            value: seconds(f.firstPaintMs),
            target: '≤ 1.0 s',
            pass: f.firstPaintMs <= 1000 && problems.length === 0,
          },
          loadRow(f.loadedMs, f.requests, problems),
          no429Row('  429s at the server while it loaded', f.limited, f.requests),
        ];
      } finally {
        await sandbox.close();
      }
    })),
  );
  return { title: 'Data browser (issue 43): the store on a 1,000,000-row CSV', rows };
}
