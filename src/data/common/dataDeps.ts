/**
 * What the data flows need, and the task they act on. The flows get the shared Ui (tests replace
 * its answers), the account (client, who is signed in, its changes) and the window's reporter.
 */
import type * as vscode from 'vscode';

import type { ClientHolder } from '../../account/clientHolder';
import type { KnownNames } from '../../api/taskNames';
import type { TaskRef } from '../../api/taskRef';
import type { TempLedger } from '../../platform/files/tempLedger';
import type { Reporter } from '../../platform/reporter';
import type { Ui } from '../../platform/ui';
import type { Namesake } from '../formats/rowFormats';

export interface DataFlowDeps {
  account: Pick<ClientHolder, 'account' | 'getClient' | 'onDidChange'>;
  ui: Ui;
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn' | 'error' | 'show'>;
  reporter: Pick<Reporter, 'report'>;
  /** Task names this account's Tasks view has read from the service (a confirmation's first source). */
  knownTaskNames?: KnownNames;
  /** How the task is told apart from other tasks of its name (`rowFormats.ts`), or undefined when its name is its own. */
  namesakes?: (task: TaskRef) => Namesake | undefined;
  /** Exports stopped by a failure that still hold a temporary file (offered Resume); discarded when the window closes. */
  openJobs?: Set<{ discard(): Promise<void> }>;
  /** Where node-sqlite3-wasm's files are (the extension's `dist/`). */
  sqliteDir?: string;
  /** Where an export notes its temporary files (the extension's own storage, `platform/files/tempLedger.ts`). */
  tempLedger?: TempLedger;
  /** The extension's own folder for an SQLite pull's log, journal and lock (never in a workspace). */
  sqliteLogDir?: string;
  /** A task's data was removed: what shows its row counts (the run state) asks again. */
  onDataRemoved?: (taskId: string) => void;
}
