/**
 * SQLite's WebAssembly compiled once a process (src/data/sqlite/sqliteWasm.ts): the host compiles
 * node-sqlite3-wasm's binary once per folder, and a worker instantiates the module it is handed
 * instead of compiling the file again.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';

import { compiledSqlite, type CompiledWasm, isCompiledWasm } from '../../src/data/sqlite/sqliteWasm';
import type { WorkerData, WorkerReply } from '../../src/data/sqlite/sqliteWorker';
import { PYTHON } from '../shared/pullDestination';
import { wasmDir } from '../shared/pullScenario';
import { scratchFolder } from '../shared/scratchFolder';

const WORKER = path.join(__dirname, '..', '..', 'src', 'data', 'sqlite', 'sqliteWorker.js');
/** A valid WebAssembly module with nothing in it: instantiated as SQLite, it has none of its calls. */
const EMPTY_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
const webAssembly = (globalThis as unknown as { WebAssembly: { compile(b: Uint8Array): Promise<CompiledWasm> } })
  .WebAssembly;

/** Opens `file` to be read in a worker handed `wasm`; resolves with the worker's reply. */
async function readIn(file: string, wasm: CompiledWasm | undefined): Promise<WorkerReply> {
  const data: WorkerData = { wasmDir: wasmDir(), token: 'test', gate: new SharedArrayBuffer(4), wasm };
  const worker = new Worker(WORKER, { workerData: data });
  try {
    return await new Promise<WorkerReply>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.postMessage({ id: 1, read: { file } });
    });
  } finally {
    await worker.terminate();
  }
}

describe('data: SQLite compiled once a process, instantiated by every worker', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = scratchFolder('sd-wasm-');
    file = path.join(dir, 'rows.sqlite');
    execFileSync(PYTHON, [
      '-c',
      'import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute("CREATE TABLE t(a)")',
      file,
    ]);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("compiles a folder's binary once: every database asks for the same module", async () => {
    const first = compiledSqlite(wasmDir());
    assert.equal(compiledSqlite(wasmDir()), first, 'one compile for the folder');
    assert.ok(isCompiledWasm(await first), 'a compiled WebAssembly module');
    assert.equal(
      await compiledSqlite(dir),
      undefined,
      'a folder without the binary: the worker loads the library itself',
    );
  });

  it('a worker instantiates the module it is handed, not the file: one that is not SQLite fails the open', async () => {
    const handed = await readIn(file, await compiledSqlite(wasmDir()));
    assert.deepEqual(handed, { id: 1, ok: true, value: { tables: ['t'], taskTables: {} } }, "SQLite's own module");
    const own = await readIn(file, undefined);
    assert.deepEqual(own, handed, 'nothing handed: the worker compiles the file itself');
    const wrong = await readIn(file, await webAssembly.compile(EMPTY_MODULE));
    assert.ok(
      'ok' in wrong && !wrong.ok,
      `a module without SQLite's calls cannot open a database: ${JSON.stringify(wrong)}`,
    );
  });
});
