/**
 * Browse Data and Browse This Run's Data: a task's rows (or one run's) at the service, in a
 * browser panel. The first page is read before the panel opens (so a refusal is said, with its
 * request id, and a task's first rows show at once); the rest stream in at the rate bound, with
 * Stop. These panels belong to the account they were read with: all are closed when it changes
 * (Switch Account, sign-out), and a task's when its data is removed.
 */
import * as path from 'node:path';

import * as vscode from 'vscode';

import type { DataBatch } from '../../../api/ops/dataReader';
import type { TaskRef } from '../../../api/taskRef';
import { plainText } from '../../../platform/plainText';
import type { DataFlowDeps } from '../../common/dataDeps';
import { spoolPages } from '../store/rowSources';
import { removeOldSpools, RowSpool } from '../store/rowSpool';
import { RowStore } from '../store/rowStore';
import { attachBrowser, type BrowserDeps } from './panel';
import type { OpenSource } from './sources';

const t = vscode.l10n.t;

export const BROWSE_PANEL_TYPE = 'scrapedeck.dataBrowserPanel';

export type BrowseOutcome = 'shown' | 'signed-out' | 'failed';

export interface BrowseReply {
  outcome: BrowseOutcome;
  /** Rows shown at once (the first page) and the columns they have. */
  rows?: number;
  total?: number;
  columns?: string[];
  title?: string;
}

export class TaskBrowsers implements vscode.Disposable {
  private readonly open = new Map<vscode.Disposable, string>();

  constructor(
    private readonly deps: DataFlowDeps,
    private readonly browser: BrowserDeps,
    private readonly spoolDir: string,
  ) {}

  async browse(task: TaskRef, lotNo?: string): Promise<BrowseReply> {
    const client = this.deps.account.getClient();
    if (client === undefined) {
      void this.deps.ui.showInformationMessage(
        t('Sign in to Scrapedeck to browse the data of “{0}”.', plainText(task.taskName)),
      );
      return { outcome: 'signed-out' };
    }
    const abort = new AbortController();
    const changed = this.deps.account.onDidChange(() => abort.abort());
    let spool: RowSpool | undefined;
    try {
      await removeOldSpools(this.spoolDir);
      spool = await RowSpool.create(this.spoolDir);
      const reader = client.readData(task.taskId, { signal: abort.signal, ...(lotNo !== undefined ? { lotNo } : {}) });
      const pages = reader[Symbol.asyncIterator]();
      const first = await pages.next();
      let total = 0;
      if (!first.done) {
        total = first.value.total;
        await spool.append(first.value.rows);
      }
      const title =
        lotNo === undefined
          ? t('Data of “{0}”', plainText(task.taskName))
          : t('Data of run {0} of “{1}”', lotNo, plainText(task.taskName));
      const reply: BrowseReply = {
        outcome: 'shown',
        rows: spool.count,
        total,
        columns: [...spool.file.columns],
        title,
      };
      this.show(title, task.taskId, spool, first.done === true ? undefined : pages, abort, changed);
      return reply;
    } catch (error) {
      changed.dispose();
      await spool?.close();
      if (abort.signal.aborted) return { outcome: 'signed-out' };
      void this.deps.reporter.report(error, 'browseData', task.taskName);
      return { outcome: 'failed' };
    }
  }

  private show(
    title: string,
    taskId: string,
    spool: RowSpool,
    rest: AsyncIterator<DataBatch> | undefined,
    abort: AbortController,
    changed: vscode.Disposable,
  ): void {
    const store = new RowStore(spool.file);
    const source: OpenSource = {
      store,
      async load(session) {
        try {
          const result =
            rest === undefined
              ? { total: spool.count }
              : await spoolPages(
                  spool,
                  { [Symbol.asyncIterator]: () => rest },
                  { signal: abort.signal, onProgress: (p) => session.progress({ loaded: p.loaded, total: p.total }) },
                );
          session.progress({ state: 'done', total: result.total });
        } catch (error) {
          if (abort.signal.aborted)
            session.progress({ state: 'stopped', message: t('Stopped: the rows loaded so far are shown.') });
          else
            session.progress({
              state: 'failed',
              message: t(
                'Loading stopped: {0}',
                (error instanceof Error ? error.message : String(error)).slice(0, 300),
              ),
            });
        }
      },
      stop: () => abort.abort(),
      close: async () => {
        abort.abort();
        changed.dispose();
        await spool.close();
      },
    };
    const panel = vscode.window.createWebviewPanel(BROWSE_PANEL_TYPE, title, vscode.ViewColumn.Active, {});
    const handle = attachBrowser(panel, source, { title, deps: this.browser });
    this.open.set(handle, taskId);
    panel.onDidDispose(() => this.open.delete(handle));
  }

  /** Closes every panel (the account changed). */
  closeAll(): void {
    for (const handle of [...this.open.keys()]) handle.dispose();
  }

  /** Closes a task's panels (its data was removed). */
  closeTask(taskId: string): void {
    for (const [handle, id] of [...this.open]) if (id === taskId) handle.dispose();
  }

  dispose(): void {
    this.closeAll();
  }
}

/** Where spools live: the extension's global storage (private to this user), a folder of its own. */
export const spoolDirOf = (storage: vscode.Uri): string => path.join(storage.fsPath, 'browse');
