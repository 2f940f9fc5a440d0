/**
 * Lists of task ids longer than the service's batch size go out as several requests. Batches run
 * concurrently (the shared limiter paces them), results come back in the order of the ids, and
 * the first failure stops the rest (a batch still queued in the limiter never leaves).
 */
import { ApiError } from '../errors/errors';
import type { ApiResult } from './mainCaller';

export interface BatchedResult<T> extends ApiResult<T[]> {
  /** One per request, in batch order (`requestId` is the last of them). */
  requestIds: string[];
}

/** The ids without duplicates (first occurrence kept), cut into lists of at most `size`. */
export function splitIds(ids: readonly string[], size: number): string[][] {
  const unique = [...new Set(ids)];
  const out: string[][] = [];
  for (let i = 0; i < unique.length; i += size) out.push(unique.slice(i, i + size));
  return out;
}

export async function inBatches<T>(
  batches: readonly string[][],
  run: (batch: string[], signal: AbortSignal) => Promise<ApiResult<T[]>>,
  signal: AbortSignal | undefined,
): Promise<BatchedResult<T>> {
  if (signal?.aborted)
    throw new ApiError({ kind: 'cancelled', message: 'The request was cancelled before it was sent' });
  // One controller per batch, all stopped by one listener: many requests sharing the caller's
  // signal would pass Node's listener limit on long lists.
  const controllers = batches.map(() => new AbortController());
  const stopAll = (): void => controllers.forEach((c) => c.abort());
  signal?.addEventListener('abort', stopAll, { once: true });
  try {
    const settled = await Promise.allSettled(
      batches.map((batch, i) =>
        run(batch, (controllers[i] as AbortController).signal).catch((e: unknown) => {
          stopAll();
          throw e;
        }),
      ),
    );
    const failures = settled
      .filter((s): s is PromiseRejectedResult => s.status === 'rejected')
      .map((s) => s.reason as unknown);
    if (failures.length > 0) {
      // The failure that stopped the others, not the 'cancelled' it caused in them.
      throw failures.find((e) => !(e instanceof ApiError && e.kind === 'cancelled')) ?? failures[0];
    }
    const results = settled.map((s) => (s as PromiseFulfilledResult<ApiResult<T[]>>).value);
    const requestIds = results.map((r) => r.requestId).filter((id): id is string => id !== undefined);
    return { data: results.flatMap((r) => r.data), requestId: requestIds[requestIds.length - 1], requestIds };
  } finally {
    signal?.removeEventListener('abort', stopAll);
  }
}
