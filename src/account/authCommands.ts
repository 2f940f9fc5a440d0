/**
 * Sign-in, Switch Account, sign-out and the hub key: the prompts and messages
 * around `account/signIn.ts` (the sign-in dialogues themselves are `signInPrompts.ts`). Every
 * prompt goes through the Ui seam; checking happens under a cancellable progress notification.
 */
import * as vscode from 'vscode';
import * as z from 'zod';

import { defineHandlers } from '../platform/commandHandlers';
import type { AuthDeps } from './authDeps';
import { describeMethod } from './credentials';
import { promptHubApiKey } from './hubApiKey';
import { trySandbox } from './sandbox/sandboxCommands';
import { signInWithApiKey, signInWithPassword } from './signInPrompts';
import { switchAccount } from './switchAccount';

const t = vscode.l10n.t;

/** Commands may be run from links, menus or other code: an argument is only a hint. */
const optionalText = z.string().optional().catch(undefined);

export function authCommands(deps: AuthDeps) {
  return defineHandlers({
    signInWithApiKey: () => signInWithApiKey(deps),
    signInWithPassword: (username?: unknown) => signInWithPassword(deps, optionalText.parse(username)),
    switchAccount: () => switchAccount(deps),
    trySandbox: () => trySandbox(deps),
    signOut: () => signOut(deps),
    setHubApiKey: () => setHubApiKey(deps),
  });
}

export async function signOut(deps: AuthDeps): Promise<void> {
  const before = deps.account.account;
  const wasSandbox = deps.sandbox.active;
  await deps.account.clear();
  if (wasSandbox) await deps.sandbox.leave();
  if (wasSandbox) void deps.ui.showInformationMessage(t('Left the Scrapedeck sandbox.'));
  else if (before !== undefined)
    void deps.ui.showInformationMessage(t('Signed out of Scrapedeck ({0}).', before.label));
}

export async function setHubApiKey(deps: AuthDeps): Promise<void> {
  const account = deps.account.account;
  if (account === undefined) {
    void deps.ui.showInformationMessage(t('Sign in to Scrapedeck first; then set the data-app hub API key.'));
    return;
  }
  if (account.method !== 'password') {
    void deps.ui.showInformationMessage(
      describeMethod(account.method) === 'sandbox'
        ? t(
            "You signed in with the sandbox's API key, so the data-app hub uses that key. To use another key, sign in with it.",
          )
        : t('You signed in with an API key, so the data-app hub uses that key. To use another key, sign in with it.'),
    );
    return;
  }
  const key = await promptHubApiKey(deps.ui);
  if (key === undefined) return;
  await deps.account.setHubApiKey(key);
  void deps.ui.showInformationMessage(t('Data-app hub API key saved in secret storage.'));
}
