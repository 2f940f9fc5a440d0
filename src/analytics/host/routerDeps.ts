/**
 * What the analytics message router is given: every effect it has (client, prompts, clipboard,
 * files, posting, the log) comes in here, so the routing runs in plain Node under test. `vscode`
 * is imported for types only.
 */
import type * as vscode from 'vscode';

import type { ScrapedeckClient } from '../../api/client';
import type { Translate } from '../../platform/errorText';
import type { Ui } from '../../platform/ui';
import type { HostMessage, PageState, Preset } from '../protocol';
import type { KnownTaskNames } from './chipNames';
import type { ExportFormat } from './exportFormat';
import type { TaskListing } from './pickTasks';
import type { HeldResult } from './results';

/** The client operation the panel uses (a narrow seam: tests pass a fake). */
export type AnalyticsClient = Pick<ScrapedeckClient, 'queryTaskAnalytics'>;

export type AnalyticsLog = Pick<vscode.LogOutputChannel, 'info' | 'warn' | 'error'>;

export interface MessageRouterDeps {
  getClient(): AnalyticsClient | undefined;
  listTasks(signal?: AbortSignal): Promise<TaskListing[]>;
  ui: Pick<Ui, 'showQuickPick'>;
  /** vscode.l10n.t in the extension (the quick pick's words, the tab's fallback); English in tests. */
  t?: Translate;
  /**
   * Saves an export; the path written, or undefined when the user dismissed the dialog.
   * `stillHeld` says, once the user has chosen the file, whether the result is still this panel's
   * to write (false after an account change while the dialog was open).
   */
  exportRecords(
    format: ExportFormat,
    result: Readonly<HeldResult>,
    stillHeld: () => boolean,
  ): Promise<string | undefined>;
  writeClipboard(text: string): Thenable<void>;
  log: AnalyticsLog;
  post(message: HostMessage): void;
  today(): string;
  /**
   * What `init` carries: the panel's preset and the state to restore, the account's tag, and
   * whether the panel dropped the page's content since the page last loaded (the account changed).
   */
  initial(): { preset: Preset | undefined; state: PageState | undefined; account?: string; cleared?: boolean };
  /** The page saved its state (the panel keeps the latest for the next `init`). */
  onState(state: PageState): void;
  isSignedIn(): boolean;
  /** `scrapedeck.analytics.autoFetchRows`: how many rows a query fetches by itself. */
  autoFetchRows(): number;
  /** The page describes the query on screen: the panel's tab says it too (one line, no control characters). */
  setTitle?(title: string): void;
  /** Task names in the host's cache of the signed-in account (no request): the page's chips show them. */
  knownTaskNames?: KnownTaskNames;
}
