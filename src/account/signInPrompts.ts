/**
 * The two sign-in dialogues: an API key (the key, then a name for the account) and a username and
 * password. Each asks, checks with `account/signIn.ts` under a cancellable progress notification,
 * and on a refusal asks again with the reason and the request id one click away. Escape at any
 * step changes nothing. Both resolve to whether the user is now signed in with what they typed.
 */
import * as vscode from 'vscode';

import { headerValueProblem } from '../api/schemas/headerValues';
import { composeErrorText, type ErrorContext } from '../platform/errorText';
import type { SignInDeps } from './authDeps';
import type { Endpoints } from './clientHolder';
import { apiKeyLabel, labelProblem } from './credentials';
import { signIn, type SignInResult } from './signIn';

const t = vscode.l10n.t;

export type { SignInDeps };

/** A refusal shown in the box: the reason, and the request id for its copy button. */
interface Rejected {
  value: string;
  message: string;
  requestId: string | undefined;
}

/** Runs `task` under a cancellable progress notification; cancelling aborts the request. */
export function withCheckProgress<T>(title: string, task: (signal: AbortSignal) => Promise<T>): Thenable<T> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    (_progress, token) => {
      const controller = new AbortController();
      const subscription = token.onCancellationRequested(() => controller.abort());
      return task(controller.signal).finally(() => subscription.dispose());
    },
  );
}

/** A refused value is shown again with the reason; the box stays usable (a warning, not an error). */
function rejectedHint(rejected: Rejected | undefined, v: string): vscode.InputBoxValidationMessage | undefined {
  return rejected !== undefined && v === rejected.value
    ? { message: rejected.message, severity: vscode.InputBoxValidationSeverity.Warning }
    : undefined;
}

/** undefined: signed in or cancelled (nothing more to ask); otherwise the refusal to show. */
function refusal(result: SignInResult, value: string, context: ErrorContext): Rejected | undefined {
  if (result.ok || result.error.kind === 'cancelled') return undefined;
  const { text, requestId } = composeErrorText(result.error, context, '', t);
  return { value, message: text, requestId };
}

/** `endpoints`: where to sign in (Switch Account leaving the sandbox); default the address in use. */
export async function signInWithApiKey(deps: SignInDeps, endpoints?: Endpoints): Promise<boolean> {
  const baseUrl = (endpoints ?? deps.account.endpoints).baseUrl;
  let value = '';
  /** A name the user typed themselves (kept for a retry); the suggestion follows the key instead. */
  let ownLabel: string | undefined;
  let rejected: Rejected | undefined;
  for (;;) {
    const entered = await deps.ui.showInputBox({
      title: t('Sign In to Scrapedeck with an API Key (1/2)'),
      prompt:
        rejected?.message ??
        t("Create a key in the account center. It is checked with {0} and kept in VS Code's secret storage.", baseUrl),
      placeHolder: t('API key'),
      password: true,
      ignoreFocusOut: true,
      value,
      requestId: rejected?.requestId,
      validateInput: (v) =>
        v.trim() === ''
          ? t('Enter an API key.')
          : (headerValueProblem(v.trim(), t('The API key')) ?? rejectedHint(rejected, v)),
    });
    if (entered === undefined) return false;
    value = entered;
    const apiKey = entered.trim();
    const named = await deps.ui.showInputBox({
      title: t('Sign In to Scrapedeck with an API Key (2/2)'),
      prompt: t('A name for this account, shown in the status bar and the Accounts menu. It is not secret.'),
      value: ownLabel ?? apiKeyLabel(apiKey, t),
      ignoreFocusOut: true,
      validateInput: (v) => labelProblem(v, apiKey, t),
    });
    if (named === undefined) return false;
    const label = named.trim();
    ownLabel = label === apiKeyLabel(apiKey, t) ? undefined : label;
    const result = await withCheckProgress(t('Scrapedeck: checking the API key…'), (signal) =>
      signIn(deps.account, 'apiKey', { apiKey, label }, { signal, ...(endpoints ? { endpoints } : {}) }),
    );
    if (result.ok) {
      // A plan that cannot list tasks is said once, in the Tasks view's welcome area: not here.
      void deps.ui.showInformationMessage(t('Signed in to Scrapedeck with {0}.', result.account?.label ?? label));
      return true;
    }
    rejected = refusal(result, entered, 'checkApiKey');
    if (rejected === undefined) return false;
  }
}

export async function signInWithPassword(
  deps: SignInDeps,
  initialUsername?: string,
  endpoints?: Endpoints,
): Promise<boolean> {
  let username = initialUsername ?? '';
  let rejected: Rejected | undefined;
  for (;;) {
    const enteredName = await deps.ui.showInputBox({
      title: t('Sign In to Scrapedeck (1/2)'),
      prompt: rejected?.message ?? t('Your account email address or username.'),
      placeHolder: t('Email address or username'),
      ignoreFocusOut: true,
      value: username,
      requestId: rejected?.requestId,
      validateInput: (v) => (v.trim() === '' ? t('Enter your email address or username.') : rejectedHint(rejected, v)),
    });
    if (enteredName === undefined) return false;
    username = enteredName.trim();
    const password = await deps.ui.showInputBox({
      title: t('Sign In to Scrapedeck (2/2)'),
      prompt: t('Password for {0}. Only the resulting session is kept, never the password.', username),
      placeHolder: t('Password'),
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (v === '' ? t('Enter your password.') : undefined),
    });
    if (password === undefined) return false;
    const result = await withCheckProgress(t('Scrapedeck: signing in as {0}…', username), (signal) =>
      signIn(deps.account, 'password', { username, password }, { signal, ...(endpoints ? { endpoints } : {}) }),
    );
    if (result.ok) {
      void deps.ui.showInformationMessage(t('Signed in to Scrapedeck as {0}.', username));
      return true;
    }
    rejected = refusal(result, username, 'signInPassword');
    if (rejected === undefined) return false;
  }
}
