/**
 * Open With… → Scrapedeck Data Browser, for .csv, .jsonl, .json, .sqlite and .db files on this
 * machine (offered as an option, never the default editor). A file is read where it lies,
 * streamed and indexed; a database's table (chosen when it has several) is read read-only.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { plainText } from '../../../platform/plainText';
import { sqliteTables } from '../store/rowSources';
import { attachBrowser, type BrowserDeps } from './panel';
import { browseFormatOf, openRowFile, openSqliteTable, type OpenSource } from './sources';

const t = vscode.l10n.t;

export const DATA_BROWSER_VIEW_TYPE = 'scrapedeck.dataBrowser';

export class DataBrowserEditor implements vscode.CustomReadonlyEditorProvider {
  constructor(
    private readonly deps: BrowserDeps,
    private readonly spoolDir: string,
  ) {}

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  async resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): Promise<void> {
    const uri = document.uri;
    const name = path.basename(uri.path);
    const refuse = (message: string): void => {
      void vscode.window.showErrorMessage(message);
      panel.dispose();
    };
    const format = browseFormatOf(uri.path);
    if (uri.scheme !== 'file' || format === undefined) return refuse(t('Scrapedeck\'s data browser opens .csv, .jsonl, .json, .sqlite and .db files on this machine; {0} is not one.', plainText(name)));
    let source: OpenSource;
    let title = name;
    try {
      if (format === 'sqlite') {
        const tables = sqliteTables(this.deps.wasmDir, uri.fsPath);
        if (tables.length === 0) return refuse(t('{0} has no table to browse.', plainText(name)));
        const table = tables.length === 1 ? tables[0] : await vscode.window.showQuickPick(tables, { title: t('Which table of {0}?', plainText(name)) });
        if (table === undefined) return panel.dispose();
        title = `${name} · ${table}`;
        source = await openSqliteTable({ file: uri.fsPath, table, wasmDir: this.deps.wasmDir, spoolDir: this.spoolDir });
      } else source = await openRowFile(uri.fsPath, format);
    } catch (error) {
      this.deps.log.warn(`The data browser could not open ${uri.fsPath}: ${error instanceof Error ? error.message : String(error)}`);
      return refuse(t('Scrapedeck could not open {0}: {1}', plainText(name), openFailure(error)));
    }
    attachBrowser(panel, source, { title, deps: this.deps, watchFile: uri.fsPath });
  }
}

/** One sentence for why a file could not be opened (never a stack). */
function openFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/beside it/.test(message)) return t('another program is writing it (it has a journal or write-ahead log beside it); close that program first.');
  if (/not a database|malformed|file is encrypted/i.test(message)) return t('it is not a SQLite database, or it is damaged.');
  if (/locked|busy/i.test(message)) return t('the database is locked by another program.');
  if (/ELOOP|EACCES|EPERM/.test((error as NodeJS.ErrnoException).code ?? '')) return t('it cannot be read (no permission, or it is a link).');
  return plainText(message, 200);
}
