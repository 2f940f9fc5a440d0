/**
 * One way to tell the user that something failed: the text from `errorText.ts` (what failed, the
 * service's message once, at most one hint), the request ID as a "Copy Request ID" button, and the
 * log. Sign-in problems become the window's single "Sign In Again" notification; a cancelled
 * request says nothing.
 */
import * as vscode from 'vscode';

import { isApiError } from '../api/errors/errors';
import { copyRequestId } from './copyRequestId';
import { composeErrorText, type ErrorContext } from './errorText';
import { type LastSignIn, SignInPrompt } from './signInPrompt';
import type { Ui } from './ui';

/** The part of the reporter the sign-in notification needs (narrow, so tests can pass a fake). */
export interface SignInNotifier {
  notifySignInNeeded(message: string): Promise<void>;
}

export interface ReportDeps {
  ui: Ui;
  /** The "Scrapedeck" channel (only these two methods are used). */
  log: Pick<vscode.LogOutputChannel, 'error' | 'show'>;
  account?: SignInNotifier;
}

/** The shared way to report: one "Sign In Again" prompt for the whole window. */
export interface Reporter {
  /** Shows the failure; resolves once the notification is dealt with (callers usually `void` it). */
  report(error: unknown, context: ErrorContext, subject?: string): Promise<void>;
  /** The single "Sign In Again" notification (a session that cannot be renewed). */
  signInNeeded(message: string): Promise<void>;
}

export function createReporter(deps: {
  ui: Ui;
  log: ReportDeps['log'];
  lastSignIn: () => LastSignIn | undefined;
}): Reporter {
  const prompt = new SignInPrompt(deps.ui, deps.lastSignIn);
  const account: SignInNotifier = { notifySignInNeeded: (message) => prompt.show(message) };
  return {
    report: (error, context, subject) => reportError(error, context, subject, { ui: deps.ui, log: deps.log, account }),
    signInNeeded: (message) => prompt.show(message),
  };
}

/**
 * Shows the failure and resolves once the user has dealt with the notification (or closed it).
 * Callers that must not wait for that should `void` it.
 */
export async function reportError(
  err: unknown,
  context: ErrorContext,
  subject: string | undefined,
  deps: ReportDeps,
): Promise<void> {
  if (isApiError(err) && err.kind === 'cancelled') return;
  const { text, requestId, kind } = composeErrorText(err, context, subject, vscode.l10n.t);
  deps.log.error(requestId ? `${text} (request ID ${requestId})` : text);

  if (kind === 'auth' && deps.account !== undefined) {
    await deps.account.notifySignInNeeded(text);
    return;
  }
  const copy = vscode.l10n.t('Copy Request ID');
  const showLog = vscode.l10n.t('Show Log');
  const choice = await deps.ui.showErrorMessage(text, ...(requestId ? [copy, showLog] : [showLog]));
  if (choice === copy && requestId) await copyRequestId(requestId);
  else if (choice === showLog) deps.log.show(true);
}

export { copyRequestId } from './copyRequestId';
