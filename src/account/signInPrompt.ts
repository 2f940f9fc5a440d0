/**
 * The "Sign In Again" notification: at most one at a time, however many requests fail at once
 * (a dead session fails every view and panel together). The button re-runs the sign-in the
 * user chose last, with the username filled in for a password sign-in.
 */
import * as vscode from 'vscode';
import type { Ui } from '../platform/ui';
import type { SignInMethod } from './credentials';

const SIGN_IN_AGAIN = 'Sign In Again';
const SIGN_IN_COMMAND: Record<SignInMethod, string> = {
  apiKey: 'scrapedeck.signInWithApiKey',
  password: 'scrapedeck.signInWithPassword',
  sandbox: 'scrapedeck.trySandbox',
};

export class SignInPrompt {
  private pending: Promise<void> | undefined;

  constructor(private readonly ui: Ui) {}

  show(message: string, method: SignInMethod, username: string | undefined): Promise<void> {
    if (this.pending !== undefined) return this.pending;
    this.pending = (async () => {
      try {
        const choice = await this.ui.showWarningMessage(message, SIGN_IN_AGAIN);
        if (choice === SIGN_IN_AGAIN) await vscode.commands.executeCommand(SIGN_IN_COMMAND[method], username);
      } finally {
        this.pending = undefined;
      }
    })();
    return this.pending;
  }
}
