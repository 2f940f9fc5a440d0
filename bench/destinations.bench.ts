/**
 * Issue 45's figures: Pull New Rows into PostgreSQL through the code the command runs (the
 * PostgreSQL sink and the pull protocol), against sandboxes in their own processes and a private
 * server (scripts/lib/postgres.mjs):
 * - 100,000 rows at the service's 20 requests a second, against the rate bound of the requests
 *   the pull actually sent (100 batches: a not-exported request and a mark each = 200 = 10.0 s),
 *   and the 429s the sandbox counted on them (a pull that sent nothing is MISSED, not "0 x 429");
 * - 1,000,000 rows with the limit off: rows per second beside SQLite's, and the heap growth of
 *   the pull in a process of its own (`childPgPull.ts`: the same code the extension host runs,
 *   with nothing of the other sections in its heap; peak sampled, garbage included).
 * A row passes only on what it observed: the rows counted back in the table by psql.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

import { connectionOf, freshSchema, pgPullOnce, psql } from '../test/shared/pgPull';
import { type TestServer, testServer } from '../test/shared/pgServer';
import { bigTask, pullOnce, sandboxClient } from '../test/shared/pullScenario';
import { isPgPullChild, pgPullInChild } from './childPgPull';
import { type ChildSandbox, isSandboxChild, startChildSandbox } from './childSandbox';
import { missed, reasonOf } from './judge';
import type { BenchRow, BenchSection } from './types';

isSandboxChild();
isPgPullChild();

const RATE = 20;
const ROWS = 100_000;
const HEAP_ROWS = 1_000_000;
const HEAP_TARGET = 50e6;
/** A not-exported request and a mark for each batch of 1,000. */
const EXPECTED_REQUESTS = (ROWS / 1000) * 2;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
const perSecond = (rows: number, ms: number): string => `${Math.round(rows / (ms / 1000)).toLocaleString('en')} rows/s`;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const importEsm = new Function('url', 'return import(url)') as (url: string) => Promise<unknown>;

interface PgHarness {
  startPostgres(): Promise<{ env: Record<string, string>; stop(): Promise<void> }>;
}

function account(sandbox: ChildSandbox): { baseUrl: string; apiKey: string } {
  const ada = sandbox.info.accounts[0];
  if (!ada) throw new Error('no demo account');
  return { baseUrl: sandbox.info.baseUrl, apiKey: ada.apiKey };
}

function client(sandbox: ChildSandbox, limited: boolean) {
  const { baseUrl, apiKey } = account(sandbox);
  return sandboxClient(baseUrl, apiKey, limited);
}

/** The rows in the task's table of `schema`, counted by psql (0 when no table was made). */
function countRows(server: TestServer, schema: string, taskId: string): number {
  const table = psql(
    server,
    `SELECT table_name FROM "${schema}"."_scrapedeck_tables" WHERE task_id = '${taskId.replace(/'/g, "''")}'`,
  );
  return table === '' ? 0 : Number(psql(server, `SELECT count(*) FROM "${schema}"."${table.replace(/"/g, '""')}"`));
}

