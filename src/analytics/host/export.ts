/**
 * Writes an analytics export where the user chooses. The host holds the rows (by result id); the
 * extension owns the file system (a webview cannot write files, and should not).
 */
import * as os from 'node:os';

import * as vscode from 'vscode';

import { ApiError } from '../../api/errors/errors';
import { writeWholeFile } from '../../platform/files/atomicFile';
import { UnsafeFileError } from '../../platform/files/safeFiles';
import type { Ui } from '../../platform/ui';
import { formatInt } from '../model/format';
import {
  defaultExportFileName,
  EXPORT_FILTERS,
  type ExportedRows,
  type ExportFormat,
  isPartial,
  serialiseExport,
} from './exportFormat';

/**
 * The saved file's path, or undefined when the user dismissed the save dialog. `stillHeld` is asked
 * after the dialog: an account change while it was open means these rows are no longer the
 * user's to write, so nothing is written.
 */
export async function exportAnalytics(
  ui: Ui,
  format: ExportFormat,
  rows: ExportedRows,
  stillHeld: () => boolean = () => true,
): Promise<string | undefined> {
  const name = defaultExportFileName(rows, format);
  // Suggest the first workspace folder (where the user is working), else the home folder.
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
  const n = rows.records.length;
  const kind = format.toUpperCase();
  const title = isPartial(rows)
    ? vscode.l10n.t('Export the first {0} of {1} analytics rows as {2}', formatInt(n), formatInt(rows.total), kind)
    : n === 1
      ? vscode.l10n.t('Export 1 analytics row as {0}', kind)
      : vscode.l10n.t('Export {0} analytics rows as {1}', formatInt(n), kind);
  const target = await ui.showSaveDialog({
    defaultUri: vscode.Uri.joinPath(folder, name),
    filters: exportFilters(format),
    saveLabel: vscode.l10n.t('Export'),
    title,
  });
  if (!target) return undefined;
  if (!stillHeld())
    throw new ApiError({
      kind: 'not-found',
      message: vscode.l10n.t(
        "The account changed while the save dialog was open, so nothing was written. Run the query again to export this account's rows.",
      ),
    });
  await writeExport(target, serialiseExport(format, rows, new Date()));
  // Not awaited: the page hears "exported" at once; the notification waits for the user.
  void offerExported(ui, target, n);
  return target.scheme === 'file' ? target.fsPath : target.toString(true);
}

/**
 * A file on this machine is written as every Scrapedeck file is: never through a symbolic link,
 * inside the workspace folder it lies in (no link on the way down), by a temporary file renamed
 * when whole. Other schemes (a remote or virtual file system) go through VS Code's file system.
 */
async function writeExport(target: vscode.Uri, data: Uint8Array): Promise<void> {
  if (target.scheme !== 'file') {
    await vscode.workspace.fs.writeFile(target, data);
    return;
  }
  try {
    await writeWholeFile(target.fsPath, data, vscode.workspace.getWorkspaceFolder(target)?.uri.fsPath);
  } catch (error) {
    if (!(error instanceof UnsafeFileError)) throw error;
    const name = target.path.slice(target.path.lastIndexOf('/') + 1);
    throw new Error(
      error.reason === 'outside'
        ? vscode.l10n.t(
            'Nothing was exported to {0}: a folder on the way to it is a symbolic link, so the file would be outside the workspace folder.',
            name,
          )
        : vscode.l10n.t(
            'Nothing was exported to {0}: it is a symbolic link or not a regular file, and Scrapedeck never writes through a link.',
            name,
          ),
    );
  }
}

/** The save dialog's file types; only the words are translated, the extensions stay. */
function exportFilters(format: ExportFormat): Record<string, string[]> {
  const [extensions] = Object.values(EXPORT_FILTERS[format]);
  return { [format === 'csv' ? vscode.l10n.t('CSV (comma-separated values)') : 'JSON']: extensions ?? [format] };
}

/**
 * The export's last step: a notification naming the file, with Open (in an editor) and Reveal (in
 * the system's file manager; only for files on disk). Resolves with the action taken.
 */
export async function offerExported(
  ui: Pick<Ui, 'showInformationMessage'>,
  target: vscode.Uri,
  rows: number,
): Promise<'open' | 'reveal' | undefined> {
  const open = vscode.l10n.t('Open');
  const reveal = vscode.l10n.t('Reveal');
  const name = target.path.slice(target.path.lastIndexOf('/') + 1);
  const message =
    rows === 1
      ? vscode.l10n.t('Exported 1 analytics row to {0}.', name)
      : vscode.l10n.t('Exported {0} analytics rows to {1}.', formatInt(rows), name);
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
