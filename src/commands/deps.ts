/**
 * What the commands are built from (extension.ts passes it to `registerCommands`), and the shape
 * of one area's handlers. `commands/index.ts` joins every area's handlers into one
 * `Handlers<CommandKey>`, so the compiler refuses a command id without a handler.
 */
import type * as vscode from 'vscode';
import type { ClientHolder } from '../account/clientHolder';
import type { AnalyticsRegistry } from '../analytics/register';
import type { DataRegistry } from '../data/register';
import type { HealthFeature } from '../health/register';
import type { CommandKey } from '../platform/commandIds';
import type { Configuration } from '../platform/configuration';
import type { Reporter } from '../platform/errors';
import type { Registrar } from '../platform/registrar';
import type { Ui } from '../platform/ui';
import type { Runs } from '../runs';
import type { SandboxHost } from '../sandboxHost/sandboxHost';
import type { AppViews, TaskViews } from '../views';

export interface CommandDeps {
  account: ClientHolder;
  sandbox: SandboxHost;
  configuration: Configuration;
  ui: Ui;
  log: vscode.LogOutputChannel;
  reporter: Reporter;
  views: { tasks: TaskViews; apps: AppViews };
  analytics: Pick<AnalyticsRegistry, 'open'>;
  /** Where handlers and providers go: the activation shell's proxies (platform/registrar.ts), not `vscode` directly. */
  registrar: Registrar;
  data: DataRegistry;
  health: Pick<HealthFeature, 'refresh'>;
  runs: Runs;
}

/** What the sign-in, sign-out and sandbox commands use. */
export type AuthDeps = Pick<CommandDeps, 'account' | 'sandbox' | 'configuration' | 'ui' | 'log'>;

/** A command's handler: arguments come from menus, links, the palette or other extensions, so they are `unknown` and parsed. */
export type Handler = (...args: unknown[]) => unknown;

export type Handlers<K extends CommandKey> = { readonly [P in K]: Handler };
