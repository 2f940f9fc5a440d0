/**
 * The context keys the manifest's `when` clauses read: `scrapedeck.signedIn` (the welcome views)
 * and `scrapedeck.hubConfigured` (the Data Apps view's hub-address welcome).
 */
import * as vscode from 'vscode';

import type { ClientHolder } from './clientHolder';

export function trackAccountContextKeys(
  account: Pick<ClientHolder, 'account' | 'endpoints' | 'onDidChange'>,
): vscode.Disposable {
  const update = (): void => {
    void vscode.commands.executeCommand('setContext', 'scrapedeck.signedIn', account.account !== undefined);
    void vscode.commands.executeCommand(
      'setContext',
      'scrapedeck.hubConfigured',
      account.endpoints.datahubUrl !== undefined,
    );
  };
  update();
  return account.onDidChange(update);
}
