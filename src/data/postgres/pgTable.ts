/**
 * One task's rows as one PostgreSQL table in the connection's schema, named as the SQLite
 * destination names it (`../sqlite/sqliteTable.ts`: the task's name, " (2)" when taken; here also
 * cut to PostgreSQL's 63 bytes); one column per field, a field first seen later becoming a new
 * column. No `vscode`.
 *
 * - Values are stored as sent, typed: text as `text` ('007' stays '007'), numbers as
 *   `double precision` (what JSON numbers are), true/false as `boolean`, a missing or null value
 *   as NULL. A field whose values are of more than one kind becomes a `text` column (its numbers
 *   and booleans as they were written: 12.5, true). The service sends no nested values; text that
 *   PostgreSQL cannot hold (the character U+0000, half a surrogate pair) becomes U+FFFD.
 * - Every table has `_scrapedeck_row` (the order rows arrived in), `_scrapedeck_lot` (the run's
 *   lot when the rows are one run's: an export of a lot; NULL for a pull, whose rows the service
 *   does not tell the run of) and `_scrapedeck_pulled_at` (the time of the transaction).
 * - With a `catalog` (a schema pulled into), the task's table and its field → column map are kept
 *   in `_scrapedeck_tables` and `_scrapedeck_columns`, so later pulls find them.
 */
import type { ClientBase } from 'pg';

import type { DataRow, DataValue } from '../../api/schemas/dataSchemas';
import { cleanName, freeName } from '../sqlite/sqliteTable';
import { quoteIdent } from './pgConnection';
import { jsonRowsBytes } from './rowsJson';

/** PostgreSQL's limit of columns in a table, less Scrapedeck's three. */
export const MAX_FIELDS = 1600 - 3;
const NAME_BYTES = 63;

export type ColumnType = 'text' | 'double precision' | 'boolean';

