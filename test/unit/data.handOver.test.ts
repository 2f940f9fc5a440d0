/**
 * A batch handed to a writer is the writer's to let go of (src/data/common/handOver.ts): each pull
 * sink and each export writer empties the array it was handed once the rows are in what it writes,
 * so nothing waiting on the destination keeps a thousand row objects alive (the heap rows of
 * `npm run bench -- destinations` and `dataExport`). The rows still arrive whole, and the pull and
 * the export count them from what they read before handing the array over.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import type { DataRow } from '../../src/api/schemas/dataSchemas';
import { createRowWriter } from '../../src/data/export/exportWriters';
import type { DataFormat } from '../../src/data/formats/rowFormats';
import { pullNewRows } from '../../src/data/pull/pullRows';
import { openPullSink, type PullFormat } from '../../src/data/pull/pullSinks';
import { readBack } from '../shared/pullDestination';
import { logDir, TEST_RECORDS, wasmDir } from '../shared/pullScenario';

const batch = (from: number, n: number): DataRow[] =>
  Array.from({ length: n }, (_, i) => ({ Title: `row ${from + i}`, Price: from + i }));

describe('data: a batch handed to a writer is let go of once written', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-handover-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const format of ['csv', 'jsonl', 'sqlite'] as PullFormat[]) {
    it(`a pull sink (${format}) empties each batch it wrote; the pull counts every row and the file holds them`, async () => {
      const file = path.join(dir, `pulled.${format}`);
      const sink = await openPullSink(file, format, {
        taskId: 't1',
        taskName: 'T',
        wasmDir: wasmDir(),
        records: TEST_RECORDS,
        trusted: true,
        logDir: logDir(),
      });
      const handed: DataRow[][] = [];
      const pages = [batch(0, 3), batch(3, 2)];
      let marked = 0;
      const progress: number[] = [];
      try {
        const result = await pullNewRows(
          {
            getNotExportedData: () => {
              const data = pages[marked] ?? [];
              handed.push(data);
              const left = pages.slice(marked).reduce((n, p) => n + p.length, 0);
              return Promise.resolve({ data: { total: left, current: data.length, data }, requestId: undefined });
            },
            markExported: () => {
              marked++;
              return Promise.resolve({ data: null, requestId: undefined });
            },
          },
          { taskId: 't1', sink, batchSize: 3, onProgress: (p) => progress.push(p.rows) },
        );
        assert.equal(result.rows, 5);
        assert.equal(result.batches, 2);
        assert.deepEqual(
          progress.filter((n) => n > 0),
          [3, 5],
          'progress counts each batch as it is written',
        );
      } finally {
        await sink.close();
      }
      assert.deepEqual(
        handed.map((rows) => rows.length),
        [0, 0],
        'each reply array was emptied by the sink',
      );
      assert.equal(readBack(file, format, 't1').length, 5, 'every row reached the file');
    });
  }

  for (const format of ['csv', 'jsonl', 'json', 'sqlite'] as DataFormat[]) {
    it(`an export writer (${format}) empties each page it wrote; the file holds every row`, async () => {
      const target = path.join(dir, `export.${format}`);
      const writer = await createRowWriter({ target, format, taskId: 't1', taskName: 'T', wasmDir: wasmDir() });
      const pages = [batch(0, 4), batch(4, 3)];
      let table: string | undefined;
      try {
        for (const page of pages) await writer.write(page);
        table = (await writer.commit()).table;
      } finally {
        await writer.discard();
      }
      assert.deepEqual(
        pages.map((p) => p.length),
        [0, 0],
        'each page was emptied by the writer',
      );
      const rows =
        format === 'json'
          ? (JSON.parse(readFileSync(target, 'utf8')) as unknown[]).length
          : format === 'sqlite'
            ? Number(
                execFileSync('python3', [
                  '-c',
                  'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(\'SELECT count(*) FROM "%s"\' % sys.argv[2]).fetchone()[0])',
                  target,
                  table ?? '',
                ]).toString(),
              )
            : readBack(target, format as PullFormat).length;
      assert.equal(rows, 7, 'every row reached the file');
    });
  }
});
