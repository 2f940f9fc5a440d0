/**
 * The data browser's sort keys and search (src/data/browse/store): a column's ranks are kept after
 * its first sort and used again in either direction, made again when rows are added or the file
 * changes on disk, at most KEPT_COLUMNS of them; ranks order rows exactly as comparing the values
 * would (stable, empties last, few and many distinct texts); the raw search of a CSV finds the
 * rows a decoded search finds.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { columnKeys, orderByRanks } from '../../src/data/browse/store/columnKeys';
import { indexFile } from '../../src/data/browse/store/fileIndexer';
import { KEPT_COLUMNS } from '../../src/data/browse/store/keyCache';
import { RecordFile } from '../../src/data/browse/store/recordFile';
import { filterRows } from '../../src/data/browse/store/rowFilter';
import { RowStore } from '../../src/data/browse/store/rowStore';
import { mulberry32 } from '../../src/sandbox/seed/prng';

describe('data browser: sort keys and search', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'browse-keys-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function open(
    name: string,
    text: string,
  ): Promise<{ file: RecordFile; store: RowStore; passes: () => number }> {
    writeFileSync(path.join(dir, name), text);
    const file = await RecordFile.open(path.join(dir, name), 'csv');
    await indexFile(file);
    // A pass over the file is a scan of whole rows or of one column.
    let passes = 0;
    const scan = file.scan.bind(file);
    file.scan = (...args) => {
      passes++;
      return scan(...args);
    };
    const scanColumn = file.scanColumn.bind(file);
    file.scanColumn = (...args) => {
      passes++;
      return scanColumn(...args);
    };
    return { file, store: new RowStore(file), passes: () => passes };
  }
  const firstCells = async (store: RowStore): Promise<string[]> =>
    (await store.window(0, 100)).map((r) => String(r.cells[0]));

  it('a column sorted again, in either direction, is not read again; five columns keep four', async () => {
    const { store, passes } = await open('kept.csv', 'a,b,c,d,e,f\n1,x,3,4,5,6\n2,y,2,5,6,7\n3,x,1,6,7,8\n');
    await store.setView({ sort: { column: 1, direction: 'asc' } });
    assert.deepEqual(await firstCells(store), ['1', '3', '2']);
    const afterFirst = passes();
    await store.setView({ sort: { column: 1, direction: 'desc' } });
    assert.deepEqual(await firstCells(store), ['2', '1', '3'], 'equal cells keep the file order in both directions');
    assert.equal(passes(), afterFirst, 'the second sort read the file again');
    for (const column of [0, 2, 3, 4, 5]) await store.setView({ sort: { column, direction: 'asc' } });
    assert.equal(store.keys.size, KEPT_COLUMNS);
    await store.close();
  });

  it('a file changed on disk, or rows added, makes the keys again', async () => {
    const { file, store, passes } = await open('changing.csv', 'id,price\n1,10\n2,30\n3,20\n');
    await store.setView({ sort: { column: 1, direction: 'asc' } });
    assert.deepEqual(await firstCells(store), ['1', '3', '2']);
    // Same size and rows, other prices: only the keys say what order they are in.
    writeFileSync(file.path, 'id,price\n1,90\n2,30\n3,20\n');
    utimesSync(file.path, new Date(), new Date(Date.now() + 5000));
    const before = passes();
    await store.setView({ sort: { column: 1, direction: 'asc' } });
    assert.equal(passes(), before + 1, 'the keys of the file as it was were used');
    assert.deepEqual(await firstCells(store), ['3', '2', '1']);
    await store.close();

    const grown = await open('growing.csv', 'id,price\n1,10\n2,30\n');
    await grown.store.setView({ sort: { column: 1, direction: 'desc' } });
    // A row more in the index (as a spool's load adds them), the file itself untouched.
    grown.file.index.add(grown.file.index.end, 4);
    const made = grown.passes();
    await grown.store.setView({ sort: { column: 1, direction: 'desc' } });
    assert.equal(grown.passes(), made + 1, 'keys of 2 rows were used for 3');
    assert.equal(grown.store.shown, 3);
    await grown.store.close();
  });

  it('ranks order rows as comparing their values does: numbers, dates, few and many texts, empties last, stable', async () => {
    const random = mulberry32(7);
    const rows = 80_000; // more distinct texts (about 72,000) than a Map gathers, so both ways of ranking text run
    const lines = ['n,few,many,day,mixed'];
    for (let i = 0; i < rows; i++) {
      const empty = random() < 0.1;
      const num = empty ? '' : String(Math.floor(random() * 500) - 250 + (random() < 0.5 ? 0.5 : 0));
      const few = random() < 0.1 ? '' : ['Pear', 'apple', 'fig', 'Fig', 'ápple'][Math.floor(random() * 5)];
      const many = random() < 0.1 ? '' : `w${Math.floor(random() * 1e9).toString(36)}`;
      const day = random() < 0.1 ? '' : `2024-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}`;
      const mixed = random() < 0.5 ? String(Math.floor(random() * 100)) : 'x';
      lines.push(`${i},${num},${few},${many},${day},${mixed}`.replace(/^\d+,/, ''));
    }
    const { file } = await open('ranks.csv', `${lines.join('\n')}\n`);
    const read = await file.rows(Array.from({ length: rows }, (_, i) => i));
    for (const column of [0, 1, 2, 3, 4]) {
      const cells = read.map((r) => String(r.cells[column] ?? ''));
      const values = cells.map((c) =>
        c === '' ? undefined : column === 0 ? Number(c) : column === 3 ? Date.parse(c) : c.toLowerCase(),
      );
      const keys = await columnKeys(file, column, rows);
      for (const direction of ['asc', 'desc'] as const) {
        const sign = direction === 'asc' ? 1 : -1;
        const expected = Array.from({ length: rows }, (_, i) => i).sort((a, b) => {
          const [x, y] = [values[a], values[b]];
          if (x === undefined || y === undefined) return x === y ? a - b : x === undefined ? 1 : -1;
          return x === y ? a - b : (x < y ? -1 : 1) * sign;
        });
        assert.deepEqual([...orderByRanks(keys, direction)], expected, `column ${column} ${direction}`);
      }
    }
    assert.equal((await columnKeys(file, 4, rows)).kind, 'text', 'numbers mixed with text sort as text');
    await file.close();
  });

  it('a search of a CSV finds in the raw bytes the rows a decoded search finds', async () => {
    const text = [
      'id,a,b',
      '1,Mango,"mango, mango"',
      '2,x,"line',
      'MANGO"',
      '3,man,go',
      '4,"ma""ngo",y',
      '5,y,xmangox',
      '6,,',
    ].join('\n');
    const { file } = await open('search.csv', text);
    assert.deepEqual([...(await filterRows(file, { search: 'mango' }))], [0, 1, 4]);
    assert.deepEqual([...(await filterRows(file, { search: 'MAN' }))], [0, 1, 2, 4]);
    assert.deepEqual(
      [...(await filterRows(file, { search: 'n,g' }))],
      [],
      'a term with a comma is matched within a cell only',
    );
    assert.deepEqual([...(await filterRows(file, { search: 'O, M' }))], [0]);
    assert.deepEqual(
      [...(await filterRows(file, { search: 'ango' }, { order: Uint32Array.from([4, 1, 0]) }))],
      [4, 1, 0],
    );
    await file.close();
  });
});
