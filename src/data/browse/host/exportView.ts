/**
 * Export what the browser's filter shows: a file chosen by the user, written by the existing
 * writers (CSV, JSON Lines, JSON, Excel, SQLite) through a temporary file renamed when complete.
 */
import * as os from 'node:os';

import * as vscode from 'vscode';

import type { DataRow } from '../../../api/schemas/dataSchemas';
import { count, fileLabel } from '../../common/feedback';
import { createRowWriter } from '../../export/exportWriters';
import { FORMAT_EXTENSIONS, formatOfPath, safeFileName } from '../../formats/rowFormats';

const t = vscode.l10n.t;

export async function exportBrowsedRows(
  rows: () => AsyncIterable<DataRow[]>,
  _columns: readonly string[],
  o: { title: string; wasmDir: string; log: Pick<vscode.LogOutputChannel, 'info' | 'error'> },
): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
  const target = await vscode.window.showSaveDialog({
    defaultUri: vscode.Uri.joinPath(folder, `${safeFileName(o.title)}.csv`),
    filters: {
      CSV: [...FORMAT_EXTENSIONS.csv],
      'JSON Lines': [...FORMAT_EXTENSIONS.jsonl],
      JSON: [...FORMAT_EXTENSIONS.json],
      Excel: [...FORMAT_EXTENSIONS.xlsx],
      SQLite: [...FORMAT_EXTENSIONS.sqlite],
    },
    saveLabel: t('Export'),
    title: t('Export the Rows Shown'),
  });
  if (target === undefined) return;
  const format = formatOfPath(target.fsPath);
  if (target.scheme !== 'file' || format === undefined) {
    void vscode.window.showErrorMessage(
      t('Choose a file on this machine ending in .csv, .jsonl, .json, .xlsx or .sqlite.'),
    );
    return;
  }
  try {
    const written = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: t('Exporting the rows shown…'), cancellable: true },
      async (_p, token) => {
        const writer = await createRowWriter({
          target: target.fsPath,
          format,
          root: vscode.workspace.getWorkspaceFolder(target)?.uri.fsPath,
          taskId: o.title,
          taskName: o.title,
          wasmDir: o.wasmDir,
        });
        let n = 0;
        try {
          for await (const page of rows()) {
            if (token.isCancellationRequested) return undefined;
            if (page.length === 0) continue;
            const count = page.length; // read first: the writer may empty the page it is handed
            await writer.write(page);
            n += count;
          }
          if (n === 0) return 0;
          await writer.commit();
          return n;
        } finally {
          await writer.discard();
        }
      },
    );
    if (written === undefined) return;
    if (written === 0) void vscode.window.showInformationMessage(t('The filter shows no rows; no file was written.'));
    else void vscode.window.showInformationMessage(t('Exported {0} rows to {1}.', count(written), fileLabel(target)));
  } catch (error) {
    o.log.error(
      `Data browser export to ${target.fsPath} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    void vscode.window.showErrorMessage(
      t('The rows could not be exported to {0}; nothing was written there. See the Scrapedeck log.', fileLabel(target)),
    );
  }
}