export function catalogSql(schema: string): string[] {
  const s = quoteIdent(schema);
  return [
    `CREATE TABLE IF NOT EXISTS ${s}."_scrapedeck_tables" (task_id text PRIMARY KEY, table_name text NOT NULL, task_name text NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${s}."_scrapedeck_columns" (table_name text NOT NULL, field text NOT NULL, column_name text NOT NULL, PRIMARY KEY (table_name, field))`,
  ];
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function cleanText(value: string): string {
  return value.replace(LONE_SURROGATE, '\ufffd').replaceAll('\u0000', '\ufffd');
}

function kindOf(value: DataValue): ColumnType {
  return typeof value === 'number' ? 'double precision' : typeof value === 'boolean' ? 'boolean' : 'text';
}

/** A value as the column of `type` takes it. */
function pgValue(value: DataValue | undefined, type: ColumnType): string | number | boolean | null {
  if (value === undefined || value === null) return null;
  if (type === 'text') return typeof value === 'string' ? cleanText(value) : String(value);
  return value;
}

/** At most `bytes` bytes of UTF-8, never half a character. */
function cutBytes(name: string, bytes: number): string {
  let out = '';
  for (const ch of name) {
    if (Buffer.byteLength(out + ch, 'utf8') > bytes) break;
    out += ch;
  }
  return out;
}

/** A name as for SQLite, short enough for PostgreSQL with room for " (n)". */
export function pgName(name: string, fallback: string, taken: ReadonlySet<string>): string {
  const base = cleanName(name, fallback);
  const fits = Buffer.byteLength(base, 'utf8') <= NAME_BYTES ? base : cutBytes(base, NAME_BYTES - 8);
  const free = freeName(fits, taken);
  return Buffer.byteLength(free, 'utf8') <= NAME_BYTES ? free : freeName(cutBytes(base, NAME_BYTES - 8), taken);
}

export class TooManyFieldsError extends Error {
  override readonly name = 'TooManyFieldsError';
  constructor(readonly fields: number) {
    super(`the rows have ${fields} fields; a PostgreSQL table holds at most ${MAX_FIELDS} of them`);
  }
}

export class PgTaskTable {
  /** field → column and its type. */
  private readonly columns = new Map<string, { name: string; type: ColumnType }>();

  private constructor(
    private readonly db: ClientBase,
    private readonly schema: string,
    readonly name: string,
    private readonly catalog: boolean,
    private created: boolean,
  ) {}

  private get qualified(): string {
    return `${quoteIdent(this.schema)}.${quoteIdent(this.name)}`;
  }

  /**
   * The task's table: the catalog's (with `catalog`), or a new name (created with the first
   * rows). Call inside the transaction that writes the first rows.
   */
  static async forTask(
    db: ClientBase,
    schema: string,
    task: { taskId: string; taskName: string },
    catalog: boolean,
  ): Promise<PgTaskTable> {
    const s = quoteIdent(schema);
    if (catalog) {
      const known = await db.query<{ table_name: string }>(
        `SELECT table_name FROM ${s}."_scrapedeck_tables" WHERE task_id = $1`,
        [task.taskId],
      );
      const name = known.rows[0]?.table_name;
      if (name !== undefined && (await columnTypes(db, schema, name)) !== undefined) {
        const table = new PgTaskTable(db, schema, name, true, true);
        const types = (await columnTypes(db, schema, name)) ?? new Map<string, ColumnType>();
        const mapped = await db.query<{ field: string; column_name: string }>(
          `SELECT field, column_name FROM ${s}."_scrapedeck_columns" WHERE table_name = $1`,
          [name],
        );
        for (const row of mapped.rows) {
          const type = types.get(row.column_name);
          if (type !== undefined) table.columns.set(row.field, { name: row.column_name, type });
        }
        return table;
      }
    }
    const taken = await db.query<{ relname: string }>(
      'SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1',
      [schema],
    );
    const name = pgName(task.taskName, 'task', new Set(taken.rows.map((r) => r.relname.toLowerCase())));
    if (catalog) {
      await db.query(
        `INSERT INTO ${s}."_scrapedeck_tables" (task_id, table_name, task_name) VALUES ($1, $2, $3) ON CONFLICT (task_id) DO UPDATE SET table_name = EXCLUDED.table_name, task_name = EXCLUDED.task_name`,
        [task.taskId, name, task.taskName],
      );
    }
    return new PgTaskTable(db, schema, name, catalog, false);
  }

  /** Inserts the rows (one statement; two with `midway`), creating the table, adding or widening columns first. `midway` runs between two statements (a test seam). */
  async insertRows(rows: readonly DataRow[], lot: string | null, midway?: () => void | Promise<void>): Promise<void> {
    await this.learn(rows);
    const chunk = midway === undefined ? rows.length : Math.max(1, rows.length >> 1);
    for (let at = 0; at < rows.length; at += chunk) {
      if (at > 0) await midway?.();
      const { sql, params } = this.insertSql(rows.slice(at, at + chunk), lot, 0);
      await this.db.query(sql, params);
    }
  }

  /**
   * The rows' INSERT as one statement whose bind parameters follow `lead` of the caller's, or
   * undefined when the table must change first (made, or a column added or widened): then
   * `insertRows` inside a transaction.
   */
  plainInsert(
    rows: readonly DataRow[],
    lot: string | null,
    lead: number,
  ): { sql: string; params: (Buffer | string | null)[] } | undefined {
    if (!this.created) return undefined;
    const { added, widen } = this.scan(rows);
    if (added.size > 0 || widen.size > 0) return undefined;
    return this.insertSql(rows, lot, lead);
  }

  /**
   * One INSERT of `rows` into the columns known now, its two parameters numbered after `lead`:
   * the rows as one JSON array the server expands (`json_to_recordset`), and the lot. One
   * parameter instead of one per value: the server parses and plans a short statement and the
   * client sends one string: about a third less time a batch than a multi-row VALUES list of a
   * parameter a value (the destinations bench).
   */
  private insertSql(
    rows: readonly DataRow[],
    lot: string | null,
    lead: number,
  ): { sql: string; params: (Buffer | string | null)[] } {
    const fields = [...this.columns.keys()];
    const types = fields.map((f) => (this.columns.get(f) as { type: ColumnType }).type);
    const names = [
      ...fields.map((f) => quoteIdent((this.columns.get(f) as { name: string }).name)),
      '"_scrapedeck_lot"',
    ];
    const keys = fields.map((_, i) => `c${i}`);
    const json = jsonRowsBytes(rows, keys, (row, i) => pgValue(row[fields[i] as string], types[i] as ColumnType));
    const defs = keys.map((k, i) => `"${k}" ${types[i] as string}`).join(', ');
    // In the order sent (`_scrapedeck_row` counts up in it): the array's order, made explicit.
    const from = `ROWS FROM (json_to_recordset($${lead + 1}::json) AS (${defs})) WITH ORDINALITY AS x(${[...keys, 'n'].map((k) => `"${k}"`).join(', ')})`;
    const sql = `INSERT INTO ${this.qualified} (${names.join(', ')}) SELECT ${keys.map((k) => `x."${k}"`).join(', ')}, $${lead + 2}::text FROM ${from} ORDER BY x."n"`;
    // A Buffer goes as the parameter's bytes (binary format), which is what json_recv reads.
    return { sql, params: [json, lot] };
  }

  /** Fields the table lacks, and typed columns whose rows now hold another kind (they become text). */
  private scan(rows: readonly DataRow[]): { added: Map<string, ColumnType | undefined>; widen: Set<string> } {
    const added = new Map<string, ColumnType | undefined>();
    const widen = new Set<string>();
    for (const row of rows) {
      for (const [field, value] of Object.entries(row)) {
        const known = this.columns.get(field);
        const kind = value === null ? undefined : kindOf(value);
        if (known !== undefined) {
          if (kind !== undefined && kind !== known.type && known.type !== 'text') widen.add(field);
          continue;
        }
        if (!added.has(field)) added.set(field, kind);
        else if (kind !== undefined) {
          const was = added.get(field);
          added.set(field, was === undefined || was === kind ? kind : 'text');
        }
      }
    }
    return { added, widen };
  }

  private async learn(rows: readonly DataRow[]): Promise<void> {
    const { added, widen } = this.scan(rows);
    if (this.columns.size + added.size > MAX_FIELDS) throw new TooManyFieldsError(this.columns.size + added.size);
    for (const field of widen) {
      const column = this.columns.get(field) as { name: string; type: ColumnType };
      const c = quoteIdent(column.name);
      await this.db.query(`ALTER TABLE ${this.qualified} ALTER COLUMN ${c} TYPE text USING ${c}::text`);
      column.type = 'text';
    }
    if (added.size === 0 && this.created) return;
    const present = this.created ? [...((await columnTypes(this.db, this.schema, this.name)) ?? new Map()).keys()] : [];
    const taken = new Set(
      [
        ...present,
        ...[...this.columns.values()].map((c) => c.name),
        '_scrapedeck_row',
        '_scrapedeck_lot',
        '_scrapedeck_pulled_at',
      ].map((c) => c.toLowerCase()),
    );
    const s = quoteIdent(this.schema);
    for (const [field, kind] of added) {
      const column = { name: pgName(field, 'column', taken), type: kind ?? 'text' };
      taken.add(column.name.toLowerCase());
      this.columns.set(field, column);
      if (this.created)
        await this.db.query(`ALTER TABLE ${this.qualified} ADD COLUMN ${quoteIdent(column.name)} ${column.type}`);
      if (this.catalog) {
        await this.db.query(
          `INSERT INTO ${s}."_scrapedeck_columns" (table_name, field, column_name) VALUES ($1, $2, $3) ON CONFLICT (table_name, field) DO UPDATE SET column_name = EXCLUDED.column_name`,
          [this.name, field, column.name],
        );
      }
    }
    if (!this.created) {
      const defs = [...this.columns.values()].map((c) => `${quoteIdent(c.name)} ${c.type}`);
      const all = [
        '"_scrapedeck_row" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY',
        ...defs,
        '"_scrapedeck_lot" text',
        '"_scrapedeck_pulled_at" timestamptz NOT NULL DEFAULT now()',
      ];
      await this.db.query(`CREATE TABLE ${this.qualified} (${all.join(', ')})`);
      this.created = true;
    }
  }
}

/** The table's columns and their types (any other type is taken as text: the value is sent as text and the server casts it), or undefined when there is no such table. */
async function columnTypes(
  db: ClientBase,
  schema: string,
  table: string,
): Promise<Map<string, ColumnType> | undefined> {
  const found = await db.query<{ column_name: string; data_type: string }>(
    'SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2',
    [schema, table],
  );
  if (found.rows.length === 0) return undefined;
  return new Map(
    found.rows.map((r) => [
      r.column_name,
      r.data_type === 'double precision' || r.data_type === 'boolean' ? r.data_type : 'text',
    ]),
  );
}
