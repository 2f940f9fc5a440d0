/**
 * Pull New Rows into a PostgreSQL schema, exactly once: each batch, its table's new columns and
 * the record of the batch (`_scrapedeck_pending` in the same schema: task, rows, hash) are written
 * in one transaction, so an interruption (the host killed, the server restarted, the network
 * cut) leaves either all of it or none. No `vscode`.
 *
 * open:    the catalog and the record table are made if missing (a user without CREATE on the
 *          schema is told so before anything is asked of the service); a session lock per task
 *          keeps two pulls of one task into one schema apart; the task's record is read
 * write:   BEGIN; insert the rows; record the batch (replacing the last one); COMMIT (the server
 *          answers once the commit is on its disk: synchronous_commit)
 * marked:  the record is deleted with the next batch's transaction or when the sink closes
 * resume:  the record was committed with the rows: they are in the table, nothing is written
 * release: the batch was marked: the record is deleted
 * A COMMIT whose answer was lost is settled by the next pull: the record is there (committed, the
 * same rows come again: resume) or it is not (rolled back: written as a new batch).
 */
import type { Client } from 'pg';

import type { DataRow } from '../../api/schemas/dataSchemas';
import { letGo } from '../common/handOver';
import { connect, type PgConnection, quoteIdent } from '../postgres/pgConnection';
import { catalogSql, PgTaskTable } from '../postgres/pgTable';
import { batchHash, type PendingBatch } from './pullJournal';
import type { PullSink } from './pullRows';

/** How long to wait for another pull of the same task into the same schema to end. */
const LOCK_WAIT = '10s';

export interface PostgresSinkOptions {
  taskId: string;
  taskName: string;
  connection: PgConnection;
  password: string;
  /** Test seams (kill points): before a batch's transaction begins; halfway through its rows, inside it. */
  beforeBegin?: () => void | Promise<void>;
  midWrite?: () => void | Promise<void>;
}

export class PostgresPullSink implements PullSink {
  private table: PgTaskTable | undefined;
  private stale = false;

  private constructor(
    private readonly db: Client,
    private record: PendingBatch | undefined,
    private readonly options: PostgresSinkOptions,
  ) {}

  static async open(options: PostgresSinkOptions): Promise<PostgresPullSink> {
    const db = await connect(options.connection, options.password);
    try {
      const s = quoteIdent(options.connection.schema);
      for (const sql of [
        ...catalogSql(options.connection.schema),
        `CREATE TABLE IF NOT EXISTS ${s}."_scrapedeck_pending" (task_id text PRIMARY KEY, rows integer NOT NULL, hash text NOT NULL)`,
      ]) {
        await db.query(sql);
      }
      // Held until the connection ends (a killed pull's ends with it).
      await db.query(`SET lock_timeout = '${LOCK_WAIT}'`);
      await db.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [
        `scrapedeck-pull:${options.connection.schema}:${options.taskId}`,
      ]);
      await db.query('SET lock_timeout = 0');
      const found = await db.query<{ rows: number; hash: string }>(
        `SELECT rows, hash FROM ${s}."_scrapedeck_pending" WHERE task_id = $1`,
        [options.taskId],
      );
      const row = found.rows[0];
      return new PostgresPullSink(db, row === undefined ? undefined : { rows: row.rows, hash: row.hash }, options);
    } catch (error) {
      await db.end().catch(() => undefined);
      throw error;
    }
  }

  get pending(): PendingBatch | undefined {
    return this.record;
  }

  /** The task's table (after the first write or resume). */
  get tableName(): string | undefined {
    return this.table?.name;
  }

  private get schema(): string {
    return this.options.connection.schema;
  }

  async write(rows: DataRow[]): Promise<void> {
    const hash = batchHash(rows);
    const count = rows.length;
    await this.options.beforeBegin?.();
    const recordSql = `INSERT INTO ${quoteIdent(this.schema)}."_scrapedeck_pending" (task_id, rows, hash) VALUES ($1, $2, $3) ON CONFLICT (task_id) DO UPDATE SET rows = EXCLUDED.rows, hash = EXCLUDED.hash`;
    const record = [this.options.taskId, count, hash];
    // The usual batch (the table exists, no column to add or widen, one statement's worth): the
    // record and the rows in one statement, which is one transaction by itself, so one round
    // trip to the server instead of four (BEGIN, rows, record, COMMIT): the 100,000-row bench.
    const plain = this.options.midWrite === undefined ? this.table?.plainInsert(rows, null, record.length) : undefined;
    if (plain !== undefined) {
      letGo(rows); // in the statement's parameter now
      try {
        await this.db.query(`WITH "_scrapedeck_record" AS (${recordSql}) ${plain.sql}`, [...record, ...plain.params]);
      } catch (error) {
        this.table = undefined; // read again with the next batch: the table may have been changed meanwhile
        throw error;
      }
      this.stale = false;
      this.record = { rows: count, hash };
      return;
    }
    await this.db.query('BEGIN');
    try {
      this.table ??= await PgTaskTable.forTask(this.db, this.schema, this.options, true);
      await this.table.insertRows(rows, null, this.options.midWrite);
      letGo(rows);
      await this.db.query(recordSql, record);
      await this.db.query('COMMIT');
      this.stale = false;
    } catch (error) {
      await this.db.query('ROLLBACK').catch(() => undefined);
      this.table = undefined; // its columns may have been rolled back with the batch
      throw error;
    }
    this.record = { rows: count, hash };
  }

  async resume(): Promise<number> {
    // Committed with its record: the whole batch is in the table already.
    this.table ??= await PgTaskTable.forTask(this.db, this.schema, this.options, true);
    return 0;
  }

  /** The record stays until the next batch's transaction replaces it or the sink closes (one round trip less per batch). */
  async marked(): Promise<void> {
    this.record = undefined;
    this.stale = true;
    await Promise.resolve();
  }

  async release(): Promise<number> {
    this.record = undefined;
    await this.forget();
    return 0;
  }

  async close(): Promise<void> {
    try {
      if (this.stale) await this.forget();
    } catch {
      // Left behind, it is a marked batch's record: the next pull finds other rows and drops it.
    } finally {
      await this.db.end().catch(() => undefined);
    }
  }

  private async forget(): Promise<void> {
    this.stale = false;
    await this.db.query(`DELETE FROM ${quoteIdent(this.schema)}."_scrapedeck_pending" WHERE task_id = $1`, [
      this.options.taskId,
    ]);
  }
}
