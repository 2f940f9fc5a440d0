/**
 * Open With… → Scrapedeck Data Browser, for .csv, .jsonl, .json, .sqlite and .db files on this
 * machine (offered as an option, never the default editor). A file is read where it lies,
 * streamed and indexed; a database's table (the one just written, the task's, the only one, or
 * the one picked) is read read-only in the SQLite worker.
 */
import * as path from 'node:path';

import * as vscode from 'vscode';

import { plainText } from '../../../platform/plainText';
import { type BrowseHint, takeBrowseHint } from '../../common/feedback';
import { SqliteReadError } from '../../sqlite/sqliteReader';
import { SqliteTimeLimitError } from '../../sqlite/sqliteThread';
import { attachBrowser, type BrowserDeps } from './panel';
import { browseFormatOf, openRowFile, type OpenSource, openSqliteTable } from './sources';

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
    if (uri.scheme !== 'file' || format === undefined)
      return refuse(
        t(
          "Scrapedeck's data browser opens .csv, .jsonl, .json, .sqlite and .db files on this machine; {0} is not one.",
          plainText(name),
        ),
      );
    let source: OpenSource;
    let title = name;
    try {
      if (format === 'sqlite') {
        const hint = takeBrowseHint(uri.fsPath);
        const opened = await openSqliteTable(uri.fsPath, {
          wasmDir: this.deps.wasmDir,
          choose: (tables, taskTables) => pickTable(name, tables, taskTables, hint),
        });
        if (opened === undefined) return panel.dispose();
        source = opened.source;
        title = `${name} · ${opened.table}`;
      } else source = await openRowFile(uri.fsPath, format);
    } catch (error) {
      this.deps.log.warn(
        `The data browser could not open ${uri.fsPath}: ${error instanceof Error ? error.message : String(error)}`,
      );
      return refuse(t('Scrapedeck could not open {0}: {1}', plainText(name), openFailure(error)));
    }
    attachBrowser(panel, source, { title, deps: this.deps, watchFile: uri.fsPath });
  }
}

/** The table a hint names, the only one, or the one the user picks (the first offered first). */
async function pickTable(
  name: string,
  tables: readonly string[],
  taskTables: Readonly<Record<string, string>>,
  hint: BrowseHint | undefined,
): Promise<string | undefined> {
  const hinted = hint?.table ?? (hint?.taskId !== undefined ? taskTables[hint.taskId] : undefined);
  if (hinted !== undefined && tables.includes(hinted)) return hinted;
  if (tables.length === 1) return tables[0];
  const picked = await vscode.window.showQuickPick(
    tables.map((table) => ({ label: plainText(table, 200), table })),
    {
      title: t('Which table of {0}?', plainText(name)),
      placeHolder: t('The table to browse ({0} in the file)', tables.length),
    },
  );
  return picked?.table;
}

/** One sentence for why a file could not be opened (never a stack). */
function openFailure(error: unknown): string {
  if (error instanceof SqliteTimeLimitError)
    return t('one step of SQLite took longer than {0} seconds and was stopped.', error.seconds);
  if (error instanceof SqliteReadError) {
    switch (error.problem) {
      case 'not-sqlite':
        return t('it is not a SQLite database, or it is damaged.');
      case 'damaged':
        return t('it is not a SQLite database, or it is damaged.');
      case 'in-use':
        return t(
          'another program is writing it (it has a journal or write-ahead log beside it); close that program first.',
        );
      case 'locked':
        return t('the database is locked by another program.');
      case 'no-table':
        return t('it has no table to browse.');
    }
  }
  const message = error instanceof Error ? error.message : String(error);
  if (/beside it/.test(message))
    return t(
      'another program is writing it (it has a journal or write-ahead log beside it); close that program first.',
    );
  if (/not a database|malformed|file is encrypted/i.test(message))
    return t('it is not a SQLite database, or it is damaged.');
  if (/locked|busy/i.test(message)) return t('the database is locked by another program.');
  if (/ELOOP|EACCES|EPERM/.test((error as NodeJS.ErrnoException).code ?? ''))
    return t('it cannot be read (no permission, or it is a link).');
  return plainText(message, 200);
}
