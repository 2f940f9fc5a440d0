/**
 * The harness's own modules (scripts/lib/*.mjs) from the compiled CommonJS tests: they are ES
 * modules, and tsc would turn a plain import() into require(), so the import is made at run time.
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The project root (this file runs compiled, from out/test/unit/helpers/). */
const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

const importEsm = new Function('url', 'return import(url)') as (url: string) => Promise<unknown>;

/** The file: URL of scripts/lib/`file`, for a child's `import` or for importScriptLib. */
export function scriptLibUrl(file: string): string {
  return pathToFileURL(path.join(ROOT, 'scripts', 'lib', file)).href;
}

/** scripts/lib/`file`, loaded; `T` says what the test uses of it. */
export async function importScriptLib<T>(file: string): Promise<T> {
  return (await importEsm(scriptLibUrl(file))) as T;
}
