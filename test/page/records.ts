/** Analytics records for the page tests and the page benchmark. */
import { addDays, isoWeek } from '../../src/api/schemas/dates';
import type { AnalyticsRecord } from '../../src/api/schemas/schemas';
import { pricesRecord as record } from '../shared/analyticsRecords';

export { record };

/** `tasks` x `days` records ending on `lastDay`, deterministic, with a sprinkling of nulls. */
export function grid(tasks: number, days: number, lastDay: string): AnalyticsRecord[] {
  const out: AnalyticsRecord[] = [];
  let seed = 12345;
  const rand = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  for (let d = 0; d < days; d++) {
    const day = addDays(lastDay, -(days - 1 - d));
    for (let t = 0; t < tasks; t++) {
      const runs = Math.floor(rand() * 20);
      const fails = Math.floor(rand() * (runs + 1) * 0.3);
      const collected = Math.floor(rand() * 5000);
      const duration = 30 + rand() * 600;
      const unknown = rand() < 0.05; // some rows do not report their metrics
      out.push(
        record({
          taskId: `task-${t}`,
          userId: `user-${t % 7}`,
          taskName: t % 13 === 0 ? null : `Task <${t}> "prices" & co`,
          dayKey: day,
          collectionMethod: t % 3 === 0 ? 'Local' : 'Cloud',
          dataVolumeMetrics: {
            totalCollected: unknown ? null : collected,
            deduplicatedVolume: unknown ? null : Math.floor(collected * 0.9),
          },
          executionMetrics: {
            runCount: runs,
            successCount: runs - fails,
            failureCount: fails,
            durationPerRunSeconds: unknown ? null : duration,
            totalExecutionSeconds: unknown ? null : duration * runs,
            successRate: runs > 0 ? (runs - fails) / runs : null,
            failureRate: runs > 0 ? fails / runs : null,
          },
          resourceUsageMetrics: {
            captchaCount: Math.floor(rand() * 10),
            simpleTemplateCount: null,
            proxyIpCount: rand() * 5,
            balance: rand() * 3,
          },
        }),
      );
    }
  }
  return out;
}

/** A week-granularity record for the ISO week containing `day`. */
export function weekRecord(day: string, overrides: Partial<AnalyticsRecord> = {}): AnalyticsRecord {
  const w = isoWeek(day);
  return record({ dayKey: w.key, weekStartDate: w.weekStartDate, weekEndDate: w.weekEndDate, ...overrides });
}
