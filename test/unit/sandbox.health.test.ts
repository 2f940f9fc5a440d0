/**
 * The demo account's seeded health, read back through raw analytics queries and computed here
 * on its own: a few tasks clearly failing (failure rate well above 0.2 over the last 7 days) and
 * a few slowing (average run time over the last 7 days more than 1.5x the 7 before), whatever
 * the day the sandbox is asked on.
 */
import * as assert from 'node:assert/strict';

import { addDays } from '../../src/api/schemas/dates';
import type { AnalyticsRecord } from '../../src/api/schemas/schemas';
import { allTasks, buildWorld, type SeedAccount } from '../../src/sandbox/seed/seed';
import { dataOf, FakeClock, TestSandbox } from './helpers/sandbox';

interface Window {
  runs: number;
  failures: number;
  seconds: number;
  timedRuns: number;
}

describe('sandbox: seeded task health (demo account)', function () {
  for (const [seed, today] of [
    [1, '2026-11-22'],
    [9, '2026-03-04'],
  ] as const) {
    it(`seed ${seed}, ${today}: the seeded failing and slowing tasks, and no others, cross the thresholds`, async () => {
      const sb = await TestSandbox.start({ seed, now: new FakeClock(Date.parse(`${today}T09:00:00Z`)).now });
      try {
        const key = sb.user('ada').apiKey;
        const records: AnalyticsRecord[] = [];
        const body = { start: addDays(today, -13), end: today, pageSize: 100 };
        for (let page = 1; ; page++) {
          const p = dataOf<{ total: number; data: AnalyticsRecord[] }>(await sb.analytics(key, { ...body, page }));
          records.push(...p.data);
          if (page * 100 >= p.total) break;
        }
        const windows = new Map<string, [Window, Window]>();
        const empty = (): Window => ({ runs: 0, failures: 0, seconds: 0, timedRuns: 0 });
        for (const r of records) {
          const pair = windows.get(r.taskId) ?? [empty(), empty()];
          windows.set(r.taskId, pair);
          const w = pair[r.dayKey >= addDays(today, -6) ? 0 : 1];
          const m = r.executionMetrics;
          w.runs += m.runCount ?? 0;
          w.failures += m.failureCount ?? 0;
          if (m.totalExecutionSeconds !== null) {
            w.seconds += m.totalExecutionSeconds;
            w.timedRuns += m.runCount ?? 0;
          }
        }
        const failing = [...windows]
          .filter(([, [now]]) => now.runs > 0 && now.failures / now.runs > 0.2)
          .map(([id]) => id);
        const slowing = [...windows]
          .filter(
            ([, [now, before]]) =>
              now.timedRuns > 0 &&
              before.timedRuns > 0 &&
              now.seconds / now.timedRuns > 1.5 * (before.seconds / before.timedRuns),
          )
          .map(([id]) => id);
        const seeded = allTasks(buildWorld(seed).accounts[0] as SeedAccount);
        const ids = (health: string) =>
          seeded
            .filter((t) => t.health === health)
            .map((t) => t.taskId)
            .sort();
        assert.deepEqual(failing.sort(), ids('failing'));
        assert.deepEqual(slowing.sort(), ids('slowing'));
        for (const id of ids('failing')) {
          const [now] = windows.get(id) as [Window, Window];
          assert.ok(now.failures / now.runs > 0.35, 'clearly failing');
        }
      } finally {
        await sb.close();
      }
    });
  }
});
