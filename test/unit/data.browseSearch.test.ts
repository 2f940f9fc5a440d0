/**
 * The data browser's search of a CSV for a plain ASCII term, which walks the term's hits in the
 * raw bytes: it must show exactly the rows whose decoded cells hold the term (case folded), the
 * same as decoding every row would, at read boundaries, in quoted cells and in the header.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { cellText } from '../../src/data/browse/store/cells';
import { indexFile } from '../../src/data/browse/store/fileIndexer';
import { RecordFile } from '../../src/data/browse/store/recordFile';
import { filterRows, termHits } from '../../src/data/browse/store/rowFilter';

describe('data browser: the search of a CSV file', () => {
  let dir: string;
  const files: RecordFile[] = [];
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'browse-search-'))));
  after(async () => {
    for (const f of files) await f.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const indexed = async (name: string, text: string): Promise<RecordFile> => {
    writeFileSync(path.join(dir, name), text);
    const file = await RecordFile.open(path.join(dir, name), 'csv');
    files.push(file);
    await indexFile(file);
    return file;
  };
  const found = async (file: RecordFile, search: string): Promise<number[]> => [
    ...(await filterRows(file, { search })),
  ];
  /** The rows whose decoded cells hold the term: what the search must show, found the slow way. */
  const decodedHolding = async (file: RecordFile, term: string): Promise<number[]> => {
    const all = await file.rows([...Array(file.count).keys()]);
    const t = term.toLowerCase();
    return all.filter((r) => r.cells.some((c) => cellText(c).toLowerCase().includes(t))).map((r) => r.n);
  };

  it('finds a term in any case, in quoted cells with "" and line breaks, never in the header', async () => {
    const file = await indexed(
      'quoted.csv',
      '\ufeffid,mango,note\r\n' +
        '1,plum,"he said ""MANGO"" twice"\r\n' +
        '2,pear,"man""go"\r\n' +
        '3,kiwi,"first line\nsecond mAnGo line"\r\n' +
        '4,fig,mang\r\n' +
        '5,"o,mango",x\r\n' +
        '6,Mango,\r\n' +
        '7,mangomango,mmango\r\n',
    );
    assert.deepEqual(await found(file, 'mango'), [0, 2, 4, 5, 6]);
    assert.deepEqual(await found(file, 'MANGO'), [0, 2, 4, 5, 6]);
    assert.deepEqual(await found(file, 'note'), []);
    assert.deepEqual(await found(file, 'line second'), []);
    for (const term of ['mango', 'ma', 'o', 'e', 'he said', 'g line', '1', '"', 'man"go', 'mango x'])
      assert.deepEqual(await found(file, term), await decodedHolding(file, term), term);
  });

  it('does not match a term across a delimiter unless a cell holds it', async () => {
    const file = await indexed('commas.csv', 'a,b,c\nx,fig,plum\n"fig,plum",y,z\nfig plum,1,2\n');
    assert.deepEqual(await found(file, 'fig,plum'), [1]);
    assert.deepEqual(await found(file, 'fig,plum'), await decodedHolding(file, 'fig,plum'));
  });

  it('finds hits on both sides of a read boundary, with row numbers right past it', async () => {
    // Rows of one length, so the rows that end and begin each 4 MB read are known: the term lies in them.
    const row = (i: number, name: string): string => {
      const id = String(i).padStart(6, '0');
      return `${id},${name},"${'lorem ipsum dolor sit amet '.repeat(3)}""q"" ${id}"`;
    };
    const length = row(0, 'plum_').length + 1;
    const b = Math.floor((4 << 20) / length);
    const marked = new Set([0, b - 1, b, b + 1, 2 * b - 1, 2 * b, 89_999]);
    const rows = ['id,name,description'];
    for (let i = 0; i < 90_000; i++) rows.push(row(i, marked.has(i) ? 'Zebra' : 'plum_'));
    const file = await indexed('big.csv', rows.join('\n'));
    assert.ok((await file.size()) > 2 * (4 << 20), 'the file spans several reads');
    assert.deepEqual(
      await found(file, 'zebra'),
      [...marked].sort((x, y) => x - y),
    );
    assert.deepEqual(await found(file, 'zebra'), await decodedHolding(file, 'zebra'));
    assert.deepEqual(await found(file, ' 089999'), [89_999]);
    assert.deepEqual(await found(file, `${b}"`), await decodedHolding(file, `${b}"`));
  });

  it('finds a hit after a near miss of the same bytes, and none cut off at a buffer end', () => {
    const hits = termHits('xyx');
    const next = hits(Buffer.from('xxYxyX'));
    assert.equal(next(0), 1);
    assert.equal(next(2), 3);
    assert.equal(next(4), -1);
    assert.equal(termHits('mango')(Buffer.from('a mango').subarray(0, 5))(0), -1);
  });
});
