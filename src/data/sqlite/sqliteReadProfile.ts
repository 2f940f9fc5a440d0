/**
 * A column's profile in the data browser's read session (`sqliteReader.ts`, split from it to keep
 * each file small): aggregate queries over the rows shown, the kind first (one or two passes),
 * then one pass for the counts and bounds and one for the values grouped (distinct and most
 * common) into a temporary table. No `vscode`.
 */
import { emptyOf, keyOf, kindOfColumn, type ReadKind, textOf } from './sqliteReadSql';
import type { WasmDatabase } from './sqliteRuntime';

export interface ReadProfile {
  kind: ReadKind;
  rows: number;
  empty: number;
  distinct: number;
  min?: string;
  max?: string;
  common: Array<{ value: string; count: number }>;
}

/** The profile of column `c` (quoted, with its table's alias) of `from` over the rows `where` passes. */
export function profileOf(
  db: WasmDatabase,
  from: string,
  c: string,
  { sql, params }: { sql: string; params: string[] },
): ReadProfile {
  const kind = kindOfColumn(db, from, c, { sql, params });
  const value = `substr(${textOf(c)}, 1, 200)`;
  const bound = kind === 'number' || kind === 'date' ? keyOf(c, kind) : value;
  const filled = `CASE WHEN NOT ${emptyOf(c)} THEN ${bound} END`;
  const all = db.get(
    `SELECT count(*) AS n, coalesce(sum(${emptyOf(c)}), 0) AS e, min(${filled}) AS lo, max(${filled}) AS hi FROM ${from} WHERE (${sql})`,
    params,
  );
  db.exec('DROP TABLE IF EXISTS temp.sd_values');
  db.run(
    `CREATE TEMP TABLE sd_values AS SELECT ${value} AS v, count(*) AS n FROM ${from} WHERE (${sql}) AND NOT ${emptyOf(c)} GROUP BY 1`,
    params,
  );
  try {
    const distinct = Number(db.get('SELECT count(*) AS d FROM temp.sd_values')?.d ?? 0);
    const common = db
      .all('SELECT v, n FROM temp.sd_values ORDER BY n DESC, v LIMIT 5')
      .map((r) => ({ value: String(r.v), count: Number(r.n) }));
    const shown = (v: unknown): string | undefined =>
      v === null || v === undefined ? undefined : kind === 'date' ? new Date(Number(v)).toISOString() : String(v);
    return {
      kind,
      rows: Number(all?.n ?? 0),
      empty: Number(all?.e ?? 0),
      distinct,
      min: shown(all?.lo),
      max: shown(all?.hi),
      common,
    };
  } finally {
    db.exec('DROP TABLE temp.sd_values');
  }
}
