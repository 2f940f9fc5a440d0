/**
 * The data capability, built once by main.ts: the data browser (its custom editor for files and
 * its panels of a task's rows), the remembered Pull New Rows files, pulls under way, exports
 * waiting for Resume, and the data commands (`commands.ts`). Everything goes into
 * `context.subscriptions`.
 *
 *   const data = createData(context, { account, ui, log, reporter, lastRunLot, registrar });
 *   await data.export(task);   // export | pull | browse | remove, each resolves to its outcome
 */
import * as path from 'node:path';

import * as vscode from 'vscode';

import { type CommandSet, registerHandlers } from '../platform/commandHandlers';
import type { Registrar } from '../platform/registrar';
import { spoolDirOf, TaskBrowsers } from './browse/host/browsers';
import { DATA_BROWSER_VIEW_TYPE, DataBrowserEditor } from './browse/host/customEditor';
import { type DataCommandDeps, dataCommands } from './commands';
import type { DataFlowDeps } from './common/dataDeps';
import { exportData } from './export/exportFlow';
import { PgConnectionStore } from './postgres/connectionStore';
import { pullData, taskFields } from './pull/pullFlow';
import { accountKey, PullTargets } from './pull/rememberedTargets';
import type { DataRegistry } from './registry';
import { removeData } from './removeFlow';
import type { SyncDataParts } from './sync';

export interface DataCapability extends DataRegistry {
  readonly commands: CommandSet<keyof ReturnType<typeof dataCommands>>;
  /** The folder keeping the pull records of the account signed in now (tests look at it), or undefined when signed out. */
  pullRecords(): string | undefined;
  /** What Keep in Sync (`sync/`) shares with Pull New Rows: its pulls under way, records, connections and remembered files. */
  readonly syncParts: SyncDataParts;
}

export interface DataDeps extends DataFlowDeps, Pick<DataCommandDeps, 'lastRunLot'> {
  /** The activation shell's (platform/registrar.ts); the data browser's editor proxy is registered at activation. */
  registrar: Pick<Registrar, 'registerCustomEditorProvider' | 'registerCommand'>;
}

export function createData(context: vscode.ExtensionContext, deps: DataDeps): DataCapability {
  const { registrar, lastRunLot, ...base } = deps;
  const openJobs = new Set<{ discard(): Promise<void> }>();
  const flows: DataFlowDeps = {
    ...base,
    openJobs,
    sqliteDir: base.sqliteDir ?? vscode.Uri.joinPath(context.extensionUri, 'dist').fsPath,
    sqliteLogDir: base.sqliteLogDir ?? vscode.Uri.joinPath(context.globalStorageUri, 'sqlite').fsPath,
    // An export's notes of its temporary files: in the extension's own storage, never a workspace's.
    tempLedger: base.tempLedger ?? { folder: vscode.Uri.joinPath(context.globalStorageUri, 'export-temps').fsPath },
  };
  // Per VS Code user (global state and secret storage), never per workspace.
  const pgStore = new PgConnectionStore(context.globalState, context.secrets);
  const wasmDir = flows.sqliteDir ?? vscode.Uri.joinPath(context.extensionUri, 'dist').fsPath;
  const browserDeps = { extensionUri: context.extensionUri, log: flows.log, wasmDir };
  const spoolDir = spoolDirOf(context.globalStorageUri);
  const browsers = new TaskBrowsers(flows, browserDeps, spoolDir);
  const targets = new PullTargets(context.workspaceState, (m) => flows.log.warn(m));
  const busy = new Set<string>();
  // The pull's records, per account, in the extension's own storage: never where a repository can put them.
  const records = (key: string): string => path.join(context.globalStorageUri.fsPath, 'pull-records', key);
  context.subscriptions.push(
    browsers,
    registrar.registerCustomEditorProvider(DATA_BROWSER_VIEW_TYPE, new DataBrowserEditor(browserDeps)),
    // Account boundary: browsers of the service's rows are closed (remembered files are keyed by account instead).
    flows.account.onDidChange(() => browsers.closeAll()),
    { dispose: () => void Promise.all([...openJobs].map((j) => j.discard())) },
  );
  const data: DataRegistry = {
    export: (task, source) => exportData(task, { ...flows, pgStore }, source),
    pull: (task, chooseFile = false) => pullData(task, { ...flows, targets, busy, records, pgStore }, chooseFile),
    browse: (task, lotNo) => browsers.browse(task, lotNo),
    remove: (task) => removeData(task, flows, (taskId) => browsers.closeTask(taskId)),
  };
  const postgres = { store: pgStore, ui: flows.ui, log: flows.log };
  const commands = registerHandlers(
    context,
    registrar,
    dataCommands({ data, ui: flows.ui, log: flows.log, lastRunLot, postgres }),
  );
  const pullRecords = (): string | undefined => {
    const account = flows.account.account;
    return account === undefined ? undefined : records(accountKey(account));
  };
  const syncParts: SyncDataParts = {
    busy,
    records,
    pgStore,
    sqliteDir: flows.sqliteDir,
    sqliteLogDir: flows.sqliteLogDir,
    pullTargets: targets,
    fields: (task) => taskFields(task, flows),
    namesakes: flows.namesakes,
  };
  return { ...data, commands, pullRecords, syncParts };
}
