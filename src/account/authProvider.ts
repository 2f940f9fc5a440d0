/**
 * Scrapedeck in VS Code's Accounts menu (`contributes.authentication`), as the GitHub and HCP
 * Terraform extensions appear there: the signed-in account with Sign Out, or a Sign In entry.
 * SecretStorage stays the only store of secrets: the sessions handed to VS Code carry no token.
 */
import * as vscode from 'vscode';

import type { Registrar } from '../platform/registrar';
import { accountsMenuSession, type SessionAccount } from './accountSession';

export const AUTH_PROVIDER_ID = 'scrapedeck';
export const AUTH_PROVIDER_LABEL = 'Scrapedeck';

export interface AuthProviderDeps {
  /** The signed-in account, or undefined. */
  current(): SessionAccount | undefined;
  onDidChange: vscode.Event<unknown>;
  /** Asks how to sign in and does it; resolves when signed in or dismissed. */
  signIn(): Promise<void>;
  signOut(): Promise<void>;
}

export class ScrapedeckAuthProvider implements vscode.AuthenticationProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  readonly onDidChangeSessions = this.changed.event;
  private last: vscode.AuthenticationSession | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly deps: AuthProviderDeps) {
    this.last = this.session();
    this.subscription = deps.onDidChange(() => this.follow());
  }

  getSessions(): Promise<vscode.AuthenticationSession[]> {
    const session = this.session();
    return Promise.resolve(session === undefined ? [] : [session]);
  }

  async createSession(): Promise<vscode.AuthenticationSession> {
    await this.deps.signIn();
    const session = this.session();
    // VS Code expects a rejection when no session was made (the user pressed Esc).
    if (session === undefined) throw new Error(vscode.l10n.t('Sign-in to Scrapedeck was cancelled.'));
    return session;
  }

  async removeSession(sessionId: string): Promise<void> {
    if (this.session()?.id === sessionId) await this.deps.signOut();
  }

  private session(): vscode.AuthenticationSession | undefined {
    const account = this.deps.current();
    if (account === undefined) return undefined;
    const s = accountsMenuSession(account, vscode.l10n.t);
    return { id: s.id, accessToken: s.accessToken, account: s.account, scopes: s.scopes };
  }

  /** One event per real change: a sign-in, a sign-out, or another account (or label). */
  private follow(): void {
    const next = this.session();
    const previous = this.last;
    if (previous?.id === next?.id && previous?.account.label === next?.account.label) return;
    this.last = next;
    this.changed.fire({
      added: next !== undefined && previous?.id !== next.id ? [next] : [],
      removed: previous !== undefined && previous.id !== next?.id ? [previous] : [],
      changed: next !== undefined && previous?.id === next.id ? [next] : [],
    });
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

/** Registers the provider; the returned disposable goes into context.subscriptions. */
export function registerAuthProvider(
  registrar: Pick<Registrar, 'registerAuthenticationProvider'>,
  deps: AuthProviderDeps,
): vscode.Disposable {
  const provider = new ScrapedeckAuthProvider(deps);
  const registration = registrar.registerAuthenticationProvider(AUTH_PROVIDER_ID, AUTH_PROVIDER_LABEL, provider, {
    supportsMultipleAccounts: false,
  });
  return vscode.Disposable.from(registration, provider);
}
