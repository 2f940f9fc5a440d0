/**
 * Brings analytics panels back after a reload. VS Code hands over whatever the page last passed
 * to setState; it is parsed like any other message, and a state that does not parse (an older
 * version, a corrupt file) gives a fresh panel rather than a broken one.
 */
import type * as vscode from 'vscode';

import { type PageState, pageStateSchema, parseMessage } from '../protocol';
import type { AnalyticsLog } from './routerDeps';

export function parsePageState(raw: unknown, log: AnalyticsLog): PageState | undefined {
  if (raw === undefined || raw === null) return undefined;
  const parsed = parseMessage(pageStateSchema, raw);
  if (parsed.ok) return parsed.message;
  log.warn(`analytics: the saved panel state was not usable (${parsed.reason}); opening a fresh panel`);
  return undefined;
}

export class AnalyticsPanelSerializer implements vscode.WebviewPanelSerializer<unknown> {
  constructor(
    private readonly restore: (panel: vscode.WebviewPanel, state: PageState | undefined) => Promise<unknown>,
    private readonly log: AnalyticsLog,
  ) {}

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    await this.restore(panel, parsePageState(state, this.log));
  }
}
