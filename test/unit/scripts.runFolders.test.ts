/**
 * Each code-server run keeps its folder under .vscode-test/runs/ for a look at its logs; only the
 * newest few are kept, and never the folder of a run that is still going (scripts/lib/codeserver.mjs).
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { importScriptLib } from './helpers/scriptLib';

interface RunFolderLib {
  pruneRunFolders(runsDir: string, keep: number, alive?: (name: string) => boolean): string[];
}

describe('scripts: old run folders are removed, the newest and the running kept', () => {
  let dir: string;
  let lib: RunFolderLib;
  before(async () => {
    lib = await importScriptLib<RunFolderLib>('codeserver.mjs');
  });
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-runs-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A run folder with a file inside, last changed `ageHours` ago. */
  function run(name: string, ageHours: number): void {
    const folder = path.join(dir, name);
    mkdirSync(path.join(folder, 'logs'), { recursive: true });
    writeFileSync(path.join(folder, 'logs', 'code-server.log'), 'log');
    const at = new Date(Date.now() - ageHours * 3_600_000);
    utimesSync(folder, at, at);
  }

  it('keeps the newest `keep` folders and removes the older ones, contents and all', () => {
    for (let i = 0; i < 6; i++) run(`e2e-2026-11-2${i}-${100 + i}`, 6 - i);
    const removed = lib.pruneRunFolders(dir, 2, () => false);
    assert.deepEqual(readdirSync(dir).sort(), ['e2e-2026-11-24-104', 'e2e-2026-11-25-105']);
    assert.deepEqual(removed.sort(), [
      'e2e-2026-11-20-100',
      'e2e-2026-11-21-101',
      'e2e-2026-11-22-102',
      'e2e-2026-11-23-103',
    ]);
  });

  it('keeps an old folder whose process still runs (a demo left open), whatever its age', () => {
    run('demo-old-4242', 48);
    run('vscode-newer-1', 2);
    run('vscode-newest-2', 1);
    const removed = lib.pruneRunFolders(dir, 1, (name) => name.endsWith('-4242'));
    assert.deepEqual(readdirSync(dir).sort(), ['demo-old-4242', 'vscode-newest-2']);
    assert.deepEqual(removed, ['vscode-newer-1']);
  });

  it('asks the system whether the owner runs: this process counts as running, a gone one does not', () => {
    run(`e2e-mine-${process.pid}`, 10);
    run('e2e-gone-2147483646', 9);
    run('e2e-new-1', 0);
    lib.pruneRunFolders(dir, 1);
    assert.deepEqual(readdirSync(dir).sort(), [`e2e-mine-${process.pid}`, 'e2e-new-1']);
  });

  it('does nothing where there is no runs folder yet', () => {
    assert.deepEqual(lib.pruneRunFolders(path.join(dir, 'missing'), 1), []);
  });
});