export default async function run(): Promise<BenchSection> {
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  const harness = (await importEsm(pathToFileURL(path.resolve('scripts', 'lib', 'postgres.mjs')).href)) as PgHarness;
  const pg = await harness.startPostgres();
  Object.assign(process.env, pg.env);
  const server = testServer();
  const dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-bench-destinations-'));
  const [limited, openPg, openSqlite] = await Promise.all([
    startChildSandbox(__filename, { rateLimit: RATE, seed: 7, bigTaskRows: ROWS }),
    startChildSandbox(__filename, { rateLimit: 0, seed: 7, bigTaskRows: HEAP_ROWS }),
    startChildSandbox(__filename, { rateLimit: 0, seed: 7, bigTaskRows: HEAP_ROWS }),
  ]);
  try {
    // ---- 1. 100,000 rows into PostgreSQL @ 20 req/s ------------------------------------------------
    {
      const name = `Pull New Rows ${ROWS.toLocaleString('en')} rows into PostgreSQL @ ${RATE} req/s`;
      const c = client(limited, true);
      try {
        const task = await bigTask(c);
        const schema = freshSchema(server, 'bench_rate');
        await sleep(1100); // an empty window at the server for the measured pull
        const before = await limited.stats();
        const t0 = performance.now();
        const result = await pgPullOnce({
          source: c,
          task,
          connection: connectionOf(server, schema),
          password: server.password,
        });
        const wall = performance.now() - t0;
        const after = await limited.stats();
        const requests = after.requests - before.requests;
        const wire429 = after.status429 - before.status429;
        const counted = countRows(server, schema, task.taskId);
        const boundMs = (Math.max(requests, EXPECTED_REQUESTS) / RATE) * 1000;
        const problems = [
          ...(requests < EXPECTED_REQUESTS ? [`${requests} requests sent of ${EXPECTED_REQUESTS}`] : []),
          ...(result.rows !== ROWS ? [`${result.rows} rows pulled`] : []),
          ...(counted !== ROWS ? [`${counted} rows in the table`] : []),
        ];
        rows.push({
          name,
          value: problems.length > 0 ? `${seconds(wall)} (${problems.join('; ')})` : seconds(wall),
          against: `bound ${seconds(boundMs)} (${requests} requests @ ${RATE}/s)`,
          ratio: wall / boundMs,
          target: '≤ 1.10 x',
          pass: problems.length === 0 && wall / boundMs <= 1.1,
        });
        rows.push({
          name: '  rows in the table, counted by psql',
          value: counted.toLocaleString('en'),
          target: ROWS.toLocaleString('en'),
          pass: counted === ROWS,
        });
        rows.push(
          requests === 0
            ? missed('  429s counted by the sandbox', 'the pull sent no request')
            : {
                name: `  429s counted by the sandbox on ${requests} requests (load average ${loadavg()[0]?.toFixed(1) ?? '?'})`,
                value: `${wire429} x 429`,
                target: '0',
                pass: wire429 === 0,
              },
        );
      } catch (error) {
        rows.push(missed(name, reasonOf(error)));
      } finally {
        await c.close();
      }
    }

    // ---- 2. 1,000,000 rows, limit off: PostgreSQL beside SQLite, heap ---------------------------------
    let sqliteRate: string | undefined;
    {
      const name = `Pull New Rows ${HEAP_ROWS.toLocaleString('en')} rows into SQLite, limit off (the baseline)`;
      const c = client(openSqlite, false);
      try {
        const task = await bigTask(c);
        const t0 = performance.now();
        const result = await pullOnce({ source: c, task, file: path.join(dir, 'million.sqlite'), format: 'sqlite' });
        const wall = performance.now() - t0;
        sqliteRate = perSecond(result.rows, wall);
        rows.push({
          name,
          value: sqliteRate,
          against: `${result.rows.toLocaleString('en')} rows in ${seconds(wall)}`,
          pass: result.rows === HEAP_ROWS ? undefined : false,
        });
      } catch (error) {
        rows.push(missed(name, reasonOf(error)));
      } finally {
        await c.close();
      }
    }
    {
      const name = `Pull New Rows ${HEAP_ROWS.toLocaleString('en')} rows into PostgreSQL, limit off`;
      try {
        const schema = freshSchema(server, 'bench_million');
        const load = loadavg()[0]?.toFixed(1) ?? '?';
        const pulled = await pgPullInChild(__filename, { ...account(openPg), schema });
        const counted = countRows(server, schema, pulled.taskId);
        rows.push({
          name,
          value: perSecond(pulled.rows, pulled.wallMs),
          against: `SQLite ${sqliteRate ?? 'not measured'}; ${pulled.rows.toLocaleString('en')} rows in ${seconds(pulled.wallMs)}`,
        });
        rows.push({
          name: '  rows in the table, counted by psql',
          value: counted.toLocaleString('en'),
          target: HEAP_ROWS.toLocaleString('en'),
          pass: counted === HEAP_ROWS,
        });
        rows.push({
          name: `  heap growth of the pulling process (peak of ${pulled.samples.toLocaleString('en')} samples, garbage included; load average ${load})`,
          value: mb(pulled.peakBytes),
          against: `base ${mb(pulled.baseBytes)} after a full GC; ${pulled.majorGcs} full GCs during the pull`,
          target: `≤ ${mb(HEAP_TARGET)}`,
          pass: pulled.rows === HEAP_ROWS && counted === HEAP_ROWS && pulled.peakBytes <= HEAP_TARGET,
        });
        rows.push({
          name: '  kept after the pull (used heap after a full GC, minus the base)',
          value: mb(pulled.retainedBytes),
          against: `Buffers outside the heap: peak ${mb(pulled.peakExternalBytes)}`,
        });
      } catch (error) {
        rows.push(missed(name, reasonOf(error)));
      }
    }
    notes.push(
      "The heap is that of a Node process of its own that runs only the extension's pull code (sink and protocol) for the million rows, outside VS Code; the extension host itself was not measured. Its base is the used heap after a full GC with the client and pg loaded; the peak is sampled after each batch and every millisecond the event loop is free.",
    );
  } finally {
    await Promise.all([limited.close(), openPg.close(), openSqlite.close()]);
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    title: 'Destinations: Pull New Rows into PostgreSQL, at the rate bound and over a million rows',
    rows,
    notes,
  };
}
