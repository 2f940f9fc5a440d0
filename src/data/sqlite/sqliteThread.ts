/**
 * The extension host's side of the SQLite worker (`sqliteWorker.ts`): one worker per open
 * database, each request timed. A request that passes the time limit ends the worker (the only
 * way to stop a query that does not return: a database can be built so that one never does), its
 * lock is removed (by the token it wrote) and the request fails with `SqliteTimeLimitError`; an
 * open transaction dies with the worker, so nothing it did is committed. No `vscode`.
 */
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';

import { removeLockIfOwned, sideFilesBeside, sideFilesIn } from './sqliteFiles';
import { type ReadProblem, type ReadRequest, SqliteReadError } from './sqliteReader';
import { SchemaError, type SchemaProblem } from './sqliteSchema';
import type { OpenRequest, SessionRequest } from './sqliteSession';
import { TooManyColumnsError } from './sqliteTable';
import { compiledSqlite, type CompiledWasm } from './sqliteWasm';
import type { WorkerData, WorkerFailure, WorkerMessage, WorkerReply } from './sqliteWorker';

/** Long enough for any step a database Scrapedeck can vouch for takes (a batch, a checkpoint, the first load of the WebAssembly on a busy machine). */
export const SQLITE_TIME_LIMIT_MS = 30_000;

export class SqliteTimeLimitError extends Error {
  override readonly name = 'SqliteTimeLimitError';
  constructor(readonly seconds: number) {
    super(`SQLite did not finish a step within ${seconds} seconds and was stopped`);
  }
}

/** Another program (or window) holds the database's lock. */
export class SqliteLockedError extends Error {
  override readonly name = 'SqliteLockedError';
}

export interface ThreadOptions {
  /** Where node-sqlite3-wasm's files are. */
  wasmDir: string;
  timeLimitMs?: number;
  /** Test seam: runs on this thread when a write is halfway through its rows (the worker waits). */
  midway?: () => void;
}

function rebuild(error: WorkerFailure): Error {
  if (error.name === 'SqliteReadError') return new SqliteReadError(error.problem as ReadProblem, error.message);
  if (error.name === 'SchemaError') return new SchemaError(error.problem as SchemaProblem, error.object ?? '');
  if (error.name === 'TooManyColumnsError') return new TooManyColumnsError(error.fields ?? 0);
  if (/database is locked/i.test(error.message)) return new SqliteLockedError(error.message);
  const rebuilt = new Error(error.message);
  rebuilt.name = error.name;
  return rebuilt;
}

export class SqliteThread {
  private next = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }
  >();
  private ended: Error | undefined;
  private table: string | undefined;

  private constructor(
    private readonly worker: Worker,
    private readonly gate: Int32Array,
    private readonly lock: string,
    private readonly token: string,
    private readonly options: ThreadOptions,
  ) {
    worker.on('message', (reply: WorkerReply) => this.answer(reply));
    worker.on('error', (error) => this.end(error));
    worker.on('exit', () => this.end(new Error('the SQLite worker stopped')));
  }

  /** Starts a worker and opens the database in it; `pending` is the stored record of a pull's batch in flight (unparsed). */
  static async open(request: OpenRequest, options: ThreadOptions): Promise<{ thread: SqliteThread; pending: unknown }> {
    const lock = (request.pull ? sideFilesIn(request.pull.sideDir, request.file) : sideFilesBeside(request.file)).lock;
    const thread = SqliteThread.start(lock, options, await compiledSqlite(options.wasmDir));
    try {
      const pending = await thread.send({ id: 0, open: request });
      return { thread, pending };
    } catch (error) {
      await thread.stop();
      throw error;
    }
  }

  /** Starts a worker that reads `file` only (the data browser's); resolves with the tables it offers. */
  static async openReader(
    file: string,
    options: ThreadOptions,
  ): Promise<{ thread: SqliteThread; tables: string[]; taskTables: Record<string, string> }> {
    const thread = SqliteThread.start(sideFilesBeside(file).lock, options, await compiledSqlite(options.wasmDir));
    try {
      const opened = (await thread.send({ id: 0, read: { file } })) as {
        tables: string[];
        taskTables: Record<string, string>;
      };
      return { thread, ...opened };
    } catch (error) {
      await thread.stop();
      throw error;
    }
  }

  private static start(lock: string, options: ThreadOptions, wasm: CompiledWasm | undefined): SqliteThread {
    const token = randomBytes(16).toString('hex');
    const gate = new SharedArrayBuffer(4);
    const data: WorkerData = { wasmDir: options.wasmDir, token, gate, wasm };
    const worker = new Worker(path.join(__dirname, 'sqliteWorker.js'), { workerData: data });
    return new SqliteThread(worker, new Int32Array(gate), lock, token, options);
  }

  /** A step of a read session (`sqliteReader.ts`). */
  query(request: ReadRequest): Promise<unknown> {
    return this.send({ id: 0, query: request });
  }

  /** Ends a read session and its worker. */
  async closeReader(): Promise<void> {
    try {
      if (this.ended === undefined) await this.query({ op: 'close' });
    } finally {
      await this.stop();
    }
  }

  /** The task's table, once the worker has one. */
  get tableName(): string | undefined {
    return this.table;
  }

  call(request: SessionRequest): Promise<unknown> {
    return this.send({ id: 0, request });
  }

  /** Closes the database (its log folded in) and ends the worker. */
  async close(): Promise<void> {
    try {
      if (this.ended === undefined) await this.call({ op: 'close' });
    } finally {
      await this.stop();
    }
  }

  private send(message: WorkerMessage): Promise<unknown> {
    if (this.ended !== undefined) return Promise.reject(this.ended);
    const id = this.next++;
    const limit = this.options.timeLimitMs ?? SQLITE_TIME_LIMIT_MS;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.end(new SqliteTimeLimitError(Math.round(limit / 1000))), limit);
      this.waiting.set(id, { resolve, reject, timer });
      this.worker.postMessage({ ...message, id });
    });
  }

  private answer(reply: WorkerReply): void {
    if ('midway' in reply) {
      try {
        this.options.midway?.();
      } finally {
        Atomics.store(this.gate, 0, 1);
        Atomics.notify(this.gate, 0);
      }
      return;
    }
    const waiting = this.waiting.get(reply.id);
    if (waiting === undefined) return;
    this.waiting.delete(reply.id);
    clearTimeout(waiting.timer);
    if (reply.ok) {
      if (reply.table !== undefined) this.table = reply.table;
      waiting.resolve(reply.value);
    } else {
      waiting.reject(rebuild(reply.error));
    }
  }

  /** Every request waiting fails with `error`; the worker is ended and the lock it held removed. */
  private end(error: Error): void {
    if (this.ended !== undefined) return;
    this.ended = error;
    for (const { reject, timer } of this.waiting.values()) {
      clearTimeout(timer);
      reject(error);
    }
    this.waiting.clear();
    void this.stop();
  }

  private stopping: Promise<void> | undefined;

  private stop(): Promise<void> {
    this.ended ??= new Error('the SQLite worker was stopped');
    this.stopping ??= this.worker.terminate().then(
      () => this.dropLock(),
      () => this.dropLock(),
    );
    return this.stopping;
  }

  /** A worker ended mid-session leaves its lock: it is removed only if it holds this worker's token. */
  private dropLock(): void {
    try {
      removeLockIfOwned(this.lock, this.token);
    } catch {
      // Gone already, or not ours: nothing of ours to remove.
    }
  }
}
