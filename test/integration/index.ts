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

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: 60_000, color: false });
  const grep = process.env.SCRAPEDECK_TEST_GREP;
  if (grep) mocha.grep(grep);
  const files = findTests(__dirname);
  for (const file of files) mocha.addFile(file);
  return new Promise<void>((resolve, reject) => {
    if (files.length === 0) {
      reject(new Error(`no *.test.js files under ${__dirname}`));
      return;
    }
    const restore = prefixConsole(process.env.SCRAPEDECK_MOCHA_PREFIX);
    try {
      mocha.run((failures) => {
        restore();
        if (failures > 0) reject(new Error(`${failures} test(s) failed`));
        else resolve();
      });
    } catch (err) {
      restore();
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}
