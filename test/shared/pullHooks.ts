/** Pull hooks that stop a pull where a crash would: between a batch's write and its mark. */
import type { PullOptions } from '../../src/data/pull/pullRows';

/** `afterWrite` that throws `error` once batch `batch` is on disk, before it is marked. */
export function failAfterWrite(batch: number, error: Error = new Error('stop')): Pick<PullOptions, 'afterWrite'> {
  return {
    afterWrite: (b) => {
      if (b === batch) throw error;
    },
  };
}
