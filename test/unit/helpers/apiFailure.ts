/** The ApiError a call fails with (the test fails if it succeeds, or fails with anything else). */
import * as assert from 'node:assert/strict';

import { ApiError } from '../../../src/api/errors/errors';

export async function fails(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ApiError, `an ApiError, got ${String(e)}`);
    return e;
  }
  assert.fail('it succeeded');
}
