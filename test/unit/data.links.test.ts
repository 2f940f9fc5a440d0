/**
 * No write through a link, nor outside the folder a file names (issue 27 item 1): a workspace
 * that ships `rows.jsonl -> ~/.bashrc` (or a folder linked out of it, or a hard link) gets every
 * pull, export, rewrite and record refused with the reason, and nothing outside changes. Checked
 * again on every pull, so a remembered file that became a link is refused too.
 */
import * as assert from 'node:assert/strict';
import { linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import type { ReadDataOptions } from '../../src/api/ops/data';
import { DataReader, type FetchDataPage } from '../../src/api/ops/dataReader';
import type { DataRow } from '../../src/api/schemas/dataSchemas';
import { TaskExport } from '../../src/data/export/exportRows';
import type { DataFormat } from '../../src/data/formats/rowFormats';
import type { PullSource } from '../../src/data/pull/pullRows';
import type { PullFormat } from '../../src/data/pull/pullSinks';
import { writeWholeFile } from '../../src/platform/files/atomicFile';
import { UnsafeFileError, type UnsafeReason } from '../../src/platform/files/safeFiles';
import { pullOnce, wasmDir } from '../shared/pullScenario';
import { scratchFolder } from '../shared/scratchFolder';
import { pageAt } from './helpers/dataPages';

const ROWS: DataRow[] = [
  { Name: '$(touch /tmp/pwned)', Price: '1' },
  { Name: 'two', Price: '2' },
];

/** A service that hands out ROWS once; it must not be asked at all when the file is refused. */
function service(): PullSource & { asked: number } {
  let marked = false;
  const s = {
    asked: 0,
    getNotExportedData: () => {
      s.asked++;
      return Promise.resolve({
        data: { total: marked ? 0 : ROWS.length, current: marked ? 0 : ROWS.length, data: marked ? [] : [...ROWS] }, // a fresh array, as a reply is: the sink empties it
        requestId: 'r',
      });
    },
    markExported: () => {
      marked = true;
      return Promise.resolve({ data: null, requestId: 'm' });
    },
  };
  return s;
}

function reader(): { readData(taskId: string, o?: ReadDataOptions): DataReader } {
  const fetch: FetchDataPage = (offset, size) => pageAt(ROWS, offset, size);
  return { readData: (_id, o) => new DataReader(fetch, { resumeDelayMs: 1, ...o }) };
}

const refused = (reason: UnsafeReason) => (e: unknown) => e instanceof UnsafeFileError && e.reason === reason;
const EXT: Record<PullFormat, string> = { csv: 'csv', jsonl: 'jsonl', sqlite: 'sqlite' };

describe('data: no write through a link or outside the workspace folder', function () {
  let base: string;
  let ws: string;
  let outside: string;
  let secret: string;
  const SECRET = 'export PATH=$HOME/bin:$PATH\n';

  beforeEach(() => {
    base = scratchFolder('scrapedeck-links-');
    ws = path.join(base, 'ws');
    outside = path.join(base, 'home');
    mkdirSync(ws);
    mkdirSync(outside);
    secret = path.join(outside, '.bashrc');
    writeFileSync(secret, SECRET);
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  const untouched = () => {
    assert.equal(readFileSync(secret, 'utf8'), SECRET, 'the file outside is as it was');
    assert.deepEqual(readdirSync(outside).sort(), ['.bashrc'], 'nothing new outside');
  };

  for (const format of ['csv', 'jsonl', 'sqlite'] as PullFormat[]) {
    it(`${format}: a pull target that is a link to a file outside is refused before the service is asked`, async () => {
      const file = path.join(ws, `Indeed stock levels.${EXT[format]}`);
      symlinkSync(secret, file);
      const s = service();
      await assert.rejects(
        pullOnce({ source: s, task: { taskId: 't', taskName: 'T' }, file, format, sink: { root: ws } }),
        refused('link'),
      );
      assert.equal(s.asked, 0);
      untouched();
    });

    it(`${format}: a target in a folder that links out of the workspace is refused (and its missing folders are not made there)`, async () => {
      symlinkSync(outside, path.join(ws, 'data'));
      const s = service();
      await assert.rejects(
        pullOnce({
          source: s,
          task: { taskId: 't', taskName: 'T' },
          file: path.join(ws, 'data', `new.${EXT[format]}`),
          format,
          sink: { root: ws },
        }),
        refused('outside'),
      );
      await assert.rejects(
        pullOnce({
          source: s,
          task: { taskId: 't', taskName: 'T' },
          file: path.join(ws, 'data', 'deeper', `new.${EXT[format]}`),
          format,
          sink: { root: ws },
        }),
        refused('outside'),
      );
      assert.equal(s.asked, 0);
      untouched();
    });

    it(`${format}: a hard link (another name of a file) is refused; a plain new file in a new folder is written`, async () => {
      const file = path.join(ws, `rows.${EXT[format]}`);
      linkSync(secret, file);
      await assert.rejects(
        pullOnce({ source: service(), task: { taskId: 't', taskName: 'T' }, file, format, sink: { root: ws } }),
        refused('hard-link'),
      );
      untouched();
      const ok = path.join(ws, 'made', 'here', `rows.${EXT[format]}`);
      const result = await pullOnce({
        source: service(),
        task: { taskId: 't', taskName: 'T' },
        file: ok,
        format,
        sink: { root: ws },
      });
      assert.equal(result.rows, 2);
    });

    it(`${format}: an empty file with another name (nothing to read in it) is refused before the service is asked`, async () => {
      const empty = path.join(outside, 'empty');
      writeFileSync(empty, '');
      const file = path.join(ws, `empty.${EXT[format]}`);
      linkSync(empty, file);
      const s = service();
      await assert.rejects(
        pullOnce({ source: s, task: { taskId: 't', taskName: 'T' }, file, format, sink: { root: ws } }),
        refused('hard-link'),
      );
      assert.equal(s.asked, 0, 'refused by the check, not only when the rows are about to be written');
      assert.equal(readFileSync(empty, 'utf8'), '');
    });
  }

  it('a remembered file that became a link since the last pull is refused on the next one', async () => {
    const file = path.join(ws, 'rows.jsonl');
    await pullOnce({
      source: service(),
      task: { taskId: 't', taskName: 'T' },
      file,
      format: 'jsonl',
      sink: { root: ws },
    });
    rmSync(file);
    symlinkSync(secret, file);
    await assert.rejects(
      pullOnce({ source: service(), task: { taskId: 't', taskName: 'T' }, file, format: 'jsonl', sink: { root: ws } }),
      refused('link'),
    );
    untouched();
  });

  it('a pull record planted beside the file as a link is never read or followed; an SQLite journal planted as a link is refused', async () => {
    const file = path.join(ws, 'rows.csv');
    const planted = path.join(ws, '.rows.csv.scrapedeck-pull');
    symlinkSync(secret, planted);
    const result = await pullOnce({
      source: service(),
      task: { taskId: 't', taskName: 'T' },
      file,
      format: 'csv',
      sink: { root: ws },
    });
    assert.equal(result.rows, 2);
    assert.ok(lstatSync(planted).isSymbolicLink(), 'the planted link is left as it is');
    const db = path.join(ws, 'rows.sqlite');
    symlinkSync(secret, `${db}-journal`);
    await assert.rejects(
      pullOnce({
        source: service(),
        task: { taskId: 't', taskName: 'T' },
        file: db,
        format: 'sqlite',
        sink: { root: ws },
      }),
      refused('link'),
    );
    untouched();
  });

  for (const format of ['csv', 'jsonl', 'json', 'xlsx', 'sqlite'] as DataFormat[]) {
    it(`Export Data… as ${format}: to a link, or through a folder linking out of the workspace, nothing is written`, async () => {
      const link = path.join(ws, `export.${format}`);
      symlinkSync(secret, link);
      const options = { taskId: 't', taskName: 'T', format, root: ws, wasmDir: wasmDir() };
      await assert.rejects(new TaskExport(reader(), { ...options, target: link }).run(), refused('link'));
      symlinkSync(outside, path.join(ws, 'out'));
      await assert.rejects(
        new TaskExport(reader(), { ...options, target: path.join(ws, 'out', `export.${format}`) }).run(),
        refused('outside'),
      );
      untouched();
      assert.deepEqual(readdirSync(ws).sort(), [`export.${format}`, 'out'], 'no temporary file left');
      // Outside any workspace folder (no root: a place the user chose in the save dialog), a link is still refused.
      await assert.rejects(
        new TaskExport(reader(), { ...options, root: undefined, target: link }).run(),
        refused('link'),
      );
      untouched();
    });
  }

  it("the analytics export's file writer refuses a link and a folder linking out", async () => {
    const link = path.join(ws, 'analytics.csv');
    symlinkSync(secret, link);
    await assert.rejects(writeWholeFile(link, Buffer.from('a,b\r\n'), ws), refused('link'));
    symlinkSync(outside, path.join(ws, 'reports'));
    await assert.rejects(
      writeWholeFile(path.join(ws, 'reports', 'analytics.csv'), Buffer.from('a,b\r\n'), ws),
      refused('outside'),
    );
    untouched();
  });
});
