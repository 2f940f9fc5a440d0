/**
 * The "Sign In Again" notification: at most one at a time, however many requests fail at once
 * (a dead session fails every view and panel together). The button re-runs the sign-in the
 * user chose last, with the username filled in for a password sign-in.
 */
import * as vscode from 'vscode';

import { COMMANDS } from './commandIds';
import type { Ui } from './ui';

export type SignInMethod = 'apiKey' | 'password' | 'sandbox';

const SIGN_IN_COMMAND: Record<SignInMethod, string> = {
  apiKey: COMMANDS.signInWithApiKey,
  password: COMMANDS.signInWithPassword,
  sandbox: COMMANDS.trySandbox,
};

/** How the user signed in last (the current account), to offer the same again. */
export interface LastSignIn {
  method: SignInMethod;
  username?: string;
}

export class SignInPrompt {
  private pending: Promise<void> | undefined;

  constructor(
    private readonly ui: Ui,
    private readonly last: () => LastSignIn | undefined,
  ) {}

  show(message: string): Promise<void> {
    if (this.pending !== undefined) return this.pending;
    const again = vscode.l10n.t('Sign In Again');
    const last = this.last();
    this.pending = (async () => {
      try {
        const choice = await this.ui.showWarningMessage(message, again);
        if (choice === again)
          await vscode.commands.executeCommand(SIGN_IN_COMMAND[last?.method ?? 'apiKey'], last?.username);
      } finally {
        this.pending = undefined;
      }
    })();
    return this.pending;
  }
}
