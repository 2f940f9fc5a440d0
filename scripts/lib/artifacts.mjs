// The end-to-end run's screenshots folder (artifacts/e2e/).
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

/**
 * Makes `dir` ready for a run: created if missing, and without an earlier run's failure
 * screenshots (`failed-*`), which would otherwise sit beside a green run's. Step screenshots stay:
 * each run writes its own over them. Returns the names removed.
 */
export function prepareArtifacts(dir) {
  mkdirSync(dir, { recursive: true });
  const removed = readdirSync(dir).filter((name) => name.startsWith('failed-'));
  for (const name of removed) rmSync(path.join(dir, name), { force: true });
  return removed;
}
