/**
 * Export Data into PostgreSQL: every row of the task (or of one run, by its lot) into a new table
 * of the connection's schema, named from the task as for SQLite (" (2)" when the name is taken),
 * in one transaction: the table appears whole at commit, or not at all (a failure, a cancel, the
 * host stopped: the server rolls it back). It is not the table pulls append to: an export is a
 * copy, a pull keeps one table in step. No `vscode`.
 */
import type { Client } from 'pg';

import type { DataRow } from '../../api/schemas/dataSchemas';
import { connect, type PgConnection } from './pgConnection';
import { PgTaskTable } from './pgTable';

export interface PgExportOptions {
  connection: PgConnection;
  password: string;
  taskId: string;
  taskName: string;
  /** The run's lot, when the rows are one run's (kept in `_scrapedeck_lot`). */
  lot?: string;
}

export class PgExportWriter {
  private table: PgTaskTable | undefined;
  private done = false;

  private constructor(
    private readonly db: Client,
    private readonly options: PgExportOptions,
  ) {}

  static async create(options: PgExportOptions): Promise<PgExportWriter> {
    const db = await connect(options.connection, options.password);
    try {
      await db.query('BEGIN');
    } catch (error) {
      await db.end().catch(() => undefined);
      throw error;
    }
    return new PgExportWriter(db, options);
  }

  /** The table the rows are in (after the first page). */
  get tableName(): string | undefined {
    return this.table?.name;
  }

  async write(rows: readonly DataRow[]): Promise<void> {
    if (rows.length === 0) return;
    this.table ??= await PgTaskTable.forTask(this.db, this.options.connection.schema, this.options, false);
    await this.table.insertRows(rows, this.options.lot ?? null);
  }

  /** Commits the transaction: the table appears whole. An export of no rows still makes the table (with no columns but Scrapedeck's). */
  async commit(): Promise<void> {
    try {
      if (this.table === undefined) {
        this.table = await PgTaskTable.forTask(this.db, this.options.connection.schema, this.options, false);
        await this.table.insertRows([], this.options.lot ?? null);
      }
      await this.db.query('COMMIT');
      this.done = true;
    } finally {
      await this.db.end().catch(() => undefined);
    }
  }

  /** Rolls everything back: no table is left. */
  async discard(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await this.db.query('ROLLBACK').catch(() => undefined);
    await this.db.end().catch(() => undefined);
  }
}
