/**
 * The data-app hub's prerequisites, said once here for every command that needs the hub: its
 * address (a setting) and, after a password sign-in, an API key (the hub accepts nothing else).
 */
import * as vscode from 'vscode';

import type { ClientHolder } from '../account/clientHolder';
import { promptHubApiKey } from '../account/hubApiKey';
import { COMMANDS } from '../platform/commandIds';
import type { Ui } from '../platform/ui';

const t = vscode.l10n.t;

/** The one "set the hub address" message, with a button to the setting. Not awaited by callers. */
export function reportMissingHubAddress(ui: Ui): void {
  const setHubUrl = t('Set Hub URL');
  void ui
    .showWarningMessage(
      t('The data-app hub address is not set. Set scrapedeck.datahubUrl (the address before /v1/…) to use data apps.'),
      setHubUrl,
    )
    .then((choice) => choice === setHubUrl && vscode.commands.executeCommand(COMMANDS.openHubSettings));
}

/**
 * True if the client can call the hub now. Points at the hub setting when the address is missing,
 * and asks for a hub key after a password sign-in that has none.
 */
export async function ensureHubApiKey(
  account: Pick<ClientHolder, 'account' | 'getClient' | 'endpoints' | 'setHubApiKey' | 'idle'>,
  ui: Ui,
): Promise<boolean> {
  await account.idle(); // a sign-in or reload under way decides which account this is about
  const current = account.account;
  if (account.getClient() === undefined || current === undefined) return false;
  if (account.endpoints.datahubUrl === undefined) {
    reportMissingHubAddress(ui);
    return false;
  }
  if (current.hasHubKey) return true;
  const key = await promptHubApiKey(ui);
  if (key === undefined) return false;
  await account.setHubApiKey(key);
  return account.account?.hasHubKey === true;
}
