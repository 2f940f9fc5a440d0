/**
 * Deprecating one data app: confirm in a modal, make sure there is a hub API key, call the hub
 * with progress, remember the outcome, and explain the known failures (401, 404) in their own
 * words. Nothing is sent unless the modal's answer is exactly "Deprecate".
 *
 * Notifications after the call are not awaited: they resolve only when dismissed, and the
 * command (and a test awaiting it) must finish when the work is done.
 */
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import type { ClientHolder } from '../account/clientHolder';
import { COMMANDS } from '../platform/commandIds';
import type { Ui } from '../platform/ui';
import type { AppStore } from './appStore';
import { confirmationText, deprecationDescription, missingSecretsWarning, recordFromResult } from './deprecation';

export const DEPRECATE_BUTTON = 'Deprecate';
const SET_API_KEY = 'Set API Key';
const COPY_REQUEST_ID = 'Copy Request ID';

/** What happened; the command returns it so tests (and callers) can tell the paths apart. */
export type DeprecateOutcome =
  | 'deprecated'
  | 'declined'
  | 'signed-out'
  | 'no-hub'
  | 'no-hub-key'
  | 'unauthorized'
  | 'not-found'
  | 'cancelled'
  | 'failed';

export interface DeprecateDeps {
  account: Pick<ClientHolder, 'account' | 'getClient'>;
  /** The hub's prerequisites, asked for by the commands (the one "set the hub address" message, the hub key prompt). */
  hub: {
    reportMissingAddress(): void;
    /** True if the client can call the hub now; after a password sign-in this asks for a hub key. */
    ensureApiKey(): Promise<boolean>;
  };
  ui: Ui;
  log: vscode.LogOutputChannel;
  store: AppStore;
  /** Shows the spinner on the app's node while the call runs. */
  setBusy(ref: string, busy: boolean): void;
  report(error: unknown, what: string): Promise<void>;
  now?: () => number;
}

export async function deprecateApp(ref: string, deps: DeprecateDeps): Promise<DeprecateOutcome> {
  const { ui } = deps;
  const account = deps.account.account;
  if (account === undefined) {
    void ui.showInformationMessage('Sign in to Scrapedeck to deprecate data apps.');
    return 'signed-out';
  }
  const hubUrl = account.datahubUrl;
  if (hubUrl === undefined) {
    deps.hub.reportMissingAddress();
    return 'no-hub';
  }

  const { message, detail } = confirmationText(ref);
  const answer = await ui.showModalWarning(message, detail, DEPRECATE_BUTTON);
  if (answer !== DEPRECATE_BUTTON) return 'declined';

  // A password sign-in has no hub key yet: this asks for one (false = the user gave none).
  if (!(await deps.hub.ensureApiKey())) return 'no-hub-key';
  const client = deps.account.getClient();
  if (client === undefined) return 'signed-out';

  deps.setBusy(ref, true);
  try {
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Deprecating ${ref}…`, cancellable: true },
      (_progress, token) => {
        const abort = new AbortController();
        const cancel = token.onCancellationRequested(() => abort.abort());
        return client.deprecateApp(ref, { signal: abort.signal }).finally(() => cancel.dispose());
      },
    );
    const record = recordFromResult(result.data, (deps.now ?? Date.now)());
    // Recorded under the hub the call went to, even if the settings changed meanwhile. The app is
    // deprecated whether or not that note is kept: a storage failure must not say otherwise.
    await deps.store.recordDeprecation(hubUrl, ref, record).catch((e: unknown) =>
      deps.log.warn(`Deprecated ${ref}, but could not remember it in this window's state: ${e instanceof Error ? e.message : String(e)}`),
    );
    deps.log.info(`Deprecated ${ref}: ${deprecationDescription(record)}${result.requestId ? ` (request ID ${result.requestId})` : ''}`);
    const warning = missingSecretsWarning(ref, record);
    // Idempotent at the hub: a second deprecation reads the same, "is deprecated".
    if (warning !== undefined) void ui.showWarningMessage(warning);
    else void ui.showInformationMessage(`${ref} is deprecated (${deprecationDescription(record)}).`);
    return 'deprecated';
  } catch (error) {
    return explainFailure(ref, error, deps);
  } finally {
    deps.setBusy(ref, false);
  }
}

function explainFailure(ref: string, error: unknown, deps: DeprecateDeps): DeprecateOutcome {
  const { ui } = deps;
  if (!isApiError(error)) {
    void deps.report(error, `Deprecating ${ref}`);
    return 'failed';
  }
  if (error.kind === 'cancelled') return 'cancelled';
  const requestId = error.requestId;
  if (error.status === 401 || error.kind === 'auth') {
    deps.log.warn(`Deprecating ${ref}: the hub refused the API key (${error.describe()})`);
    void ui
      .showErrorMessage('The data-app hub API key is missing or invalid. Set a valid key and try again.', SET_API_KEY)
      .then((choice) => choice === SET_API_KEY && vscode.commands.executeCommand(COMMANDS.setHubApiKey));
    return 'unauthorized';
  }
  if (error.status === 404 || error.kind === 'not-found') {
    deps.log.warn(`Deprecating ${ref}: not found (${error.describe()})`);
    const text = `App ${ref} was not found, or you are not its author (only the author can deprecate).`;
    const buttons = requestId ? [COPY_REQUEST_ID] : [];
    void ui.showErrorMessage(text, ...buttons).then((choice) => {
      if (choice === COPY_REQUEST_ID && requestId) void vscode.env.clipboard.writeText(requestId);
    });
    return 'not-found';
  }
  void deps.report(error, `Deprecating ${ref}`);
  return 'failed';
}
