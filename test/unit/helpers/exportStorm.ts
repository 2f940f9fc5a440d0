/** What an export stopped by a 429 storm past its reader's resumes must leave (data.writers, data.xlsxSqlite). */
import * as assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';

import { ApiError } from '../../../src/api/errors/errors';
import type { TaskExport } from '../../../src/data/export/exportRows';

/** The temporary file an atomic write renames when complete (platform/files/atomicFile.ts), or a journal or lock of it. */
const TEMPORARY = /^\..+\.[0-9a-f]{12}\.scrapedeck-tmp(-journal|-wal|-shm|\.lock)?$/;

/**
 * Runs `job` into the storm: it fails rate-limited, can be resumed, kept the `written` rows it had,
 * and nothing but its temporary file is in `dir` (nothing under the chosen name yet).
 */
export async function runIntoStorm(job: TaskExport, dir: string, written: number): Promise<void> {
  await assert.rejects(job.run(), (e: unknown) => e instanceof ApiError && e.kind === 'rate-limited');
  assert.equal(job.resumable, true);
  assert.equal(job.rowsWritten, written);
  assert.deepEqual(
    readdirSync(dir).filter((f) => !TEMPORARY.test(f)),
    [],
    'nothing under the chosen name yet',
  );
}
