/**
 * Preview Data: the first 1,000 rows of a task as a Markdown table in a read-only document,
 * shown through VS Code's Markdown preview. Chosen over a webview: the table renders, follows
 * the theme and is searchable with no page of ours (no CSP, messages or state to keep), and the
 * document itself is plain text a user can copy from. The columns are the field names the task's
 * rows really have, in the order first seen.
 */
import * as vscode from 'vscode';
import type { DataRow } from '../../api/dataSchemas';
import type { DataFlowDeps } from '../common/dataDeps';
import type { TaskRef } from '../../api/taskRef';
import { count, isCancel, jobSignal } from '../common/feedback';
import type { PreviewDocs } from './previewDocs';
import { PREVIEW_ROWS, columnsOf, previewMarkdown } from './previewTable';
import { accountKey } from '../pull/rememberedTargets';
import { plainText } from '../../platform/plainText';

const t = vscode.l10n.t;

export type PreviewOutcome = 'shown' | 'signed-out' | 'cancelled' | 'failed';

export interface PreviewReply {
  outcome: PreviewOutcome;
  uri?: vscode.Uri;
  rows?: number;
  columns?: string[];
}

interface DataReads {
  getData(taskId: string, page: { offset: number; size: number }, o?: { signal?: AbortSignal }): Promise<{ data: { offset: number; total: number; restTotal: number; data: DataRow[] } }>;
}

/** Up to `limit` rows from the first, and the task's row count. */
export async function firstRows(client: DataReads, taskId: string, limit: number, signal?: AbortSignal): Promise<{ rows: DataRow[]; total: number }> {
  const rows: DataRow[] = [];
  let offset = 0;
  let total = 0;
  for (;;) {
    const page = (await client.getData(taskId, { offset, size: Math.min(1000, limit - rows.length) }, { signal })).data;
    total = page.total;
    rows.push(...page.data);
    if (page.restTotal === 0 || rows.length >= limit || page.offset <= offset) return { rows: rows.slice(0, limit), total };
    offset = page.offset;
  }
}

export async function previewData(task: TaskRef, deps: DataFlowDeps, docs: PreviewDocs): Promise<PreviewReply> {
  const account = deps.account.account;
  const client = deps.account.getClient();
  if (account === undefined || client === undefined) {
    void deps.ui.showInformationMessage(t('Sign in to Scrapedeck to preview the data of “{0}”.', plainText(task.taskName)));
    return { outcome: 'signed-out' };
  }
  try {
    const { rows, total } = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: t('Loading a preview of “{0}”…', plainText(task.taskName)), cancellable: true },
      async (_progress, token) => {
        const scope = jobSignal(token, deps.account.onDidChange);
        try {
          return await firstRows(client, task.taskId, PREVIEW_ROWS, scope.signal);
        } finally {
          scope.dispose();
        }
      },
    );
    const columns = columnsOf(rows);
    const loaded = new Date().toLocaleString(vscode.env.language);
    const columnsText = columns.length === 1 ? t('1 column') : t('{0} columns', count(columns.length));
    const summary =
      rows.length < total
        ? t('The first {0} of {1} rows · {2} · loaded {3}', count(rows.length), count(total), columnsText, loaded)
        : rows.length === 1
          ? t('1 row · {0} · loaded {1}', columnsText, loaded)
          : t('All {0} rows · {1} · loaded {2}', count(rows.length), columnsText, loaded);
    const markdown = previewMarkdown(rows, { title: t('Data of “{0}”', plainText(task.taskName)), summary, empty: t('“{0}” has no rows yet.', plainText(task.taskName)) });
    const uri = docs.uriFor(accountKey(account), task);
    docs.set(uri, markdown);
    await show(uri);
    await docs.track(uri);
    return { outcome: 'shown', uri, rows: rows.length, columns };
  } catch (error) {
    if (isCancel(error)) return { outcome: 'cancelled' };
    void deps.reporter.report(error, 'previewData', task.taskName);
    return { outcome: 'failed' };
  }
}

/** The rendered table; the Markdown source if the Markdown preview is not available. */
async function show(uri: vscode.Uri): Promise<void> {
  try {
    await vscode.commands.executeCommand('markdown.showPreview', uri);
  } catch {
    await vscode.window.showTextDocument(uri, { preview: true });
  }
}
