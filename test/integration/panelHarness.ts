/**
 * Driving an analytics panel from an integration test: one page message in, the replies out,
 * without the page in between.
 */
import type { AnalyticsPanel } from '../../src/analytics/host/panel';
import type { HostMessage } from '../../src/analytics/protocol';
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
