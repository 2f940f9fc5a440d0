/**
 * Sign-in, sign-out, "Try the sandbox" and the hub key: the prompts and messages around
 * `account/signIn.ts`. Every prompt goes through the Ui seam; checking happens under a
 * cancellable progress notification.
 */
import * as vscode from 'vscode';
import * as z from 'zod';
import { describeMethod } from '../account/credentials';
import { signIn } from '../account/signIn';
import type { ApiError } from '../api/errors';
import { headerValueProblem } from '../api/headerValues';
import type { SandboxInfo } from '../sandbox/info';
import { describe as describeError, reportError } from '../platform/errors';
import type { CommandDeps, Handlers } from './deps';
import { promptHubApiKey } from './hub';

const t = vscode.l10n.t;

export type AuthDeps = Pick<CommandDeps, 'account' | 'sandbox' | 'configuration' | 'ui' | 'log'>;

/** Commands may be run from links, menus or other code: an argument is only a hint. */
const optionalText = z.string().optional().catch(undefined);

export function authCommands(deps: AuthDeps): Handlers<'signInWithApiKey' | 'signInWithPassword' | 'trySandbox' | 'signOut' | 'setHubApiKey'> {
  return {
    signInWithApiKey: () => signInWithApiKey(deps),
    signInWithPassword: (username?: unknown) => signInWithPassword(deps, optionalText.parse(username)),
    trySandbox: () => trySandbox(deps),
    signOut: () => signOut(deps),
    setHubApiKey: () => setHubApiKey(deps),
  };
}

/** Runs `task` under a cancellable progress notification; cancelling aborts the request. */
function withCheckProgress<T>(title: string, task: (signal: AbortSignal) => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (_progress, token) => {
    const controller = new AbortController();
    const subscription = token.onCancellationRequested(() => controller.abort());
    return task(controller.signal).finally(() => subscription.dispose());
  });
}

/** A refused value is shown again with the reason; the box stays usable (a warning, not an error). */
function rejectedHint(rejected: { value: string; message: string } | undefined, v: string): vscode.InputBoxValidationMessage | undefined {
  return rejected !== undefined && v === rejected.value ? { message: rejected.message, severity: vscode.InputBoxValidationSeverity.Warning } : undefined;
}

function serverDetail(error: ApiError): string {
  const message = error.message.replace(/[.\s]+$/, '');
  return error.requestId ? `${message}; request ID ${error.requestId}` : message;
}

export async function signInWithApiKey(deps: AuthDeps): Promise<void> {
  let value = '';
  let rejected: { value: string; message: string } | undefined;
  for (;;) {
    const entered = await deps.ui.showInputBox({
      title: t('Sign In to Scrapedeck with an API Key'),
      prompt: rejected?.message ?? t("Create a key in the account center. It is checked with {0} and kept in VS Code's secret storage.", deps.account.endpoints.baseUrl),
      placeHolder: t('API key'),
      password: true,
      ignoreFocusOut: true,
      value,
      validateInput: (v) => (v.trim() === '' ? t('Enter an API key.') : (headerValueProblem(v.trim(), t('The API key')) ?? rejectedHint(rejected, v))),
    });
    if (entered === undefined) return;
    value = entered;
    const apiKey = entered.trim();
    const result = await withCheckProgress(t('Scrapedeck: checking the API key…'), (signal) => signIn(deps.account, 'apiKey', { apiKey }, { signal }));
    if (result.ok) {
      const label = result.account?.label ?? t('API key');
      if (result.planLimited !== undefined) {
        void deps.ui.showWarningMessage(t('Signed in with {0}, but {1}', label, describeError(result.planLimited, result.planLimited, ['Standard', 'Professional', 'Enterprise'])));
      } else {
        void deps.ui.showInformationMessage(t('Signed in to Scrapedeck with {0}.', label));
      }
      return;
    }
    if (result.error.kind === 'cancelled') return;
    rejected = {
      value: entered,
      message:
        result.error.kind === 'auth'
          ? t('That API key was not accepted ({0}). Check it and try again.', serverDetail(result.error))
          : t('Could not check the API key: {0} Try again, or press Escape.', describeError(result.error, result.error, [])),
    };
  }
}

export async function signInWithPassword(deps: AuthDeps, initialUsername?: string): Promise<void> {
  let username = initialUsername ?? '';
  let rejected: { value: string; message: string } | undefined;
  for (;;) {
    const enteredName = await deps.ui.showInputBox({
      title: t('Sign In to Scrapedeck (1/2)'),
      prompt: rejected?.message ?? t('Your account email address or username.'),
      placeHolder: t('Email address or username'),
      ignoreFocusOut: true,
      value: username,
      validateInput: (v) => (v.trim() === '' ? t('Enter your email address or username.') : rejectedHint(rejected, v)),
    });
    if (enteredName === undefined) return;
    username = enteredName.trim();
    const password = await deps.ui.showInputBox({
      title: t('Sign In to Scrapedeck (2/2)'),
      prompt: t('Password for {0}. Only the resulting session is kept, never the password.', username),
      placeHolder: t('Password'),
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (v === '' ? t('Enter your password.') : undefined),
    });
    if (password === undefined) return;
    const result = await withCheckProgress(t('Scrapedeck: signing in as {0}…', username), (signal) =>
      signIn(deps.account, 'password', { username, password }, { signal }),
    );
    if (result.ok) {
      void deps.ui.showInformationMessage(t('Signed in to Scrapedeck as {0}.', username));
      return;
    }
    if (result.error.kind === 'cancelled') return;
    rejected = {
      value: username,
      message:
        result.error.kind === 'auth'
          ? t('The username or password was not accepted: {0}. Try again.', serverDetail(result.error))
          : t('Could not sign in: {0} Try again, or press Escape.', describeError(result.error, result.error, [])),
    };
  }
}

export async function trySandbox(deps: AuthDeps): Promise<void> {
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
  } catch (e) {
    // Not the shared reporter: a refused sandbox key is not the user's session, so no "Sign In Again".
    void reportError(e, t('Could not open the sandbox'), { ui: deps.ui, log: deps.log });
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
