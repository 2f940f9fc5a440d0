/**
 * The account capability, first of all: the vault on the window's SecretStorage and globalState,
 * the client holder, the local sandbox it may point at, the error reporter (whose "Sign In Again"
 * names the last account), the status-bar item, the context keys the manifest reads, the Accounts
 * menu's provider and the sign-in, sign-out, switch and menu commands. The account's events that
 * need words (an expired session, a client that cannot be built) become messages here. Everything
 * goes into `context.subscriptions`.
 */
import * as vscode from 'vscode';

import { type CommandSet, registerHandlers } from '../platform/commandHandlers';
import type { Configuration } from '../platform/configuration';
import type { Registrar } from '../platform/registrar';
import { createReporter, type Reporter } from '../platform/reporter';
import type { Ui } from '../platform/ui';
import { accountCommands, chooseSignIn } from './accountMenu';
import { authCommands, signOut } from './authCommands';
import { registerAuthProvider } from './authProvider';
import { ClientHolder } from './clientHolder';
import { trackAccountContextKeys } from './contextKeys';
import { restoreSandbox } from './sandbox/sandboxCommands';
import { SandboxHost } from './sandbox/sandboxHost';
import { createAccountStatusBar } from './statusBar';
import { CredentialsVault } from './vault';

export interface AccountDeps {
  configuration: Configuration;
  ui: Ui;
  log: vscode.LogOutputChannel;
  registrar: Pick<Registrar, 'registerCommand' | 'registerAuthenticationProvider'>;
}

export interface AccountCapability {
  readonly vault: CredentialsVault;
  readonly holder: ClientHolder;
  readonly sandbox: SandboxHost;
  readonly reporter: Reporter;
  readonly commands: CommandSet<keyof ReturnType<typeof authCommands> | keyof ReturnType<typeof accountCommands>>;
}

const t = vscode.l10n.t;

export function createAccount(context: vscode.ExtensionContext, deps: AccountDeps): AccountCapability {
  const { configuration, ui, log } = deps;
  const vault = new CredentialsVault(context.secrets, context.globalState, log, t);
  const holder = new ClientHolder({ vault, configuration, log });
  const sandbox = new SandboxHost(holder, context.globalState, log);
  const reporter = createReporter({ ui, log, lastSignIn: () => holder.account });
  context.subscriptions.push(vault, holder, sandbox, trackAccountContextKeys(holder), createAccountStatusBar(holder));

  const auth = { account: holder, sandbox, configuration, ui, log };
  const commands = registerHandlers(context, deps.registrar, { ...authCommands(auth), ...accountCommands(auth) });
  context.subscriptions.push(
    registerAuthProvider(deps.registrar, {
      current: () => holder.account,
      onDidChange: holder.onDidChange,
      signIn: () => chooseSignIn(ui),
      signOut: () => signOut(auth),
    }),
    holder.onDidExpire(
      () => void reporter.signInNeeded(t('Your Scrapedeck session has expired and could not be renewed.')),
    ),
    holder.onDidFailToConnect((reason) => void ui.showErrorMessage(t('Scrapedeck cannot connect: {0}', reason))),
  );
  // A sandbox chosen before the last reload comes back in the background.
  void restoreSandbox(auth);
  return { vault, holder, sandbox, reporter, commands };
}
