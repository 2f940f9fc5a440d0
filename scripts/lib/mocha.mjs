// The mocha command line of the tiers the scripts build themselves (the end-to-end run), failing
// closed as .mocharc.unit.json, .mocharc.page.json and test/integration/index.ts do: a stray
// `.only` or a pending test fails the run instead of shrinking it.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

export const FAIL_CLOSED_FLAGS = ['--forbid-only', '--forbid-pending'];

/**
 * The end-to-end spec files run in name order, but for those that load a window of their own and
 * close the journey's (pairs48b: `fresh`, for its own sandbox): they run last, so the spec after
 * them in name order reuses the journey's window (test/e2e/session.ts) instead of loading one (~4 s).
 */
const E2E_LAST = ['pairs48b.test.js'];

/** The compiled end-to-end spec files, in the order they run. */
export function e2eSpecs(root) {
  const dir = path.join(root, 'out', 'test', 'e2e');
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.test.js')) : [];
  const rank = (f) => (E2E_LAST.includes(f) ? 1 : 0);
  return files.sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0)).map((f) => path.join(dir, f));
}

/** `node <these> ` runs the end-to-end specs (or `specs`), with --grep when asked. */
export function e2eMochaArgs(root, { specs = e2eSpecs(root), grep } = {}) {
  return [
    path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'),
    '--timeout',
    '120000',
    // mocha's spec reporter, plus a table of each spec's time outside its steps.
    '--reporter',
    path.join(root, 'scripts', 'lib', 'e2eReporter.cjs'),
    '--no-color',
    '--exit',
    ...FAIL_CLOSED_FLAGS,
    // The browser the spec files share is closed after the last of them (test/e2e/rootHooks.ts).
    '--require',
    path.join(root, 'out', 'test', 'e2e', 'rootHooks.js'),
    ...(grep ? ['--grep', grep] : []),
    ...specs,
  ];
}
