/**
 * "Try the Sandbox" and its quiet return after a reload: start or find the local sandbox, point
 * the window at it, and sign in with its first seeded account.
 */
import * as vscode from 'vscode';

import { errorMessage } from '../../api/errors/errors';
import { reportError } from '../../platform/reporter';
import type { SandboxInfo } from '../../sandbox/seed/info';
import type { AuthDeps } from '../authDeps';
import { signIn } from '../signIn';
import { withCheckProgress } from '../signInPrompts';

const t = vscode.l10n.t;

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
        t(
          'You are in the Scrapedeck sandbox, signed in as {0} ({1} plan) on seeded data. Nothing here touches a real account; sign out to leave.',
          first.username,
          first.plan,
        ),
      );
    }
    return true;
  } catch (e) {
    // Cancelled or refused: back to the address (and the account) the window had before.
    if (!wasActive && deps.sandbox.active)
      await deps.sandbox
        .leave()
        .catch((left: unknown) => deps.log.warn(`Could not leave the sandbox: ${String(left)}`));
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
    deps.log.warn(`Could not bring the sandbox back: ${errorMessage(e)}`);
  }
}
