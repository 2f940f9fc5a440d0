/**
 * Switch Account: choose the new sign-in first, and end the old one only when the new one
 * succeeded. Escape (at the choice or in any later box), a refused key or a cancelled check leave
 * the user signed in as before.
 *
 * Secrets are kept per service address, so a new sign-in at the same address replaces the old
 * one by itself. Across addresses (into or out of the sandbox) the old address's secrets are
 * cleared after the new sign-in, as Sign Out would.
 */
import * as vscode from 'vscode';

import { chooseSignIn } from './accountMenu';
import type { AuthDeps } from './authDeps';
import { normalizeBaseUrl } from './credentials';
import { trySandbox } from './sandbox/sandboxCommands';
import { signInWithApiKey, signInWithPassword } from './signInPrompts';

const t = vscode.l10n.t;

type Way = 'apiKey' | 'password' | 'sandbox';

export async function switchAccount(deps: AuthDeps): Promise<boolean> {
  const before = deps.account.account;
  if (before === undefined) {
    // Nothing to switch from: the ordinary sign-in choice.
    await chooseSignIn(deps.ui);
    return deps.account.account !== undefined;
  }
  const items: (vscode.QuickPickItem & { way: Way })[] = [
    { label: `$(key) ${t('Sign In with API Key')}`, way: 'apiKey' },
    { label: `$(account) ${t('Sign In with Username and Password')}`, way: 'password' },
    { label: `$(beaker) ${t('Try the Sandbox')}`, description: t('seeded data, no account needed'), way: 'sandbox' },
  ];
  const picked = await deps.ui.showQuickPick(items, {
    title: t('Switch Account'),
    placeHolder: t('You stay signed in as {0} until the new sign-in succeeds.', before.label),
  });
  if (picked === undefined) return false;

  const wasSandbox = deps.sandbox.active;
  const oldBaseUrl = deps.account.endpoints.baseUrl;
  if (picked.way === 'sandbox') {
    if (!(await trySandbox(deps))) return false;
    // The real account's sign-in ends now; while in the sandbox it would only wait in storage.
    if (!wasSandbox) await clearIfElsewhere(deps, oldBaseUrl);
    return true;
  }
  // Out of the sandbox: sign in at the configured address, and only then leave the sandbox.
  const target = wasSandbox ? deps.account.configuredEndpoints : undefined;
  const ok =
    picked.way === 'apiKey' ? await signInWithApiKey(deps, target) : await signInWithPassword(deps, undefined, target);
  if (ok && wasSandbox) {
    await deps.sandbox.leave();
    await clearIfElsewhere(deps, oldBaseUrl);
  }
  return ok;
}

/** Clears the old address's sign-in, unless the new one lives there (then it already replaced it). */
async function clearIfElsewhere(deps: AuthDeps, oldBaseUrl: string): Promise<void> {
  if (normalizeBaseUrl(oldBaseUrl) !== normalizeBaseUrl(deps.account.endpoints.baseUrl))
    await deps.account.clear(oldBaseUrl);
}
