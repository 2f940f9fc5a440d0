/**
 * The first rows before the rest of a file (issue 43: open to first rows painted): the indexer
 * stops after the chunk that found the first rows until the page's first window was answered
 * (src/data/browse/store/fileIndexer.ts `firstRowsShown`), and the session says when that was, or
 * that it waited long enough (src/data/browse/host/session.ts `firstWindowAnswered`).
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { BrowserSession } from '../../src/data/browse/host/session';
import type { HostMessage } from '../../src/data/browse/protocol';
import { indexFile } from '../../src/data/browse/store/fileIndexer';
import { RecordFile } from '../../src/data/browse/store/recordFile';
import { RowStore } from '../../src/data/browse/store/rowStore';

const ROWS = 2000;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const turns = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

describe('data browser: the first window before the rest of the index', () => {
  let dir: string;
  let file: string;

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'browse-first-'));
    file = path.join(dir, 'rows.csv');
    writeFileSync(file, `n,name\n${Array.from({ length: ROWS }, (_, i) => `${i},row ${i}`).join('\n')}\n`);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const sessionOver = (records: RecordFile, posted: HostMessage[]): BrowserSession =>
    new BrowserSession(new RowStore(records), {
      title: 'rows.csv',
      post: (m) => posted.push(m),
      writeClipboard: () => Promise.resolve(),
      openLink: () => Promise.resolve(),
      exportView: () => Promise.resolve(),
      log: () => undefined,
    });

  it('the index stops after its first rows until they were shown, then reads the rest', async () => {
    const records = await RecordFile.open(file, 'csv');
    let shown: () => void = () => undefined;
    let asked = 0;
    let done = false;
    const indexing = indexFile(records, {
      chunkBytes: 1024,
      firstRowsShown: () => {
        asked++;
        return new Promise<void>((resolve) => (shown = resolve));
      },
    }).then(() => (done = true));
    for (let waited = 0; asked === 0 && waited < 5000; waited += 5) await sleep(5);
    await sleep(100); // time for more chunks, were it not waiting
    const first = records.count;
    assert.equal(asked, 1);
    assert.ok(first > 0 && first < 200, `only the first chunk's rows are indexed (${first})`);
    assert.equal(done, false);
    shown();
    await indexing;
    assert.equal(records.count, ROWS);
    assert.equal(asked, 1, 'asked once');
    await records.close();
  });

  it('waits only once a chunk found rows (the page has nothing to ask for before)', async () => {
    const records = await RecordFile.open(file, 'csv');
    const counts: number[] = [];
    await indexFile(records, {
      chunkBytes: 5, // the first chunks hold part of the header only
      firstRowsShown: () => Promise.resolve(void counts.push(records.count)),
    });
    assert.equal(counts.length, 1);
    assert.ok((counts[0] ?? 0) > 0, 'rows were there to show');
    assert.equal(records.count, ROWS);
    await records.close();
  });

  it('a file read in one chunk does not wait', async () => {
    const records = await RecordFile.open(file, 'csv');
    let asked = 0;
    await indexFile(records, {
      firstRowsShown: () => {
        asked++;
        return new Promise<void>(() => undefined);
      },
    });
    assert.equal(records.count, ROWS);
    assert.equal(asked, 0);
    await records.close();
  });

  it('the session says when the first window was answered, at once after that, or when the wait is over', async () => {
    const records = await RecordFile.open(file, 'csv');
    await indexFile(records);
    const posted: HostMessage[] = [];
    const session = sessionOver(records, posted);
    let answered = false;
    const waiting = session.firstWindowAnswered(60_000).then(() => (answered = true));
    await session.receive({ type: 'ready' });
    await turns(5);
    assert.equal(answered, false, 'ready is not the first window');
    await session.receive({ type: 'window', id: 'w1', from: 0, count: 50 });
    await waiting;
    assert.equal(posted.filter((m) => m.type === 'rows').length, 1, 'after the rows were posted');
    let again = false;
    void session.firstWindowAnswered(60_000).then(() => (again = true));
    await turns(1);
    assert.equal(again, true);

    const other = sessionOver(records, []);
    const started = Date.now();
    await other.firstWindowAnswered(30);
    assert.ok(Date.now() - started >= 25, 'a page that never asks is waited for at most that long');
    let closed = false;
    const third = sessionOver(records, []);
    const pending = third.firstWindowAnswered(60_000).then(() => (closed = true));
    third.dispose();
    await pending;
    assert.equal(closed, true, 'a closed session lets the load go on');
    other.dispose();
    session.dispose();
    await records.close();
  });
});
