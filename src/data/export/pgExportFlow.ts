/**
 * Export Data… into PostgreSQL: when the user has added connections, Export Data offers them
 * before the save dialog; the rows (all of the task's, or one run's) go through the export writer
 * (`postgres/pgExport.ts`) into a new table of the connection's schema, in one transaction, under
 * a progress notification with Cancel. A failure or a cancel rolls back: no table is left. Refused
 * in Restricted Mode, like every other way to a server.
 */
import * as vscode from 'vscode';

import { isApiError } from '../../api/errors/errors';
import type { TaskRef } from '../../api/taskRef';
import { plainText } from '../../platform/plainText';
import type { DataFlowDeps } from '../common/dataDeps';
import { count, isCancel, jobSignal, withAdvice } from '../common/feedback';
import { connectionLabel, type PgConnectionStore, type SavedConnection } from '../postgres/connectionStore';
import { serverMessage } from '../postgres/pgConnection';
import { PgExportWriter } from '../postgres/pgExport';
import { pgFailureText } from '../postgres/pgFailureText';
import { refusedInRestrictedMode } from '../postgres/restrictedMode';
import type { RowSource } from './exportRows';

const t = vscode.l10n.t;

export interface PgExportDeps extends DataFlowDeps {
  /** The user's PostgreSQL connections; none: Export Data goes straight to its save dialog. */
  pgStore?: PgConnectionStore;
}

/**
 * A file (undefined: the save dialog, as without connections), a connection, or 'declined'.
 * Asked only when the user has connections and the workspace is trusted.
 */
export async function chooseExportDestination(
  task: TaskRef,
  deps: PgExportDeps,
): Promise<SavedConnection | 'declined' | undefined> {
  const servers = deps.pgStore?.list() ?? [];
  if (servers.length === 0 || !deps.ui.isWorkspaceTrusted()) return undefined;
  const items: (vscode.QuickPickItem & { server?: SavedConnection })[] = [
    { label: `$(new-file) ${t('A File…')}`, description: t('CSV, JSON Lines, JSON, Excel or SQLite') }, // l10n-exempt: icon name
    ...servers.map((server) => ({
      label: `$(server) ${connectionLabel(server)}`,
      description: t('PostgreSQL: a new table of the rows'),
      server,
    })), // l10n-exempt: icon name
  ];
  const picked = await deps.ui.showQuickPick(items, {
    title: t('Export the Data of “{0}”', plainText(task.taskName)),
    placeHolder: t('A file, or one of your PostgreSQL connections'),
  });
  if (picked === undefined) return 'declined';
  return picked.server;
}

export interface PgExportReply {
  outcome: 'exported' | 'declined' | 'cancelled' | 'failed';
  rows?: number;
  table?: string;
}

export async function exportToPostgres(
  task: TaskRef,
  server: SavedConnection,
  deps: PgExportDeps,
  source: RowSource,
): Promise<PgExportReply> {
  const { ui } = deps;
  if (refusedInRestrictedMode(ui) || deps.pgStore === undefined) return { outcome: 'declined' };
  const client = deps.account.getClient();
  if (client === undefined) return { outcome: 'declined' };
  const where = t('PostgreSQL {0}', connectionLabel(server));
  const password = await deps.pgStore.password(server.id);
  if (password === undefined) {
    void ui.showErrorMessage(
      t(
        'The password of {0} is not in VS Code’s secret storage any more: remove the connection and add it again.',
        connectionLabel(server),
      ),
    );
    return { outcome: 'failed' };
  }
  const lot = source.kind === 'lot' ? source.lotNo : undefined;
  let writer: PgExportWriter;
  try {
    writer = await PgExportWriter.create({
      connection: server,
      password,
      taskId: task.taskId,
      taskName: task.taskName,
      lot,
    });
  } catch (error) {
    deps.log.warn(`Could not open ${where} to export task ${task.taskId}: ${serverMessage(error)}`);
    void ui.showErrorMessage(`${pgFailureText(error, server, t)} ${t('Nothing was written to {0}.', where)}`);
    return { outcome: 'failed' };
  }
  let rows = 0;
  try {
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: t('Exporting the data of “{0}”', plainText(task.taskName)),
        cancellable: true,
      },
      async (progress, token) => {
        const scope = jobSignal(token, deps.account.onDidChange);
        try {
          for await (const page of client.readData(task.taskId, {
            signal: scope.signal,
            ...(lot === undefined ? {} : { lotNo: lot }),
          })) {
            const pageRows = page.rows.length; // read first: the writer may empty the page it is handed
            await writer.write(page.rows);
            rows += pageRows;
            progress.report({ message: t('{0} of {1} rows', count(rows), count(page.total)) });
          }
          await writer.commit();
        } finally {
          scope.dispose();
        }
      },
    );
  } catch (error) {
    await writer.discard();
    if (isCancel(error)) {
      vscode.window.setStatusBarMessage(
        t('Export of “{0}” cancelled; nothing was written.', plainText(task.taskName)),
        5000,
      );
      return { outcome: 'cancelled' };
    }
    // The service's failures through the reporter (Sign In Again, request IDs); the server's in one sentence, its words in the log.
    if (isApiError(error))
      void deps.reporter.report(
        withAdvice(error, t('Nothing was written to {0}.', where)),
        'exportData',
        task.taskName,
      );
    else {
      deps.log.warn(`Exporting task ${task.taskId} to ${where} failed after ${rows} rows: ${serverMessage(error)}`);
      void ui.showErrorMessage(`${pgFailureText(error, server, t)} ${t('Nothing was written to {0}.', where)}`);
    }
    return { outcome: 'failed' };
  }
  const table = writer.tableName ?? '';
  deps.log.info(`Exported ${rows} rows of task ${task.taskId} to ${where} (table "${table}")`);
  void ui.showInformationMessage(
    t(
      'Exported {0} rows of “{1}” to {2}, into its new table “{3}”.',
      count(rows),
      plainText(task.taskName),
      where,
      plainText(table),
    ),
  );
  return { outcome: 'exported', rows, table };
}
