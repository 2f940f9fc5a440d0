/**
 * Writes an analytics export where the user chooses. The host holds the rows (by result id); the
 * extension owns the file system (a webview cannot write files, and should not).
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { Ui } from '../platform/ui';
import { EXPORT_FILTERS, defaultExportFileName, isPartial, serialiseExport, type ExportFormat, type ExportedRows } from './exportFormat';

/** The saved file's path, or undefined when the user dismissed the save dialog. */
export async function exportAnalytics(ui: Ui, format: ExportFormat, rows: ExportedRows): Promise<string | undefined> {
  const name = defaultExportFileName(rows, format);
  // Suggest the first workspace folder (where the user is working), else the home folder.
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
  const n = rows.records.length;
  const what = isPartial(rows) ? `the first ${n.toLocaleString('en-US')} of ${rows.total.toLocaleString('en-US')} analytics rows` : `${n} analytics ${n === 1 ? 'row' : 'rows'}`;
  const target = await ui.showSaveDialog({
    defaultUri: vscode.Uri.joinPath(folder, name),
    filters: EXPORT_FILTERS[format],
    saveLabel: 'Export',
    title: `Export ${what} as ${format.toUpperCase()}`,
  });
  if (!target) return undefined;
  await vscode.workspace.fs.writeFile(target, serialiseExport(format, rows, new Date()));
  return target.scheme === 'file' ? target.fsPath : target.toString(true);
}
