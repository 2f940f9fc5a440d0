/** A service's data pages over a list of rows, for tests that put the real reader in front of them. */
import type { FetchDataPage } from '../../../src/api/ops/dataReader';
import type { DataPage, DataRow } from '../../../src/api/schemas/dataSchemas';

/** The page of `rows` from `offset`, at most `size` rows, as the service answers it (request id `r<offset>`). */
export function pageAt(rows: readonly DataRow[], offset: number, size: number): ReturnType<FetchDataPage> {
  const to = Math.min(offset + size, rows.length);
  const data: DataPage = {
    offset: to,
    total: rows.length,
    restTotal: rows.length - to,
    data: rows.slice(offset, to),
  };
  return Promise.resolve({ data, requestId: `r${offset}` });
}
