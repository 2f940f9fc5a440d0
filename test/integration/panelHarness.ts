/**
 * Driving an analytics panel from an integration test: one page message in, the replies out,
 * without the page in between.
 */
import type { AnalyticsPanel } from '../../src/analytics/panel';
import type { HostMessage } from '../../src/webview/protocol';

/** Sends one page message through the panel and resolves with every reply carrying its id. */
export async function ask(panel: AnalyticsPanel, message: { type: string; id: string } & Record<string, unknown>): Promise<HostMessage[]> {
  const seen: HostMessage[] = [];
  const sub = panel.onDidPost((m) => {
    if ('id' in m && m.id === message.id) seen.push(m);
  });
  try {
    await panel.handleMessage(message);
  } finally {
    sub.dispose();
  }
  return seen;
}
