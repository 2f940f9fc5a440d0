/**
 * What a pull destination holds, read back by another program (Python: its csv module, its
 * sqlite3 module, json for JSON Lines), row by row, as one comparable string per row; and the
 * same strings for the rows the sandbox has. Shared by the unit tests and the bench.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

import type { DataRow } from '../../src/api/schemas/dataSchemas';
import { neutraliseFormula } from '../../src/platform/csvCell';

export type DestinationFormat = 'csv' | 'jsonl' | 'sqlite';

const READER = `
import csv, json, sqlite3, sys
kind, name = sys.argv[1], sys.argv[2]
if kind == 'csv':
    with open(name, encoding='utf-8-sig', newline='') as f:
        table = list(csv.reader(f))
    out = [dict(zip(table[0], r)) for r in table[1:]] if table else []
else:
    db = sqlite3.connect('file:' + name + '?mode=ro', uri=True)
    task = sys.argv[3]
    found = db.execute('SELECT table_name FROM "_scrapedeck_tables" WHERE task_id = ?', (task,)).fetchone()
    out = []
    if found:
        cur = db.execute('SELECT * FROM "%s" ORDER BY rowid' % found[0].replace('"', '""'))
        cols = [d[0] for d in cur.description]
        out = [dict(zip(cols, r)) for r in cur]
    db.close()
print(json.dumps(out, ensure_ascii=False))
`;

/** Python 3 for reading back: Debian's (it has openpyxl) when it is there. */
export const PYTHON = ((): string => {
  try {
    readFileSync('/usr/bin/python3');
    return '/usr/bin/python3';
  } catch {
    return 'python3';
  }
})();

/** One string per row the destination holds, in its order (for SQLite: the task's table). */
export function readBack(file: string, format: DestinationFormat, taskId = ''): string[] {
  if (format === 'jsonl') {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return [];
    }
    return text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.stringify(JSON.parse(l)));
  }
  try {
    readFileSync(file);
  } catch {
    return [];
  }
  const rows = JSON.parse(
    execFileSync(PYTHON, ['-c', READER, format, file, taskId], { encoding: 'utf8', maxBuffer: 1 << 30 }),
  ) as Record<string, unknown>[];
  return rows.map((r) => JSON.stringify(r));
}

/** The same string for a row the sandbox has, as `readBack` gives it for that format. */
export function expected(row: DataRow, format: DestinationFormat): string {
  if (format === 'jsonl') return JSON.stringify(row);
  if (format === 'sqlite')
    return JSON.stringify(
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'boolean' ? Number(v) : v])),
    );
  return JSON.stringify(
    Object.fromEntries(
      Object.entries(row).map(([k, v]) => [
        neutraliseFormula(k),
        v === null ? '' : typeof v === 'string' ? neutraliseFormula(v) : String(v),
      ]),
    ),
  );
}

export interface Comparison {
  missing: number;
  twice: number;
  /** Rows that are in the destination but are none of the sandbox's, or out of order. */
  wrong: number;
  equal: boolean;
}

/** Row by row: the destination against the rows the sandbox has (all of them, in order). */
export function compareRows(got: readonly string[], want: readonly string[]): Comparison {
  const counts = new Map<string, number>();
  for (const g of got) counts.set(g, (counts.get(g) ?? 0) + 1);
  const wanted = new Map<string, number>();
  for (const w of want) wanted.set(w, (wanted.get(w) ?? 0) + 1);
  let missing = 0;
  let twice = 0;
  let wrong = 0;
  for (const [row, n] of wanted) {
    const have = counts.get(row) ?? 0;
    if (have < n) missing += n - have;
    if (have > n) twice += have - n;
  }
  for (const [row, n] of counts) if (!wanted.has(row)) wrong += n;
  const equal = got.length === want.length && got.every((g, i) => g === want[i]);
  if (!equal && missing === 0 && twice === 0) wrong = Math.max(wrong, 1); // same rows, another order
  return { missing, twice, wrong, equal };
}
