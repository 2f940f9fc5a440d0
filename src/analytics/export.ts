/**
 * Writes an analytics export where the user chooses. The host holds the rows (by result id); the
 * extension owns the file system (a webview cannot write files, and should not).
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import type { Ui } from '../platform/ui';
import { formatInt } from '../analyticsModel/format';
import { EXPORT_FILTERS, defaultExportFileName, isPartial, serialiseExport, type ExportFormat, type ExportedRows } from './exportFormat';

/**
 * The saved file's path, or undefined when the user dismissed the save dialog. `stillHeld` is asked
 * after the dialog: an account change while it was open means these rows are no longer the
 * user's to write, so nothing is written.
 */
export async function exportAnalytics(ui: Ui, format: ExportFormat, rows: ExportedRows, stillHeld: () => boolean = () => true): Promise<string | undefined> {
  const name = defaultExportFileName(rows, format);
  // Suggest the first workspace folder (where the user is working), else the home folder.
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
  const n = rows.records.length;
  const what = isPartial(rows) ? `the first ${formatInt(n)} of ${formatInt(rows.total)} analytics rows` : `${formatInt(n)} analytics ${n === 1 ? 'row' : 'rows'}`;
  const target = await ui.showSaveDialog({
    defaultUri: vscode.Uri.joinPath(folder, name),
    filters: EXPORT_FILTERS[format],
    saveLabel: 'Export',
    title: `Export ${what} as ${format.toUpperCase()}`,
  });
  if (!target) return undefined;
  if (!stillHeld()) throw new ApiError({ kind: 'not-found', message: vscode.l10n.t('The account changed while the save dialog was open, so nothing was written. Run the query again to export this account\'s rows.') });
  await vscode.workspace.fs.writeFile(target, serialiseExport(format, rows, new Date()));
  // Not awaited: the page hears "exported" at once; the notification waits for the user.
  void offerExported(ui, target, n);
  return target.scheme === 'file' ? target.fsPath : target.toString(true);
}

/**
 * The export's last step: a notification naming the file, with Open (in an editor) and Reveal (in
 * the system's file manager; only for files on disk). Resolves with the action taken.
 */
export async function offerExported(ui: Pick<Ui, 'showInformationMessage'>, target: vscode.Uri, rows: number): Promise<'open' | 'reveal' | undefined> {
  const open = vscode.l10n.t('Open');
  const reveal = vscode.l10n.t('Reveal');
  const name = target.path.slice(target.path.lastIndexOf('/') + 1);
  const message = rows === 1 ? vscode.l10n.t('Exported 1 analytics row to {0}.', name) : vscode.l10n.t('Exported {0} analytics rows to {1}.', formatInt(rows), name);
  const choice = await ui.showInformationMessage(message, ...(target.scheme === 'file' ? [open, reveal] : [open]));
  if (choice === open) {
    await vscode.commands.executeCommand('vscode.open', target);
    return 'open';
  }
  if (choice === reveal) {
    await vscode.commands.executeCommand('revealFileInOS', target);
    return 'reveal';
  }
  return undefined;
}
