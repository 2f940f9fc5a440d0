/**
 * An export leaves nothing of its own beside the target however the last one ended (issue 48):
 * a process killed while writing leaves its temporary files noted in the extension's storage, and
 * the next export removes them; what is not provably ours (a file of that shape the workspace
 * ships, a file of a process still running, a noted name that became a link or whose folder did)
 * stays.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import type { ReadDataOptions } from '../../src/api/ops/data';
import { DataReader, type FetchDataPage } from '../../src/api/ops/dataReader';
import type { DataRow } from '../../src/api/schemas/dataSchemas';
import { type ExportSource, TaskExport } from '../../src/data/export/exportRows';
import type { DataFormat } from '../../src/data/formats/rowFormats';
import { noteTemp, sweepTemps, type TempLedger } from '../../src/platform/files/tempLedger';
import { wasmDir } from '../shared/pullScenario';

const ROWS: DataRow[] = Array.from({ length: 30 }, (_, i) => ({ id: i, title: `item ${i}` }));

function source(rows: readonly DataRow[]): ExportSource {
  const fetch: FetchDataPage = (offset, size) => {
    const to = Math.min(offset + size, rows.length);
    const data = { offset: to, total: rows.length, restTotal: rows.length - to, data: rows.slice(offset, to) };
    return Promise.resolve({ data, requestId: `r${offset}` });
  };
  return { readData: (_t: string, o?: ReadDataOptions) => new DataReader(fetch, { resumeDelayMs: 1, ...o }) };
}

/** A process that creates the temporary files of an export of each format to `target` and is then killed. */
function crashedExport(target: string, ledger: TempLedger, format: DataFormat): void {
  const out = path.resolve(__dirname, '..', '..', 'src');
  const script = `
    const { TaskExport } = require(${JSON.stringify(path.join(out, 'data/export/exportRows.js'))});
    const { DataReader } = require(${JSON.stringify(path.join(out, 'api/ops/dataReader.js'))});
    const rows = Array.from({ length: 50 }, (_, i) => ({ id: i, title: 'item ' + i }));
    // Killed once the writer's files are there: the reader may ask for later pages before it writes.
    const killWhenWritten = () => require('node:fs').readdirSync(${JSON.stringify(path.dirname(target))}).length > 0
      ? process.kill(process.pid, 'SIGKILL') : setTimeout(killWhenWritten, 5);
    const fetch = (offset, size) => offset >= 20
      ? (killWhenWritten(), new Promise(() => {}))
      : Promise.resolve({ requestId: 'r', data: { offset: offset + size, total: 50, restTotal: 50 - offset - size,
          data: rows.slice(offset, offset + size) } });
    const source = { readData: (t, o) => new DataReader(fetch, { resumeDelayMs: 1, ...o }) };
    new TaskExport(source, { taskId: 't1', taskName: 'Big export', target: ${JSON.stringify(target)},
      format: ${JSON.stringify(format)}, wasmDir: ${JSON.stringify(wasmDir())}, ledger: ${JSON.stringify(ledger)},
      read: { pageSize: 10 } }).run();
  `;
  const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(child.signal, 'SIGKILL', `the writer was killed mid-export: ${child.stderr}`);
}

describe('data: an export leaves nothing of its own behind', function () {
  this.timeout(120_000);
  let dir: string;
  let ledger: TempLedger;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-leftovers-'));
    mkdirSync(path.join(dir, 'ws'));
    ledger = { folder: path.join(dir, 'storage', 'export-temps') };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const exportTo = (target: string, format: DataFormat) =>
    new TaskExport(source(ROWS), {
      taskId: 't1',
      taskName: 'Big export',
      target,
      format,
      wasmDir: wasmDir(),
      ledger,
      read: { pageSize: 10 },
    }).run();

  for (const [format, name] of [
    ['csv', 'big-export.csv'],
    ['xlsx', 'big-export.xlsx'],
    ['sqlite', 'big-export.sqlite'],
  ] as const) {
    it(`${format}: a killed export's temporary files go at the next export to the same file, and its notes too`, async () => {
      const target = path.join(dir, 'ws', name);
      crashedExport(target, ledger, format);
      const left = readdirSync(path.join(dir, 'ws'));
      assert.ok(
        left.some((n) => n.startsWith(`.${name}.`) && n.endsWith('.scrapedeck-tmp')),
        `the crash left a temporary file: ${left.join(', ')}`,
      );
      const result = await exportTo(target, format);
      assert.equal(result.rows, ROWS.length);
      assert.deepEqual(readdirSync(path.join(dir, 'ws')), [name], "nothing of Scrapedeck's own beside the file");
      assert.deepEqual(readdirSync(ledger.folder), [], 'the notes went with their files');
    });
  }

  it('what is not provably ours stays: a shipped file of that shape, a live writer’s, a link, a folder become a link', async () => {
    const ws = path.join(dir, 'ws');
    const shipped = path.join(ws, '.report.csv.0123456789ab.scrapedeck-tmp');
    writeFileSync(shipped, 'shipped by the repository');
    const live = path.join(ws, '.report.csv.aaaaaaaaaaaa.scrapedeck-tmp');
    await noteTemp(ledger, live);
    writeFileSync(live, 'another window is writing this');
    // Noted by a process that is gone, but now a link to a file elsewhere.
    const dead = spawnSync(process.execPath, ['-e', '']).pid ?? 0;
    const elsewhere = path.join(dir, 'precious.txt');
    writeFileSync(elsewhere, 'precious');
    const linked = path.join(ws, '.report.csv.bbbbbbbbbbbb.scrapedeck-tmp');
    const note = (file: string, folder: string): void => {
      mkdirSync(ledger.folder, { recursive: true });
      const name = `${Math.random().toString(16).slice(2)}.json`;
      writeFileSync(path.join(ledger.folder, name), JSON.stringify({ path: file, pid: dead, dir: folder }));
    };
    note(linked, ws);
    symlinkSync(elsewhere, linked);
    // Noted in a folder since replaced by a link to another folder holding a file of that name.
    const other = path.join(dir, 'other');
    mkdirSync(other);
    writeFileSync(path.join(other, '.x.csv.cccccccccccc.scrapedeck-tmp'), 'not ours');
    note(path.join(dir, 'moved', '.x.csv.cccccccccccc.scrapedeck-tmp'), path.join(dir, 'moved'));
    symlinkSync(other, path.join(dir, 'moved'));

    await exportTo(path.join(ws, 'report.csv'), 'csv');
    assert.deepEqual(
      readdirSync(ws).sort(),
      [path.basename(shipped), path.basename(live), path.basename(linked), 'report.csv'].sort(),
    );
    assert.equal(readFileSync(elsewhere, 'utf8'), 'precious');
    assert.deepEqual(readdirSync(other), ['.x.csv.cccccccccccc.scrapedeck-tmp']);
    assert.deepEqual(await sweepTemps(ledger), [], 'the live writer’s file is kept until its process is gone');
  });
});
