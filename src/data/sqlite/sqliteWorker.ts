/**
 * The SQLite worker: a thread of its own that owns node-sqlite3-wasm and one database, so no query
 * (however a database makes it run) holds the extension host's thread; `sqliteThread.ts` starts
 * it, times each request and ends it when one takes too long. Bundled as `dist/sqliteWorker.js`
 * (esbuild.mjs), next to the code that starts it. No `vscode`.
 */
import { parentPort, workerData } from 'node:worker_threads';

import { lockToken } from './sqliteFiles';
import { type ReadKeys, type ReadRequest, SqliteReader, SqliteReadError } from './sqliteReader';
import { useCompiledSqlite } from './sqliteRuntime';
import { SchemaError } from './sqliteSchema';
import { type OpenRequest, type SessionRequest, SqliteSession } from './sqliteSession';
import { TooManyColumnsError } from './sqliteTable';
import { type CompiledWasm, isCompiledWasm } from './sqliteWasm';

export interface WorkerData {
  wasmDir: string;
  /** Written into the lock's owner file, so the host can remove the lock if it has to end the worker. */
  token: string;
  /** One Int32: the host sets it to 1 to let a write go on after the midway seam. */
  gate: SharedArrayBuffer;
  /** The library's WebAssembly, compiled once by the host; absent if it could not be (compiled here then). */
  wasm?: CompiledWasm;
}

export type WorkerMessage =
  | { id: number; open: OpenRequest }
  | { id: number; request: SessionRequest }
  /** The data browser's: a database opened only to be read (`sqliteReader.ts`). */
  | { id: number; read: { file: string } }
  | { id: number; query: ReadRequest };

/** What a failure becomes on the way to the host (an Error does not cross as its class). */
export interface WorkerFailure {
  name: string;
  message: string;
  problem?: string;
  object?: string;
  fields?: number;
}

export type WorkerReply =
  | { id: number; ok: true; value: unknown; table?: string }
  | { id: number; ok: false; error: WorkerFailure }
  | { midway: true };

function failure(error: unknown): WorkerFailure {
  if (error instanceof SqliteReadError) return { name: error.name, message: error.message, problem: error.problem };
  if (error instanceof SchemaError)
    return { name: error.name, message: error.message, problem: error.problem, object: error.object };
  if (error instanceof TooManyColumnsError) return { name: error.name, message: error.message, fields: error.fields };
  return {
    name: error instanceof Error ? error.name : 'Error',
    message: error instanceof Error ? error.message : String(error),
  };
}

/**
 * A sort's keys (`ReadKeys`: typed arrays of a million rows) are handed over, not copied; the row
 * ids are copied, since the reader keeps a filter's for a profile.
 */
function handedOver(value: unknown): ArrayBuffer[] {
  if (typeof value !== 'object' || value === null || !('ids' in value)) return [];
  const keys = value as ReadKeys;
  return [keys.numbers, keys.text?.bytes, keys.text?.ends].flatMap((a) =>
    a !== undefined && a.buffer instanceof ArrayBuffer ? [a.buffer] : [],
  );
}

const port = parentPort;
if (port !== null) {
  const data = workerData as WorkerData;
  lockToken.value = data.token;
  if (isCompiledWasm(data.wasm)) useCompiledSqlite(data.wasm);
  const gate = new Int32Array(data.gate);
  const midway = (): void => {
    Atomics.store(gate, 0, 0);
    port.postMessage({ midway: true } satisfies WorkerReply);
    Atomics.wait(gate, 0, 0);
  };
  let session: SqliteSession | undefined;
  let reader: SqliteReader | undefined;
  port.on('message', (message: WorkerMessage) => {
    let reply: WorkerReply;
    try {
      if ('read' in message) {
        reader = SqliteReader.open(data.wasmDir, message.read.file);
        reply = { id: message.id, ok: true, value: { tables: reader.tables, taskTables: reader.taskTables } };
      } else if ('query' in message) {
        if (reader === undefined) throw new Error('no database is open to be read');
        reply = { id: message.id, ok: true, value: reader.handle(message.query) };
      } else if ('open' in message) {
        const opened = SqliteSession.open(data.wasmDir, message.open);
        session = opened.session;
        reply = { id: message.id, ok: true, value: opened.pending };
      } else {
        if (session === undefined) throw new Error('no database is open');
        reply = { id: message.id, ok: true, value: session.handle(message.request, midway), table: session.tableName };
      }
    } catch (error) {
      reply = { id: message.id, ok: false, error: failure(error) };
    }
    port.postMessage(reply, reply.ok ? handedOver(reply.value) : []);
  });
}
