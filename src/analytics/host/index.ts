/**
 * The analytics capability's host side: the panels, the serializer that restores them after a
 * reload, sign-in changes forwarded to open pages, and the three analytics commands
 * (`commands.ts`). Everything registered goes into `context.subscriptions`.
 *
 *   const analytics = createAnalytics(context, { getClient, listTasks, groupTasks, reporter, ui, log, registrar });
 */
import * as vscode from 'vscode';

import { accountKey, type SessionAccount } from '../../account/accountSession';
import type { ScrapedeckClient } from '../../api/client';
import { type CommandSet, registerHandlers } from '../../platform/commandHandlers';
import { COMMANDS } from '../../platform/commandIds';
import type { Registrar } from '../../platform/registrar';
import type { Reporter } from '../../platform/reporter';
import { DEFAULT_SETTINGS, validateSettings } from '../../platform/settings';
import type { Ui } from '../../platform/ui';
import { setNumberLocale } from '../model/format';
import type { PageState, Preset } from '../protocol';
import type { KnownTaskNames } from './chipNames';
import { type AnalyticsCommandDeps, analyticsCommands } from './commands';
import { ANALYTICS_VIEW_TYPE, AnalyticsPanel, type AnalyticsPanelDeps } from './panel';
import { parsePreset, samePreset } from './preset';
import { AnalyticsPanelSerializer, parsePageState } from './serializer';

export { AnalyticsPanel } from './panel';

export interface AnalyticsDeps {
  getClient(): ScrapedeckClient | undefined; // undefined while signed out
  listTasks(signal?: AbortSignal): Promise<{ taskId: string; taskName: string; taskGroupName: string }[]>;
  log: vscode.LogOutputChannel;
  ui: Ui;
  /** Fires on sign-in and sign-out, so open pages can say whether queries can run. */
  onDidChangeAccount?: vscode.Event<unknown>;
  /** `scrapedeck.analytics.autoFetchRows`; by default read from the configuration when a query starts. */
  autoFetchRows?: () => number;
  /** Who is signed in (the client holder): a panel's content is kept per account. Absent: one anonymous account. */
  account?: { readonly account: SessionAccount | undefined; readonly ready: Promise<void> };
  /** Task names in the tree's cache of the signed-in account, for the page's task chips (no request). */
  taskNames?: KnownTaskNames;
  /** The activation shell's registrar (the serializer's proxy is registered at activation). */
  registrar: Pick<Registrar, 'registerWebviewPanelSerializer' | 'registerCommand'>;
  reporter: Pick<Reporter, 'report'>;
  groupTasks: AnalyticsCommandDeps['groupTasks'];
}

export interface AnalyticsCapability {
  /** Opens a panel (or reveals the one already showing this preset). Does not check sign-in. */
  openPanel(preset?: Preset): AnalyticsPanel;
  /** The panels open now, oldest first (read-only: tests and the e2e harness look, never touch). */
  panels(): readonly AnalyticsPanel[];
  /** What `scrapedeck.analytics.open` does: parse, offer sign-in, open. */
  open(arg?: unknown): Promise<AnalyticsPanel | undefined>;
  /** What the serializer does after a window reload, with the state VS Code kept (tests drive it). */
  restore(webviewPanel: vscode.WebviewPanel, state: unknown): Promise<AnalyticsPanel>;
  readonly commands: CommandSet<keyof ReturnType<typeof analyticsCommands>>;
}

export function createAnalytics(context: vscode.ExtensionContext, deps: AnalyticsDeps): AnalyticsCapability {
  const open: AnalyticsPanel[] = [];
  setNumberLocale(vscode.env.language); // the counts the host writes into messages, as the page writes its own
  const panelDeps: AnalyticsPanelDeps = {
    extensionUri: context.extensionUri,
    getClient: () => deps.getClient(),
    listTasks: (signal) => deps.listTasks(signal),
    ui: deps.ui,
    log: deps.log,
    autoFetchRows: deps.autoFetchRows ?? readAutoFetchRows,
    accountKey: () => {
      const account = deps.account?.account;
      return account === undefined ? undefined : accountKey(account);
    },
    knownTaskNames: deps.taskNames,
  };

  const track = (panel: AnalyticsPanel): AnalyticsPanel => {
    open.push(panel);
    panel.onDidDispose(() => {
      const at = open.indexOf(panel);
      if (at >= 0) open.splice(at, 1);
    });
    return panel;
  };

  const openPanel = (preset?: Preset): AnalyticsPanel => {
    const existing = open.find((p) => samePreset(p.preset, preset));
    if (existing) {
      existing.reveal();
      return existing;
    }
    return track(AnalyticsPanel.create(panelDeps, preset));
  };

  /** The command: parse the argument, and offer sign-in instead of a panel that cannot query. */
  const openCommand = async (arg?: unknown): Promise<AnalyticsPanel | undefined> => {
    const { preset, warning } = parsePreset(arg);
    if (warning) deps.log.warn(`analytics: ${warning}`);
    if (deps.getClient()) return openPanel(preset);
    const apiKeyButton = vscode.l10n.t('Sign In with API Key');
    const sandboxButton = vscode.l10n.t('Try the Sandbox');
    const choice = await deps.ui.showInformationMessage(
      vscode.l10n.t('Sign in to Scrapedeck to see how your tasks perform.'),
      apiKeyButton,
      sandboxButton,
    );
    if (choice === apiKeyButton) await vscode.commands.executeCommand(COMMANDS.signInWithApiKey);
    else if (choice === sandboxButton) await vscode.commands.executeCommand(COMMANDS.trySandbox);
    else return undefined;
    // Continue to what the user asked for once the sign-in went through.
    return deps.getClient() ? openPanel(preset) : undefined;
  };

  /** After the stored credentials are read: the saved state is checked against the account signed in. */
  const restore = async (webviewPanel: vscode.WebviewPanel, state: PageState | undefined): Promise<AnalyticsPanel> => {
    await deps.account?.ready;
    return track(AnalyticsPanel.restore(webviewPanel, panelDeps, state));
  };

  context.subscriptions.push(
    deps.registrar.registerWebviewPanelSerializer(ANALYTICS_VIEW_TYPE, new AnalyticsPanelSerializer(restore, deps.log)),
    { dispose: () => open.splice(0).forEach((p) => p.dispose()) },
  );
  if (deps.onDidChangeAccount) {
    context.subscriptions.push(deps.onDidChangeAccount(() => open.forEach((p) => p.notifySignedIn())));
  }

  const commands = registerHandlers(
    context,
    deps.registrar,
    analyticsCommands({ open: openCommand, ui: deps.ui, reporter: deps.reporter, groupTasks: deps.groupTasks }),
  );
  return {
    openPanel,
    panels: () => [...open],
    open: openCommand,
    restore: (panel, state) => restore(panel, parsePageState(state, deps.log)),
    commands,
  };
}

/**
 * The setting through the settings' own rule (settings.ts); a bad value gives the default here,
 * and the Configuration, which reads the same setting, warns about it.
 */
function readAutoFetchRows(): number {
  const raw = vscode.workspace.getConfiguration('scrapedeck').get<unknown>('analytics.autoFetchRows');
  return validateSettings({ analyticsAutoFetchRows: raw }, DEFAULT_SETTINGS).values.analyticsAutoFetchRows;
}
