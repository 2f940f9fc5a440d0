// The mocha command line of the tiers the scripts build themselves (the end-to-end run), failing
// closed as .mocharc.unit.json, .mocharc.page.json and test/integration/index.ts do: a stray
// `.only` or a pending test fails the run instead of shrinking it.
import path from 'node:path';

export const FAIL_CLOSED_FLAGS = ['--forbid-only', '--forbid-pending'];

/** `node <these> ` runs the end-to-end specs (or `specs`), with --grep when asked. */
export function e2eMochaArgs(root, { specs = [path.join(root, 'out', 'test', 'e2e', '**', '*.test.js')], grep } = {}) {
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
