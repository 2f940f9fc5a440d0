/**
 * The data capability, built once by main.ts: the preview documents' provider, the remembered
 * Pull New Rows files, pulls under way, exports waiting for Resume, and the data commands
 * (`commands.ts`). Everything goes into `context.subscriptions`.
 *
 *   const data = createData(context, { account, ui, log, reporter, lastRunLot, registrar });
 *   await data.export(task);   // export | pull | preview | remove, each resolves to its outcome
 */
import * as vscode from 'vscode';
import { registerHandlers, type CommandSet } from '../platform/commandHandlers';
import type { Registrar } from '../platform/registrar';
import { dataCommands, type DataCommandDeps } from './commands';
import type { DataDeps } from './common/dataDeps';
import { exportData } from './export/exportFlow';
import { PREVIEW_SCHEME, PreviewDocs } from './preview/previewDocs';
import { previewData } from './preview/previewFlow';
import { pullData } from './pull/pullFlow';
import { PullTargets } from './pull/rememberedTargets';
import { removeData } from './removeFlow';
import { PgConnectionStore } from './postgres/connectionStore';
import type { DataRegistry } from './registry';

export interface DataCapability extends DataRegistry {
  readonly commands: CommandSet<keyof ReturnType<typeof dataCommands>>;
}

export interface CreateDataDeps extends DataDeps, Pick<DataCommandDeps, 'lastRunLot'> {
  /** The activation shell's (platform/registrar.ts); the preview scheme's proxy is registered at activation. */
  registrar: Pick<Registrar, 'registerTextDocumentContentProvider' | 'registerCommand'>;
}

export function createData(context: vscode.ExtensionContext, input: CreateDataDeps): DataCapability {
  const { registrar, lastRunLot, ...base } = input;
  const openJobs = new Set<{ discard(): Promise<void> }>();
  const deps: DataDeps = { ...base, openJobs, sqliteDir: base.sqliteDir ?? vscode.Uri.joinPath(context.extensionUri, 'dist').fsPath };
  // Per VS Code user (global state and secret storage), never per workspace.
  const pgStore = new PgConnectionStore(context.globalState, context.secrets);
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
  const data: DataRegistry = {
    export: (task, source) => exportData(task, { ...deps, pgStore }, source),
    pull: (task, chooseFile = false) => pullData(task, { ...deps, targets, busy, pgStore }, chooseFile),
    preview: (task) => previewData(task, deps, docs),
    remove: (task) => removeData(task, deps, docs),
  };
  const postgres = { store: pgStore, ui: deps.ui, log: deps.log };
  const commands = registerHandlers(context, registrar, dataCommands({ data, ui: deps.ui, log: deps.log, lastRunLot, postgres }));
  return { ...data, commands };
}
