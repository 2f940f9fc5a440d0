/**
 * Writes an analytics export where the user chooses. The page sends the rows; the extension
 * owns the file system (a webview cannot write files, and should not).
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { AnalyticsQuery, AnalyticsRecord } from '../api/schemas';
import type { Ui } from '../platform/ui';
import { EXPORT_FILTERS, defaultExportFileName, serialiseExport, type ExportFormat } from './exportFormat';

/** The saved file's path, or undefined when the user dismissed the save dialog. */
export async function exportAnalytics(
  ui: Ui,
  format: ExportFormat,
  query: AnalyticsQuery,
  records: readonly AnalyticsRecord[],
): Promise<string | undefined> {
  const name = defaultExportFileName(query, format);
  // Suggest the first workspace folder (where the user is working), else the home folder.
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
  const target = await ui.showSaveDialog({
    defaultUri: vscode.Uri.joinPath(folder, name),
    filters: EXPORT_FILTERS[format],
    saveLabel: 'Export',
    title: `Export ${records.length} analytics ${records.length === 1 ? 'row' : 'rows'} as ${format.toUpperCase()}`,
  });
  if (!target) return undefined;
  await vscode.workspace.fs.writeFile(target, serialiseExport(format, query, records, new Date()));
  return target.scheme === 'file' ? target.fsPath : target.toString(true);
}
