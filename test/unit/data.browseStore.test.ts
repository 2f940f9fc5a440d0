/**
 * The data browser's row store (src/data/browse/store): the view (a stable sort with numbers as
 * numbers, dates as dates, empties last in both directions; a filter with its count), windows,
 * the column profile, copying, the rows an export takes; and the spools that hold the service's
 * rows and a SQLite table's (read-only: a database another program is writing is refused).
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import type { DataRow } from '../../src/api/schemas/dataSchemas';
import { indexFile } from '../../src/data/browse/store/fileIndexer';
import { RecordFile } from '../../src/data/browse/store/recordFile';
import { spoolPages } from '../../src/data/browse/store/rowSources';
import { RowSpool } from '../../src/data/browse/store/rowSpool';
import { RowStore } from '../../src/data/browse/store/rowStore';
import { profileFigures } from './helpers/profileFigures';

const CSV = [
  'id,name,price,day',
  '1,pear,10,2024-03-01',
  '2,Apple,9.5,',
  '3,fig,,2023-12-31',
  '4,apple,100,2024-01-15T10:00:00Z',
  '5,,9.5,2024-03-01',
].join('\n');

describe('data browser: the row store', () => {
  let dir: string;
  let store: RowStore;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'browse-store-'));
    writeFileSync(path.join(dir, 'rows.csv'), CSV);
    const file = await RecordFile.open(path.join(dir, 'rows.csv'), 'csv');
    await indexFile(file);
    store = new RowStore(file);
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const ids = async (): Promise<string[]> => (await store.window(0, 100)).map((r) => String(r.cells[0]));

  it('sorts numbers as numbers, stably, empties last in both directions', async () => {
    assert.equal(await store.setView({ sort: { column: 2, direction: 'asc' } }), 5);
    assert.deepEqual(await ids(), ['2', '5', '1', '4', '3']);
    await store.setView({ sort: { column: 2, direction: 'desc' } });
    assert.deepEqual(await ids(), ['4', '1', '2', '5', '3']);
  });

  it('sorts dates as dates and text case-folded, empties last', async () => {
    await store.setView({ sort: { column: 3, direction: 'asc' } });
    assert.deepEqual(await ids(), ['3', '4', '1', '5', '2']);
    await store.setView({ sort: { column: 1, direction: 'asc' } });
    assert.deepEqual(await ids(), ['2', '4', '3', '1', '5']);
    await store.setView({ sort: { column: 1, direction: 'desc' } });
    assert.deepEqual(await ids(), ['1', '3', '2', '4', '5']);
  });

  it('filters by a search over every column and by column conditions, keeping the sort; the count is the view', async () => {
    assert.equal(await store.setView({ filter: { search: 'APPLE' } }), 2);
    assert.deepEqual(await ids(), ['2', '4']);
    assert.equal(await store.setView({ sort: { column: 0, direction: 'desc' }, filter: { search: '9.5' } }), 2);
    assert.deepEqual(await ids(), ['5', '2']);
    assert.equal(await store.setView({ filter: { conditions: [{ column: 2, op: 'empty' }] } }), 1);
    assert.equal(
      await store.setView({
        filter: {
          conditions: [
            { column: 1, op: 'notEmpty' },
            { column: 2, op: 'equals', value: '9.5' },
          ],
        },
      }),
      1,
    );
    assert.deepEqual(await ids(), ['2']);
    assert.equal(await store.setView({ filter: { conditions: [{ column: 1, op: 'contains', value: 'PP' }] } }), 2);
    assert.equal(await store.setView({}), 5);
  });

  it('a newer view cancels the one under way', async () => {
    const first = store.setView({ sort: { column: 1, direction: 'asc' } });
    const second = store.setView({ filter: { search: 'fig' } });
    await assert.rejects(first, { name: 'AbortError' });
    assert.equal(await second, 1);
    await store.setView({});
  });

  it('profiles a column: kind, empties, distinct, min and max, the most common', async () => {
    const price = await store.profile(2);
    assert.deepEqual(
      { ...profileFigures(price), common: price.common[0] },
      { kind: 'number', rows: 5, empty: 1, distinct: 3, min: '9.5', max: '100', common: { value: '9.5', count: 2 } },
    );
    assert.equal((await store.profile(3)).kind, 'date');
    assert.equal((await store.profile(1)).kind, 'text');
    await store.setView({ filter: { search: 'apple' } });
    assert.equal((await store.profile(2)).rows, 2, 'the profile is of the rows the filter shows');
    await store.setView({});
  });

  it('copies a block tab-separated and hands the view to a writer as rows', async () => {
    assert.equal(await store.copyText(0, 1, 0, 1), '1\tpear\n2\tApple');
    await store.setView({ filter: { search: 'fig' } });
    const pages: DataRow[][] = [];
    for await (const page of store.viewRows()) pages.push(page);
    assert.deepEqual(pages, [[{ id: '3', name: 'fig', price: '', day: '2023-12-31' }]]);
    await store.setView({});
  });
});

describe('data browser: spools', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'browse-spool-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("the service's pages are written to a private file as they come, browsed while loading, removed on close", async () => {
    const spool = await RowSpool.create(path.join(dir, 'spool'));
    const seen: number[] = [];
    async function* pages(): AsyncGenerator<{ rows: DataRow[]; total: number }> {
      yield { rows: [{ a: 1, b: 'x' }, { a: 2 }], total: 3 };
      seen.push((await new RowStore(spool.file).window(0, 10)).length);
      yield { rows: [{ c: 'ü\n"' }], total: 3 };
    }
    assert.deepEqual(await spoolPages(spool, pages()), { loaded: 3, total: 3 });
    assert.deepEqual(seen, [2]);
    const store = new RowStore(spool.file);
    assert.deepEqual(store.columns, ['a', 'b', 'c']);
    assert.deepEqual(
      (await store.window(0, 3)).map((r) => r.cells),
      [
        [1, 'x', null],
        [2, null, null],
        [null, null, 'ü\n"'],
      ],
    );
    await spool.close();
    assert.deepEqual(readdirSync(path.join(dir, 'spool')), []);
  });
});
