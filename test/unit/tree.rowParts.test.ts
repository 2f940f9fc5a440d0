/**
 * Health's words on a task row (issue 48 item 5): short, and the most useful first. A task that
 * needs attention leads with why ("45% failed"), so a narrow sidebar cuts the run state
 * after it, not the reason; a healthy task adds nothing (its figures are in the tooltip); a task
 * with no runs says so after its run state.
 */
import * as assert from 'node:assert/strict';

import type { TaskHealth } from '../../src/health/healthModel';
import { healthRowParts } from '../../src/health/rowParts';
import { english } from '../../src/platform/errorText';

function health(over: Partial<TaskHealth>): TaskHealth {
  return {
    level: 'ok',
    runs: 117,
    failures: 3,
    failureRate: 3 / 117,
    averageSeconds: 60,
    previousAverageSeconds: 55,
    slowdown: 60 / 55,
    failing: false,
    slowing: false,
    ...over,
  };
}

describe("tree: health's parts of a task row", () => {
  it('failing: why leads, short; a healthy task adds nothing; no runs trails', () => {
    assert.deepEqual(
      healthRowParts(health({ level: 'failing', failing: true, failures: 53, failureRate: 53 / 117 }), 7, english),
      { lead: '45% failed' },
    );
    assert.deepEqual(healthRowParts(health({ level: 'slowing', slowing: true, slowdown: 2.2 }), 7, english), {
      lead: '2.2× slower',
    });
    assert.deepEqual(
      healthRowParts(
        health({ level: 'failing', failing: true, failureRate: 0.5, slowing: true, slowdown: 2.2 }),
        7,
        english,
      ),
      { lead: '50% failed, 2.2× slower' },
    );
    assert.deepEqual(healthRowParts(health({}), 7, english), {}, 'healthy: the row says only its run state');
    assert.deepEqual(healthRowParts(health({ level: 'idle', runs: 0 }), 7, english), { tail: 'no runs in 7 days' });
  });

  it('no part is longer than a narrow sidebar shows beside a name (24 characters)', () => {
    const worst = healthRowParts(
      health({ level: 'failing', failing: true, failureRate: 1, slowing: false }),
      46,
      english,
    );
    assert.ok((worst.lead ?? '').length <= 24, worst.lead);
    assert.ok((healthRowParts(health({ level: 'idle' }), 46, english).tail ?? '').length <= 24);
  });
});
