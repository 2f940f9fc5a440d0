/**
 * Deprecating one data app: confirm (`platform/confirm.ts`, alike Stop Run and Remove Data: a
 * modal that says what deprecation means, then the app's reference typed out, so Enter alone never
 * deprecates), make sure there is a hub API key, call
 * the hub with progress, remember the outcome, and explain the known failures (401, 404) in their
 * own words. Nothing is sent unless both confirmations were given.
 *
 * Notifications after the call are not awaited: they resolve only when dismissed, and the
 * command (and a test awaiting it) must finish when the work is done.
 */
import * as vscode from 'vscode';

import type { ClientHolder } from '../account/clientHolder';
import { errorMessage, isApiError } from '../api/errors/errors';
import { APP_REF_MAX } from '../api/schemas/schemas';
import { COMMANDS } from '../platform/commandIds';
import { confirmDestructive } from '../platform/confirm';
import { plainText } from '../platform/plainText';
import { copyRequestId, type Reporter } from '../platform/reporter';
import type { Ui } from '../platform/ui';
import { appScopeOf } from './appScope';
import type { AppScope, AppStore } from './appStore';
import { confirmationText, deprecationDescription, missingSecretsWarning, recordFromResult } from './deprecation';

const t = vscode.l10n.t;

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
  report: Reporter['report'];
  now?: () => number;
}

/** The modal's button. Choosing it leads to the second step (typing the reference), not to the call. */
export const deprecateButton = (): string => t('Deprecate…');

export async function deprecateApp(ref: string, deps: DeprecateDeps): Promise<DeprecateOutcome> {
  const { ui } = deps;
  const account = deps.account.account;
  if (account === undefined) {
    void ui.showInformationMessage(t('Sign in to Scrapedeck to deprecate data apps.'));
    return 'signed-out';
  }
  const scope = appScopeOf(account);
  if (scope === undefined) {
    deps.hub.reportMissingAddress();
    return 'no-hub';
  }

  if (!(await confirm(ref, ui))) return 'declined';

  // A password sign-in has no hub key yet: this asks for one (false = the user gave none).
  if (!(await deps.hub.ensureApiKey())) return 'no-hub-key';
  const client = deps.account.getClient();
  if (client === undefined) return 'signed-out';
  // What was confirmed was this app for this account at this hub: another one is not asked for.
  const now = appScopeOf(deps.account.account);
  if (now === undefined || now.account !== scope.account || now.hub !== scope.hub) {
    void ui.showWarningMessage(
      t('The Scrapedeck account or its hub changed while you were asked, so {0} was not deprecated.', plainText(ref)),
    );
    return 'signed-out';
  }

  deps.setBusy(ref, true);
  try {
    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: t('Deprecating {0}…', plainText(ref)),
        cancellable: true,
      },
      (_progress, token) => {
        const abort = new AbortController();
        const cancel = token.onCancellationRequested(() => abort.abort());
        return client.deprecateApp(ref, { signal: abort.signal }).finally(() => cancel.dispose());
      },
    );
    const record = recordFromResult(result.data, (deps.now ?? Date.now)());
    // Recorded under the account and hub the call went for, even if the settings changed meanwhile. The app is
    // deprecated whether or not that note is kept: a storage failure must not say otherwise.
    await deps.store
      .recordDeprecation(scope, ref, record)
      .catch((e: unknown) =>
        deps.log.warn(`Deprecated ${ref}, but could not remember it in this window's state: ${errorMessage(e)}`),
      );
    deps.log.info(
      `Deprecated ${ref}: ${deprecationDescription(record, t)}${result.requestId ? ` (request ID ${result.requestId})` : ''}`,
    );
    const warning = missingSecretsWarning(ref, record, t);
    // Idempotent at the hub: a second deprecation reads the same, "is deprecated".
    if (warning !== undefined) void ui.showWarningMessage(warning);
    else
      void ui.showInformationMessage(t('{0} is deprecated ({1}).', plainText(ref), deprecationDescription(record, t)));
    return 'deprecated';
  } catch (error) {
    return explainFailure(ref, scope, error, deps);
  } finally {
    deps.setBusy(ref, false);
  }
}

/** The modal says what deprecation means; then the reference is typed. Escape at either step, or anything else typed, declines. */
async function confirm(ref: string, ui: Ui): Promise<boolean> {
  const shown = plainText(ref, APP_REF_MAX);
  const { message, detail } = confirmationText(shown, t);
  const answer = await confirmDestructive(ui, {
    message,
    detail,
    action: deprecateButton(),
    keep: t('Keep the App'),
    typed: {
      title: t('Deprecate {0} (2/2)', shown),
      prompt: t('Type {0} to deprecate it. This cannot be undone from Scrapedeck.', shown),
      expected: shown,
      mismatch: t('Type {0} exactly, or press Escape to keep it.', shown),
    },
  });
  return answer === 'confirmed';
}

async function explainFailure(
  ref: string,
  scope: AppScope,
  error: unknown,
  deps: DeprecateDeps,
): Promise<DeprecateOutcome> {
  const { ui } = deps;
  if (!isApiError(error)) {
    void deps.report(error, 'deprecate', ref);
    return 'failed';
  }
  if (error.kind === 'cancelled') return 'cancelled';
  const requestId = error.requestId;
  if (error.status === 401 || error.kind === 'auth') {
    deps.log.warn(`Deprecating ${ref}: the hub refused the API key (${error.describe()})`);
    const setKey = t('Set API Key');
    void ui
      .showErrorMessage(t('The data-app hub API key is missing or invalid. Set a valid key and try again.'), setKey)
      .then((choice) => choice === setKey && vscode.commands.executeCommand(COMMANDS.setHubApiKey));
    return 'unauthorized';
  }
  if (error.status === 404 || error.kind === 'not-found') {
    deps.log.warn(`Deprecating ${ref}: not found (${error.describe()})`);
    // The hub's only word on whether an app exists: remembered, so Deprecate is no longer offered.
    await deps.store
      .recordNotFound(scope, ref, { at: (deps.now ?? Date.now)(), ...(requestId ? { requestId } : {}) })
      .catch((e: unknown) => deps.log.warn(`Could not remember that the hub has no ${ref}: ${errorMessage(e)}`));
    const copy = t('Copy Request ID');
    void ui
      .showErrorMessage(
        t('App {0} was not found, or you are not its author (only the author can deprecate).', plainText(ref)),
        ...(requestId ? [copy] : []),
      )
      .then((choice) => {
        if (choice === copy && requestId !== undefined) void copyRequestId(requestId);
      });
    return 'not-found';
  }
  void deps.report(error, 'deprecate', ref);
  return 'failed';
}
