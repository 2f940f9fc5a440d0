/**
 * node-sqlite3-wasm's WebAssembly, compiled once a process. The library compiles its binary itself,
 * in every worker (`sqliteWorker.ts`, one a database): about 0.4 CPU-s each here. The host thread
 * compiles it once instead (V8 does the work on background threads) and hands the module to every
 * worker, which instantiates it (`sqliteRuntime.ts`); compiled code is shared between a process's
 * threads, so a second database starts in a fraction of the first's time. No `vscode`.
 */
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';

/** A compiled WebAssembly module, opaque here. */
export type CompiledWasm = object;

// The runtime's WebAssembly, as far as it is used here: TypeScript declares it in the DOM library,
// which this project does not load.
interface WasmApi {
  compile(bytes: Uint8Array): Promise<CompiledWasm>;
  Module: abstract new (...args: never[]) => CompiledWasm;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

export function isCompiledWasm(value: unknown): value is CompiledWasm {
  return value instanceof wasm.Module;
}

const compiled = new Map<string, Promise<CompiledWasm | undefined>>();

/**
 * The module compiled from `wasmDir`'s `node-sqlite3-wasm.wasm`, once for the process. Undefined
 * if the file cannot be read or compiled: a worker then loads the library as it ships, which says
 * what is wrong.
 */
export function compiledSqlite(wasmDir: string): Promise<CompiledWasm | undefined> {
  let module = compiled.get(wasmDir);
  if (module === undefined) {
    module = readFile(path.join(wasmDir, 'node-sqlite3-wasm.wasm'))
      .then((bytes) => wasm.compile(bytes))
      .catch(() => undefined);
    compiled.set(wasmDir, module);
  }
  return module;
}
