/**
 * Builds the account for `activate()`: the vault on the window's SecretStorage and globalState,
 * the client holder, the status-bar item and the context keys the manifest reads. Everything goes
 * into `context.subscriptions`. No prompts: those are the commands'.
 */
import * as vscode from 'vscode';
import type { Configuration } from '../platform/configuration';
import { ClientHolder } from './clientHolder';
import { trackAccountContextKeys } from './contextKeys';
import { createAccountStatusBar } from './statusBar';
import { CredentialsVault } from './vault';

export interface AccountParts {
  readonly vault: CredentialsVault;
  readonly holder: ClientHolder;
}

export function createAccount(context: vscode.ExtensionContext, deps: { configuration: Configuration; log: vscode.LogOutputChannel }): AccountParts {
  const vault = new CredentialsVault(context.secrets, context.globalState, deps.log, vscode.l10n.t);
  const holder = new ClientHolder({ vault, configuration: deps.configuration, log: deps.log });
  context.subscriptions.push(vault, holder, trackAccountContextKeys(holder), createAccountStatusBar(holder));
  return { vault, holder };
}
