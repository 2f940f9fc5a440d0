/**
 * Driving an analytics panel from an integration test: one page message in, the replies out,
 * without the page in between.
 */
import type { AnalyticsPanel } from '../../src/analytics/host/panel';
import type { HostMessage } from '../../src/analytics/protocol';
import { addDays, todayUtc } from '../../src/api/schemas/dates';
import type { AnalyticsQuery } from '../../src/api/schemas/schemas';
import { type StreamCount, streamJoiner } from '../shared/streamedReplies';

/**
 * Sends one page message through the panel and resolves with every reply carrying its id; a
 * result's rows that came with its progress are joined in front of its own, as the page does.
 */
export async function ask(
  panel: AnalyticsPanel,
  message: { type: string; id: string } & Record<string, unknown>,
  count?: StreamCount,
): Promise<HostMessage[]> {
  const seen: HostMessage[] = [];
  const join = streamJoiner(count);
  const sub = panel.onDidPost((m) => {
    if ('id' in m && m.id === message.id) seen.push(join(m));
  });
  try {
    await panel.handleMessage(message);
  } finally {
    sub.dispose();
  }
  return seen;
}

/** All tasks over the last seven UTC days, page 1 at 100 rows: what the page sends for Run query. */
export function lastWeekQuery(): AnalyticsQuery {
  const today = todayUtc();
  return { start: addDays(today, -6), end: today, timeGranularity: 'Day', page: 1, pageSize: 100 };
}
