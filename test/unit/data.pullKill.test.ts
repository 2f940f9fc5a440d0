/**
 * Exactly once through SIGKILL (issue 29, done when): the pull runs in a child process, as the
 * extension runs it, and is killed at each point an interruption can fall (recorded, half
 * written, written, mark in flight, mark answered) at the first and a later batch, for CSV,
 * JSON Lines and SQLite. The next pull completes it; the destination, read back by Python, is
 * compared with the sandbox row by row: nothing missing, nothing twice, in order.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { readFileJournal } from '../../src/data/pull/pullJournal';
import type { PullFormat } from '../../src/data/pull/pullSinks';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';
import { compareRows, expected, readBack } from '../shared/pullDestination';
import { KILL_POINTS, killedPull } from '../shared/pullKill';
import { EXTENSIONS, pullOnce, sandboxClient, TaskPool, TEST_RECORDS } from '../shared/pullScenario';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const BATCH = 25;

/**
 * The child as one bundle, as the extension ships its code: each of the 28 children then loads
 * one file instead of resolving and compiling some 200 modules, which was half of its CPU.
 * node-sqlite3-wasm stays a require of node_modules (it reads its WebAssembly from there). The
 * SQLite worker is bundled beside it, as esbuild.mjs puts it beside dist/main.js.
 */
async function bundleChild(): Promise<{ folder: string; child: string }> {
  // Inside the project, so node_modules is found; one folder per process, so two runs never share one.
  const folder = path.join(ROOT, 'out', 'test', 'shared', `pullKill.${process.pid}`);
  const esbuild = await import('esbuild');
  const common = {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['node-sqlite3-wasm'],
    logLevel: 'warning',
  } satisfies import('esbuild').BuildOptions;
  await esbuild.build({
    ...common,
    entryPoints: [path.join(ROOT, 'test', 'shared', 'pullKillChild.ts')],
    outfile: path.join(folder, 'pullKillChild.cjs'),
  });
  await esbuild.build({
    ...common,
    entryPoints: [path.join(ROOT, 'src', 'data', 'sqlite', 'sqliteWorker.ts')],
    outfile: path.join(folder, 'sqliteWorker.js'),
  });
  return { folder, child: path.join(folder, 'pullKillChild.cjs') };
}

describe('data: a pull killed at every point, then completed: every row exactly once (CSV, JSON Lines, SQLite)', function () {
  this.timeout(300_000);
  let dir: string;
  let sandbox: RunningSandbox;
  let apiKey: string;
  let pool: TaskPool;
  let child: string;
  let bundled: string;
  before(async () => {
    ({ folder: bundled, child } = await bundleChild());
    dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-kill-'));
    // One sandbox; each scenario pulls a task of its own (its latest run's rows are new).
    sandbox = await startSandbox({ rateLimit: 0, seed: 29, extraTasks: 60 });
    apiKey = sandbox.info.accounts[0]?.apiKey ?? '';
    pool = await TaskPool.of(sandboxClient(sandbox.info.baseUrl, apiKey));
  });
  after(async () => {
    // before() may have stopped part-way (a child that did not bundle): undo only what it did, so
    // its own error is the one reported.
    await pool?.client.close();
    await sandbox?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (bundled) rmSync(bundled, { recursive: true, force: true });
  });

  for (const format of ['csv', 'jsonl', 'sqlite'] as PullFormat[]) {
    it(`${format}: ${KILL_POINTS[format].join(', ')}; at batch 1 and batch 2`, async () => {
      const outcomes: string[] = [];
      for (const point of KILL_POINTS[format]) {
        for (const batch of [1, 2]) {
          const { task, rows } = await pool.next(3 * BATCH);
          const want = rows.map((r) => expected(r, format));
          const file = path.join(dir, `${point}-${batch}.${EXTENSIONS[format]}`);
          await killedPull(child, {
            baseUrl: sandbox.info.baseUrl,
            apiKey,
            task,
            file,
            format,
            batchSize: BATCH,
            point,
            batch,
          });
          // The pull's bookkeeping is in its store, out of the user's folder (issue 44 item 1, 48 item 1).
          const beside = readdirSync(dir).filter((n) => /scrapedeck/.test(n));
          assert.deepEqual(
            beside,
            [],
            `${format}, killed at ${point} of batch ${batch}: nothing of ours beside the file`,
          );
          if (format !== 'sqlite' && point === 'record')
            assert.ok(await readFileJournal(TEST_RECORDS, file), 'the batch in flight is recorded in the store');
          const result = await pullOnce({ source: pool.client, task, file, format, batchSize: BATCH });
          const c = compareRows(readBack(file, format, task.taskId), want);
          outcomes.push(
            `${point}@${batch}: ${c.missing} missing, ${c.twice} twice, ${c.wrong} wrong${result.completed ? ', completed' : ''}`,
          );
          assert.deepEqual(
            [c.missing, c.twice, c.wrong, c.equal],
            [0, 0, 0, true],
            `${format}, killed at ${point} of batch ${batch}: ${outcomes.at(-1)}`,
          );
        }
      }
      // Killed before the mark was answered, the next pull completed that batch instead of writing it again.
      assert.ok(
        outcomes.filter((o) => o.endsWith('completed')).length >= KILL_POINTS[format].length,
        outcomes.join('\n'),
      );
    });
  }
});
