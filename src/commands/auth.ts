/**
 * Sign-in, sign-out, "Try the sandbox" and the hub key: the prompts and messages around the
 * account service. Every prompt goes through the Ui seam; checking happens under a cancellable
 * progress notification.
 */
import * as vscode from 'vscode';
import * as z from 'zod';
import type { ApiError } from '../api/errors';
import { apiKeyLabel, describeMethod, promptHubApiKey, type AccountService } from '../account/accountService';
import type { SandboxHost } from '../account/sandboxHost';
import { obtainSession, verifyApiKey } from '../account/verify';
import { headerValueProblem } from '../api/headerValues';
import type { SandboxInfo } from '../sandbox/info';
import type { Configuration } from '../platform/configuration';
import { describe as describeError, reportError } from '../platform/errors';

const t = vscode.l10n.t;
import type { Ui } from '../platform/ui';

export interface AuthDeps {
  account: AccountService;
  sandbox: SandboxHost;
  configuration: Configuration;
  ui: Ui;
  log: vscode.LogOutputChannel;
}

/** Commands may be run from links, menus or other code: an argument is only a hint. */
const optionalText = z.string().optional().catch(undefined);

export function registerAuthCommands(context: vscode.ExtensionContext, deps: AuthDeps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('scrapedeck.signInWithApiKey', () => signInWithApiKey(deps)),
    vscode.commands.registerCommand('scrapedeck.signInWithPassword', (username?: unknown) =>
      signInWithPassword(deps, optionalText.parse(username)),
    ),
    vscode.commands.registerCommand('scrapedeck.trySandbox', () => trySandbox(deps)),
    vscode.commands.registerCommand('scrapedeck.signOut', () => signOut(deps)),
    vscode.commands.registerCommand('scrapedeck.setHubApiKey', () => setHubApiKey(deps)),
  );
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
    const result = await withCheckProgress(t('Scrapedeck: checking the API key…'), (signal) => verifyApiKey(deps.account, apiKey, signal));
    if (result.ok) {
      await deps.account.signIn(result.credentials, { label: apiKeyLabel(apiKey), method: 'apiKey' });
      if (result.planLimited !== undefined) {
        void deps.ui.showWarningMessage(t('Signed in with {0}, but {1}', apiKeyLabel(apiKey), describeError(result.planLimited, result.planLimited, ['Standard', 'Professional', 'Enterprise'])));
      } else {
        void deps.ui.showInformationMessage(t('Signed in to Scrapedeck with {0}.', apiKeyLabel(apiKey)));
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
      obtainSession(deps.account, username, password, Date.now, signal),
    );
    if (result.ok) {
      await deps.account.signIn(result.credentials, { label: username, method: 'password', username });
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
    void reportError(e, t('Could not open the sandbox'), { ui: deps.ui, log: deps.log });
  }
}

/** Signs in with the sandbox's first seeded account (its API key, checked like any other). */
export async function signInToSandbox(deps: AuthDeps, info: SandboxInfo, signal?: AbortSignal): Promise<void> {
  const first = info.accounts[0];
  if (first === undefined) throw new Error('The sandbox has no seeded accounts.');
  const result = await verifyApiKey(deps.account, first.apiKey, signal);
  if (!result.ok) throw result.error;
  await deps.account.signIn(result.credentials, { label: first.username, method: 'sandbox' });
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
  await deps.account.signOut();
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
