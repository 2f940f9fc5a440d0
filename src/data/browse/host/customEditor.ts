/**
 * Open With… → Scrapedeck Data Browser, for .csv, .jsonl and .json files on this
 * machine (offered as an option, never the default editor). A file is read where it lies,
 * streamed and indexed.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { plainText } from '../../../platform/plainText';
import { attachBrowser, type BrowserDeps } from './panel';
import { browseFormatOf, openRowFile, type OpenSource } from './sources';

const t = vscode.l10n.t;

export const DATA_BROWSER_VIEW_TYPE = 'scrapedeck.dataBrowser';

export class DataBrowserEditor implements vscode.CustomReadonlyEditorProvider {
  constructor(private readonly deps: BrowserDeps) {}

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
    if (uri.scheme !== 'file' || format === undefined) return refuse(t('Scrapedeck\'s data browser opens .csv, .jsonl and .json files on this machine; {0} is not one.', plainText(name)));
    let source: OpenSource;
    const title = name;
    try {
      source = await openRowFile(uri.fsPath, format);
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
