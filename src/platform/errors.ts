/**
 * One way to tell the user that something failed: "<what>: <message>", the request ID to quote
 * to support (copyable), and the log. Sign-in problems become the account's single "Sign In
 * Again" notification; a cancelled request says nothing.
 */
import * as vscode from 'vscode';
import { isApiError, type ApiError } from '../api/errors';
import { SignInPrompt, type LastSignIn } from './signInPrompt';
import type { Ui } from './ui';

/** The part of the account service this needs (kept narrow so callers and tests can pass a fake). */
export interface SignInNotifier {
  notifySignInNeeded(message: string): Promise<void>;
}

export interface ReportDeps {
  ui: Ui;
  /** The "Scrapedeck" channel (only these two methods are used). */
  log: Pick<vscode.LogOutputChannel, 'error' | 'show'>;
  account?: SignInNotifier;
  /**
   * Plans that allow the failed operation, for a 'forbidden' reply. The spec's default for the
   * task, data and analytics operations is Standard, Professional or Enterprise.
   */
  requiredPlans?: readonly string[];
}

/** The shared way to report: one "Sign In Again" prompt for the whole window. */
export interface Reporter {
  /** Shows the failure; resolves once the notification is dealt with (callers usually `void` it). */
  report(error: unknown, what: string, options?: { requiredPlans?: readonly string[] }): Promise<void>;
  /** The single "Sign In Again" notification (a session that cannot be renewed). */
  signInNeeded(message: string): Promise<void>;
}

export function createReporter(deps: { ui: Ui; log: ReportDeps['log']; lastSignIn: () => LastSignIn | undefined }): Reporter {
  const prompt = new SignInPrompt(deps.ui, deps.lastSignIn);
  const account: SignInNotifier = { notifySignInNeeded: (message) => prompt.show(message) };
  return {
    report: (error, what, options) => reportError(error, what, { ui: deps.ui, log: deps.log, account, ...options }),
    signInNeeded: (message) => prompt.show(message),
  };
}

const COPY_REQUEST_ID = 'Copy Request ID';
const SHOW_LOG = 'Show Log';
const DEFAULT_PLANS = ['Standard', 'Professional', 'Enterprise'] as const;

/**
 * Shows the failure and resolves once the user has dealt with the notification (or closed it).
 * Callers that must not wait for that should `void` it.
 */
export async function reportError(err: unknown, what: string, deps: ReportDeps): Promise<void> {
  const api = isApiError(err) ? err : undefined;
  if (api?.kind === 'cancelled') return;

  const text = `${what}: ${describe(err, api, deps.requiredPlans ?? DEFAULT_PLANS)}`;
  deps.log.error(api?.requestId ? `${text} (request ID ${api.requestId})` : text);

  if (api?.kind === 'auth' && deps.account !== undefined) {
    await deps.account.notifySignInNeeded(text);
    return;
  }

  const buttons = api?.requestId ? [COPY_REQUEST_ID, SHOW_LOG] : [SHOW_LOG];
  const choice = await deps.ui.showErrorMessage(text, ...buttons);
  if (choice === COPY_REQUEST_ID && api?.requestId) {
    await vscode.env.clipboard.writeText(api.requestId);
  } else if (choice === SHOW_LOG) {
    deps.log.show(true);
  }
}

/** The message for people, with a hint for the kinds where there is something to do. */
export function describe(err: unknown, api: ApiError | undefined, plans: readonly string[]): string {
  if (api === undefined) return err instanceof Error ? err.message : String(err);
  const message = api.message.replace(/[.\s]+$/, '');
  switch (api.kind) {
    case 'forbidden':
      return `${message}. This needs ${planList(plans)} plan.`;
    case 'rate-limited':
      return `${message}. The service is limiting requests; try again in a moment, or lower scrapedeck.requestsPerSecond.`;
    case 'network':
    case 'timeout':
      return `${message}. Check your connection, scrapedeck.baseUrl and the proxy settings.`;
    default:
      return `${message}.`;
  }
}

/** "a Standard, Professional or Enterprise" */
function planList(plans: readonly string[]): string {
  if (plans.length === 0) return 'a different';
  if (plans.length === 1) return `a ${plans[0]}`;
  return `a ${plans.slice(0, -1).join(', ')} or ${plans[plans.length - 1]}`;
}
