/**
 * Rows that do not lie in a file of rows, copied into a spool (rowSpool.ts) as they come: a
 * task's rows at the service (pages of the data reader, at the rate bound; nothing is marked as
 * exported). No `vscode`.
 */
import type { DataRow } from '../../../api/schemas/dataSchemas';
import type { RowSpool } from './rowSpool';

export interface LoadProgress {
  loaded: number;
  /** Rows there are, as far as known. */
  total: number;
}

/** Pages of rows with the count they belong to (the service's reader yields these). */
export type RowPages = AsyncIterable<{ rows: DataRow[]; total: number }>;

export async function spoolPages(
  spool: RowSpool,
  pages: RowPages,
  o: { signal?: AbortSignal; onProgress?: (p: LoadProgress) => void } = {},
): Promise<LoadProgress> {
  let total = 0;
  for await (const page of pages) {
    o.signal?.throwIfAborted();
    total = page.total;
    await spool.append(page.rows);
    o.onProgress?.({ loaded: spool.count, total });
  }
  return { loaded: spool.count, total: Math.max(total, spool.count) };
}
