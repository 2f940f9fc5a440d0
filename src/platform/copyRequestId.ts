/**
 * "Copy Request ID": the one action every failure message offers. Its own file because both the
 * prompts (`ui.ts`) and the error reporter (`reporter.ts`) offer it, and the reporter uses the prompts.
 */
import * as vscode from 'vscode';

/** Copies a request id and says so briefly in the status bar. */
export async function copyRequestId(requestId: string): Promise<void> {
  await vscode.env.clipboard.writeText(requestId);
  vscode.window.setStatusBarMessage(`$(copy) ${vscode.l10n.t('Copied request ID {0}', requestId)}`, 3000);
}
