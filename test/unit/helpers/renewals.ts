/** What two windows renewing one session across one expiry must show (client.twoWindows, account.vault). */
import * as assert from 'node:assert/strict';

/**
 * Every call settled without failure, no window asked to sign in again, and the one expiry took
 * one refresh grant, or two (one per window) at most.
 */
export function assertOneRenewal(results: PromiseSettledResult<unknown>[], prompts: number, grants: number): void {
  const failed = results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason));
  assert.deepEqual(failed, []);
  assert.equal(prompts, 0, 'no window asked to sign in again');
  assert.ok(grants >= 1 && grants <= 2, `refresh grants for the one expiry in two windows: ${grants}`);
}
