/**
 * The one test seam: what `activate()` returns when VS Code runs Scrapedeck's own tests
 * (`ExtensionMode.Test`, which a user's installation cannot switch on), and nothing otherwise.
 * Integration tests replace `ui` answers and look at the rest; nothing here is for other
 * extensions, and in production none of it leaves the extension.
 */
import * as vscode from 'vscode';

import type { AccountCapability } from './account';
import type { ClientHolder } from './account/clientHolder';
import type { AccountMeta } from './account/credentials';
import type { VaultStats } from './account/vault';
import type { AgentsCapability } from './agents';
import type { AnalyticsCapability } from './analytics/host';
import type { Credentials } from './api/auth/auth';
import type { AppsCapability } from './apps';
import type { AppsTreeProvider } from './apps/appsProvider';
import type { SyncCapability } from './data/sync';
import type { HealthCapability } from './health';
import type { Configuration } from './platform/configuration';
import type { Reporter } from './platform/reporter';
import type { Ui } from './platform/ui';
import type { RunsCapability } from './runs';
import type { TasksCapability } from './tasks';
import type { TasksTreeProvider } from './tasks/tasksProvider';

/** What integration tests may use. Read-only by convention; only `ui` answers are replaced. */
export interface ScrapedeckTestApi {
  /** The window prompts; a test replaces one method at a time. */
  readonly ui: Ui;
  /** Who is signed in, the endpoints, the client. */
  readonly account: ClientHolder;
  readonly configuration: Configuration;
  /** The window's reporter, with its single "Sign In Again" prompt. */
  readonly reporter: Reporter;
  /** A copy of every line written to the "Scrapedeck" log channel. */
  readonly logLines: readonly string[];
  readonly views: { readonly tasks: TasksTreeProvider; readonly apps: AppsTreeProvider };
  /** The Tasks tree view itself (its selection, reveal). */
  readonly tasksView: TasksCapability['view'];
  /** The analytics panels; each panel's own hooks (`handleMessage`, `onDidPost`) are reached through it. */
  readonly analytics: AnalyticsCapability;
  /** Task health: the board, the controller (stats), the decoration provider, the settings, and the Tasks view's badge. */
  readonly health: HealthCapability & { tasksViewBadge(): vscode.ViewBadge | undefined; tasksViewVisible(): boolean };
  /** The language-model tools as registered (their `prepareInvocation`) and the MCP server definition provider. */
  readonly agents: AgentsCapability;
  /** Run state, the status poll, the list documents, and the tree's drag-and-drop controller. */
  readonly runs: RunsCapability & { readonly dragAndDrop: TasksCapability['dragAndDrop'] };
  /** The folder keeping the signed-in account's pull records (out of the workspace). */
  readonly data: { pullRecords(): string | undefined };
  /** Keep in Sync: its follows and the follower (`idle()` resolves once no sync is under way). */
  readonly sync: SyncCapability;
  /** Hooks into the vault that production code has no use for. */
  readonly accountHooks: {
    /** The stored (not cached) credentials of the current address, to check a sign-out really cleared them. */
    readStoredCredentials(): Promise<Credentials | undefined>;
    /** Stores credentials without checking them (e.g. a dead session), as a sign-in would. */
    store(credentials: Credentials, meta: AccountMeta): Promise<void>;
    /** SecretStorage reads and writes so far, and own change events ignored. */
    vaultStats(): VaultStats;
  };
}

export interface SeamParts {
  ui: Ui;
  account: AccountCapability;
  configuration: Configuration;
  reporter: Reporter;
  logLines: readonly string[];
  views: { tasks: TasksCapability; apps: AppsCapability };
  analytics: AnalyticsCapability;
  health: HealthCapability;
  agents: AgentsCapability;
  runs: RunsCapability;
  data: { pullRecords(): string | undefined };
  sync: SyncCapability;
}

export function testSeam(mode: vscode.ExtensionMode, parts: SeamParts): ScrapedeckTestApi | undefined {
  if (mode !== vscode.ExtensionMode.Test) return undefined;
  const { vault, holder } = parts.account;
  return {
    ui: parts.ui,
    account: holder,
    configuration: parts.configuration,
    reporter: parts.reporter,
    logLines: parts.logLines,
    views: { tasks: parts.views.tasks.provider, apps: parts.views.apps.provider },
    tasksView: parts.views.tasks.view,
    analytics: parts.analytics,
    data: { pullRecords: () => parts.data.pullRecords() },
    sync: parts.sync,
    health: {
      ...parts.health,
      tasksViewBadge: () => parts.views.tasks.view.badge,
      tasksViewVisible: () => parts.views.tasks.view.visible,
    },
    agents: parts.agents,
    runs: { ...parts.runs, dragAndDrop: parts.views.tasks.dragAndDrop },
    accountHooks: {
      readStoredCredentials: async () => (await vault.read(holder.endpoints.baseUrl))?.credentials,
      store: (credentials, meta) => holder.store(credentials, meta),
      vaultStats: () => ({ ...vault.stats }),
    },
  };
}
