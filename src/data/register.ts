/**
 * The data feature's parts, built once by extension.ts: the preview documents' provider, the
 * remembered Pull New Rows files, pulls under way, and exports waiting for Resume. Registers no
 * command (`commands/data.ts` does); everything goes into `context.subscriptions`.
 *
 *   const data = registerData(context, { account, ui, log, reporter });
 *   await data.export(task);   // export | pull | preview | remove, each resolves to its outcome
 */
import * as vscode from 'vscode';
import type { Registrar } from '../platform/registrar';
import type { DataDeps, TaskRef } from './dataDeps';
import { exportData, type ExportReply } from './exportFlow';
import type { RowSource } from './exportRows';
import { PREVIEW_SCHEME, PreviewDocs } from './previewDocs';
import { previewData, type PreviewReply } from './previewFlow';
import { pullData, type PullReply } from './pullFlow';
import { PullTargets } from './pullTargets';
import { removeData, type RemoveOutcome } from './removeFlow';

export interface DataRegistry {
  /** `source`: one run's rows by its lot, or all rows (the default). */
  export(task: TaskRef, source?: RowSource): Promise<ExportReply>;
  /** `chooseFile`: ask for the file even if one is remembered for the task. */
  pull(task: TaskRef, chooseFile?: boolean): Promise<PullReply>;
  preview(task: TaskRef): Promise<PreviewReply>;
  remove(task: TaskRef): Promise<RemoveOutcome>;
}

/** `registrar`: the activation shell's (platform/registrar.ts); the preview scheme's proxy is registered at activation. */
export function registerData(context: vscode.ExtensionContext, base: DataDeps, registrar: Pick<Registrar, 'registerTextDocumentContentProvider'>): DataRegistry {
  const openJobs = new Set<{ discard(): Promise<void> }>();
  const deps: DataDeps = { ...base, openJobs, sqliteDir: base.sqliteDir ?? vscode.Uri.joinPath(context.extensionUri, 'dist').fsPath };
  const docs = new PreviewDocs();
  const targets = new PullTargets(context.workspaceState, (m) => deps.log.warn(m));
  const busy = new Set<string>();
  context.subscriptions.push(
    docs,
    registrar.registerTextDocumentContentProvider(PREVIEW_SCHEME, docs),
    // Account boundary: previews are dropped (remembered files are keyed by account instead).
    deps.account.onDidChange(() => docs.clear()),
    { dispose: () => void Promise.all([...openJobs].map((j) => j.discard())) },
  );
  return {
    export: (task, source) => exportData(task, deps, source),
    pull: (task, chooseFile = false) => pullData(task, { ...deps, targets, busy }, chooseFile),
    preview: (task) => previewData(task, deps, docs),
    remove: (task) => removeData(task, deps, docs),
  };
}
