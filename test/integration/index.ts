/**
 * The mocha runner inside VS Code's extension host (code-server here, VS Code desktop under
 * @vscode/test-electron). VS Code loads this module from `extensionTestsPath` and awaits `run()`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import Mocha from 'mocha';

/** Every `*.test.js` below `dir`, sorted so the order is stable from run to run. */
function findTests(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findTests(full));
    else if (entry.isFile() && entry.name.endsWith('.test.js')) found.push(full);
  }
  return found.sort();
}

/**
 * When the harness asks for it (test-vscode.mjs sets SCRAPEDECK_MOCHA_PREFIX), every console line
 * written while mocha runs starts with that prefix, so the harness can tell mocha's output from the
 * workbench's own log lines, which reach it through the same channel.
 */
function prefixConsole(prefix: string | undefined): () => void {
  if (!prefix) return () => undefined;
  const wrap =
    (write: (...data: unknown[]) => void) =>
    (...data: unknown[]): void => {
      if (data.length === 0) write(prefix);
      else if (typeof data[0] === 'string') write(prefix + data[0], ...data.slice(1));
      else write(prefix, ...data);
    };
  const original = { log: console.log, error: console.error, warn: console.warn, info: console.info };
  // Mocha's reporters print through Base.consoleLog, captured when mocha was loaded.
  const originalReporterLog = Mocha.reporters.Base.consoleLog;
  for (const key of Object.keys(original) as (keyof typeof original)[]) console[key] = wrap(original[key]);
  Mocha.reporters.Base.consoleLog = wrap(originalReporterLog);
  return () => {
    Object.assign(console, original);
    Mocha.reporters.Base.consoleLog = originalReporterLog;
  };
}

/**
 * Runs `files` in one mocha, failing closed as every tier does: a stray `.only` or a pending test
 * fails the run, and so does a run in which no test passed (a --grep that matches nothing).
 */
export function runFiles(files: string[], grep?: string): Promise<void> {
  const mocha = new Mocha({
    ui: 'bdd',
    reporter: 'spec',
    timeout: 60_000,
    color: false,
    forbidOnly: true,
    forbidPending: true,
  });
  if (grep) mocha.grep(grep);
  for (const file of files) mocha.addFile(file);
  return new Promise<void>((resolve, reject) => {
    if (files.length === 0) {
      reject(new Error('no *.test.js files to run'));
      return;
    }
    const restore = prefixConsole(process.env.SCRAPEDECK_MOCHA_PREFIX);
    try {
      const runner = mocha.run((failures) => {
        restore();
        const passes = runner.stats?.passes ?? 0;
        if (failures > 0) reject(new Error(`${failures} test(s) failed`));
        else if (passes === 0) reject(new Error(`no test passed${grep ? ` (--grep ${grep})` : ''}`));
        else resolve();
      });
    } catch (err) {
      restore();
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}

export function run(): Promise<void> {
  const files = findTests(__dirname);
  if (files.length === 0) return Promise.reject(new Error(`no *.test.js files under ${__dirname}`));
  return runFiles(files, process.env.SCRAPEDECK_TEST_GREP);
}
