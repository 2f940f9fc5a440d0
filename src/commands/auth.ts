/**
 * Sign-in, Switch Account, sign-out, "Try the sandbox" and the hub key: the prompts and messages
 * around `account/signIn.ts` (the sign-in dialogues themselves are `signInPrompts.ts`). Every
 * prompt goes through the Ui seam; checking happens under a cancellable progress notification.
 */
import * as vscode from 'vscode';
import * as z from 'zod';
import { describeMethod } from '../account/credentials';
import { signIn } from '../account/signIn';
import type { SandboxInfo } from '../sandbox/info';
import { reportError } from '../platform/errors';
import type { CommandDeps, Handlers } from './deps';
import { promptHubApiKey } from './hub';
import { signInWithApiKey, signInWithPassword, withCheckProgress } from './signInPrompts';
import { switchAccount } from './switchAccount';

const t = vscode.l10n.t;

export type AuthDeps = Pick<CommandDeps, 'account' | 'sandbox' | 'configuration' | 'ui' | 'log'>;

/** Commands may be run from links, menus or other code: an argument is only a hint. */
const optionalText = z.string().optional().catch(undefined);

export function authCommands(deps: AuthDeps): Handlers<'signInWithApiKey' | 'signInWithPassword' | 'switchAccount' | 'trySandbox' | 'signOut' | 'setHubApiKey'> {
  return {
    signInWithApiKey: () => signInWithApiKey(deps),
    signInWithPassword: (username?: unknown) => signInWithPassword(deps, optionalText.parse(username)),
    switchAccount: () => switchAccount(deps),
    trySandbox: () => trySandbox(deps),
    signOut: () => signOut(deps),
    setHubApiKey: () => setHubApiKey(deps),
  };
}

/** Resolves to whether the window is now signed in to the sandbox. A failure leaves things as they were. */
export async function trySandbox(deps: AuthDeps): Promise<boolean> {
  const wasActive = deps.sandbox.active;
  try {
    const info = await withCheckProgress(t('Scrapedeck: starting the sandbox…'), async (signal) => {
      const found = await deps.sandbox.findOrStart(deps.configuration.settings.baseUrl);
      await deps.sandbox.enter(found);
      await signInToSandbox(deps, found.info, signal);
      return found.info;
    });
    const first = info.accounts[0];
    if (first !== undefined) {
      void deps.ui.showInformationMessage(
        t('You are in the Scrapedeck sandbox, signed in as {0} ({1} plan) on seeded data. Nothing here touches a real account; sign out to leave.', first.username, first.plan),
      );
    }
    return true;
  } catch (e) {
    // Cancelled or refused: back to the address (and the account) the window had before.
    if (!wasActive && deps.sandbox.active) await deps.sandbox.leave().catch((left: unknown) => deps.log.warn(`Could not leave the sandbox: ${String(left)}`));
    // Not the shared reporter: a refused sandbox key is not the user's session, so no "Sign In Again".
    void reportError(e, 'openSandbox', undefined, { ui: deps.ui, log: deps.log });
    return false;
  }
}

/** Signs in with the sandbox's first seeded account (its API key, checked like any other). */
async function signInToSandbox(deps: AuthDeps, info: SandboxInfo, signal?: AbortSignal): Promise<void> {
  const first = info.accounts[0];
  if (first === undefined) throw new Error(t('The sandbox has no seeded accounts.'));
  const result = await signIn(deps.account, 'sandbox', { apiKey: first.apiKey, username: first.username }, { signal });
  if (!result.ok) throw result.error;
}

/** After a reload: the remembered sandbox comes back and is signed in to again, quietly. */
export async function restoreSandbox(deps: AuthDeps): Promise<void> {
  try {
    const found = await deps.sandbox.restore();
    if (found !== undefined) await signInToSandbox(deps, found.info);
  } catch (e) {
    deps.log.warn(`Could not bring the sandbox back: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export async function signOut(deps: AuthDeps): Promise<void> {
  const before = deps.account.account;
  const wasSandbox = deps.sandbox.active;
  await deps.account.clear();
  if (wasSandbox) await deps.sandbox.leave();
  if (wasSandbox) void deps.ui.showInformationMessage(t('Left the Scrapedeck sandbox.'));
  else if (before !== undefined) void deps.ui.showInformationMessage(t('Signed out of Scrapedeck ({0}).', before.label));
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
        ? t("You signed in with the sandbox's API key, so the data-app hub uses that key. To use another key, sign in with it.")
        : t('You signed in with an API key, so the data-app hub uses that key. To use another key, sign in with it.'),
    );
    return;
  }
  const key = await promptHubApiKey(deps.ui);
  if (key === undefined) return;
  await deps.account.setHubApiKey(key);
  void deps.ui.showInformationMessage(t('Data-app hub API key saved in secret storage.'));
}
