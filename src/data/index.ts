/**
 * The data capability, built once by main.ts: the data browser (its custom editor for files and
 * its panels of a task's rows), the remembered Pull New Rows files, pulls under way, exports
 * waiting for Resume, and the data commands (`commands.ts`). Everything goes into
 * `context.subscriptions`.
 *
 *   const data = createData(context, { account, ui, log, reporter, lastRunLot, registrar });
 *   await data.export(task);   // export | pull | browse | remove, each resolves to its outcome
 */
import * as vscode from 'vscode';
import { registerHandlers, type CommandSet } from '../platform/commandHandlers';
import type { Registrar } from '../platform/registrar';
import { dataCommands, type DataCommandDeps } from './commands';
import type { DataDeps } from './common/dataDeps';
import { exportData } from './export/exportFlow';
import { TaskBrowsers, spoolDirOf } from './browse/host/browsers';
import { DATA_BROWSER_VIEW_TYPE, DataBrowserEditor } from './browse/host/customEditor';
import { pullData } from './pull/pullFlow';
import { PullTargets } from './pull/rememberedTargets';
import { removeData } from './removeFlow';
import type { DataRegistry } from './registry';

export interface DataCapability extends DataRegistry {
  readonly commands: CommandSet<keyof ReturnType<typeof dataCommands>>;
}

export interface CreateDataDeps extends DataDeps, Pick<DataCommandDeps, 'lastRunLot'> {
  /** The activation shell's (platform/registrar.ts); the data browser's editor proxy is registered at activation. */
  registrar: Pick<Registrar, 'registerCustomEditorProvider' | 'registerCommand'>;
}

export function createData(context: vscode.ExtensionContext, input: CreateDataDeps): DataCapability {
  const { registrar, lastRunLot, ...base } = input;
  const openJobs = new Set<{ discard(): Promise<void> }>();
  const deps: DataDeps = { ...base, openJobs, sqliteDir: base.sqliteDir ?? vscode.Uri.joinPath(context.extensionUri, 'dist').fsPath };
  const wasmDir = deps.sqliteDir ?? vscode.Uri.joinPath(context.extensionUri, 'dist').fsPath;
  const browserDeps = { extensionUri: context.extensionUri, log: deps.log, wasmDir };
  const spoolDir = spoolDirOf(context.globalStorageUri);
  const browsers = new TaskBrowsers(deps, browserDeps, spoolDir);
  const targets = new PullTargets(context.workspaceState, (m) => deps.log.warn(m));
  const busy = new Set<string>();
  context.subscriptions.push(
    browsers,
    registrar.registerCustomEditorProvider(DATA_BROWSER_VIEW_TYPE, new DataBrowserEditor(browserDeps, spoolDir)),
    // Account boundary: browsers of the service's rows are closed (remembered files are keyed by account instead).
    deps.account.onDidChange(() => browsers.closeAll()),
    { dispose: () => void Promise.all([...openJobs].map((j) => j.discard())) },
  );
  const data: DataRegistry = {
    export: (task, source) => exportData(task, deps, source),
    pull: (task, chooseFile = false) => pullData(task, { ...deps, targets, busy }, chooseFile),
    browse: (task, lotNo) => browsers.browse(task, lotNo),
    remove: (task) => removeData(task, deps, (taskId) => browsers.closeTask(taskId)),
  };
  const commands = registerHandlers(context, registrar, dataCommands({ data, ui: deps.ui, log: deps.log, lastRunLot }));
  return { ...data, commands };
}
