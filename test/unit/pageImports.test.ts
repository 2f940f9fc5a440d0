/**
 * What the analytics page's bundle may pull in. Its size is measured by `npm run bench -- page`
 * (bound 300 KB); this pins the choice that keeps it there: the page's schemas are zod/mini, and
 * full zod (its chained API, about 70 KB more minified) is reached by no module the page runs.
 */
import * as assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

const SRC = path.resolve(__dirname, '..', '..', '..', 'src');
const PAGE = path.join(SRC, 'analytics', 'page', 'entry.ts');

/** Imports that stay in the bundle: not `import type` / `export type` (esbuild drops those). */
const VALUE_IMPORT = /^(?:import|export)\s+(?!type\b)(?:[^;]*?\s+from\s+)?'([^']+)'/gm;

/** Every module the page's code reaches at run time: source files, and the packages named. */
function reached(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(VALUE_IMPORT)) {
      const spec = m[1] as string;
      if (!spec.startsWith('.')) {
        packages.add(spec);
        continue;
      }
      const target = path.resolve(path.dirname(file), spec);
      visit(statSync(`${target}.ts`, { throwIfNoEntry: false }) ? `${target}.ts` : path.join(target, 'index.ts'));
    }
  };
  visit(entry);
  return { files, packages };
}

describe('the analytics page bundle', () => {
  const { files, packages } = reached(PAGE);

  it('walks the page as esbuild does (its schemas and the shared analytics schemas are reached)', () => {
    for (const f of [
      'analytics/protocol/messages.ts',
      'api/schemas/analyticsSchemas.ts',
      'analytics/model/formState.ts',
    ]) {
      assert.ok(files.has(path.join(SRC, f)), `${f} is part of the page`);
    }
  });

  it('reaches zod only as zod/mini (and its English messages), never full zod', () => {
    const zod = [...packages].filter((p) => p === 'zod' || p.startsWith('zod/')).sort();
    assert.deepEqual(zod, ['zod/mini', 'zod/v4/locales/en.js']);
  });

  it('does not reach the host-side schemas (src/api/schemas/schemas.ts builds full-zod envelopes)', () => {
    assert.equal(files.has(path.join(SRC, 'api', 'schemas.ts')), false);
  });
});
