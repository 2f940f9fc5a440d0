/**
 * The one place commands are registered: every id of `platform/commandIds.ts` gets its handler
 * here (the `Handlers<CommandKey>` type refuses a missing one), and the account's events that need
 * words (an expired session, a client that cannot be built) become messages here. Also the
 * Accounts menu, whose Sign In and Sign Out are these commands' flows.
 *
 *   registerCommands(context, { account, sandbox, configuration, ui, log, reporter, views, analytics });
 */
import * as vscode from 'vscode';
import { registerAuthProvider } from '../account/authProvider';
import { COMMANDS, type CommandKey } from '../platform/commandIds';
import { chooseSignIn, accountCommands } from './account';
import { analyticsCommands } from './analytics';
import { appCommands } from './apps';
import { authCommands, signOut } from './auth';
import { dataCommands } from './data';
import { restoreSandbox } from './sandbox';
import type { CommandDeps, Handlers } from './deps';
import { healthCommands } from './health';
import { runCommands } from './runs';
import { taskCommands } from './tasks';

export type { CommandDeps } from './deps';

const t = vscode.l10n.t;

export function registerCommands(context: vscode.ExtensionContext, deps: CommandDeps): void {
  const handlers: Handlers<CommandKey> = {
    ...authCommands(deps),
    ...accountCommands(deps),
    ...taskCommands(deps),
    ...analyticsCommands(deps),
    ...appCommands(deps),
    ...dataCommands(deps),
    ...healthCommands(deps),
    ...runCommands(deps),
  };
  for (const key of Object.keys(handlers) as CommandKey[]) {
    context.subscriptions.push(deps.registrar.registerCommand(COMMANDS[key], handlers[key]));
  }

  const { account, ui } = deps;
  context.subscriptions.push(
    registerAuthProvider(deps.registrar, {
      current: () => account.account,
      onDidChange: account.onDidChange,
      signIn: () => chooseSignIn(ui),
      signOut: () => signOut(deps),
    }),
    account.onDidExpire(() => void deps.reporter.signInNeeded(t('Your Scrapedeck session has expired and could not be renewed.'))),
    account.onDidFailToConnect((reason) => void ui.showErrorMessage(t('Scrapedeck cannot connect: {0}', reason))),
  );

  // A sandbox chosen before the last reload comes back in the background.
  void restoreSandbox(deps);
}
