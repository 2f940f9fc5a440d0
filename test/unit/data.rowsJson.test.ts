/**
 * The PostgreSQL batch's JSON, written value by value into a Buffer (src/data/postgres/rowsJson.ts):
 * the same text `JSON.stringify` makes of the row objects, whatever the values (quotes,
 * backslashes, control characters, characters of 2 to 4 UTF-8 bytes, numbers, booleans, null),
 * however far the Buffer has to grow, and for rows with no columns.
 */
import * as assert from 'node:assert/strict';

import { jsonRowsBytes, type JsonScalar } from '../../src/data/postgres/rowsJson';

type Row = Record<string, JsonScalar>;

function viaStringify(rows: Row[], fields: string[], keys: string[]): string {
  return JSON.stringify(
    rows.map((row) => Object.fromEntries(keys.map((k, i) => [k, row[fields[i] as string] ?? null]))),
  );
}

describe('PostgreSQL batch JSON (rowsJson)', () => {
  const fields = ['a', 'b', 'c'];
  const keys = ['c0', 'c1', 'c2'];
  const valueOf = (row: Row, i: number): JsonScalar => row[fields[i] as string] ?? null;

  it('is the text JSON.stringify makes of the row objects', () => {
    const rows: Row[] = [
      { a: 'say "hi"\\ \n\t\u0001', b: 12.5, c: true },
      { a: 'é € 😀 中', b: -0.000001, c: false },
      { a: null, b: 1e21 },
      {},
    ];
    assert.equal(jsonRowsBytes(rows, keys, valueOf).toString('utf8'), viaStringify(rows, fields, keys));
  });

  it('grows past its first guess of the size (long values of multi-byte characters)', () => {
    const rows: Row[] = Array.from({ length: 500 }, (_, i) => ({ a: '😀é'.repeat(i), b: i, c: i % 2 === 0 }));
    const bytes = jsonRowsBytes(rows, keys, valueOf);
    assert.ok(bytes.length > 500 * keys.length * 16, 'the test must make the Buffer grow');
    assert.equal(bytes.toString('utf8'), viaStringify(rows, fields, keys));
  });

  it('writes rows with no columns as empty objects, and no rows as []', () => {
    assert.equal(jsonRowsBytes([{}, {}], [], () => null).toString('utf8'), '[{},{}]');
    assert.equal(jsonRowsBytes([], keys, valueOf).toString('utf8'), '[]');
  });
});
