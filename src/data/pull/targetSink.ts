/**
 * Opening a pull's destination, shared by Pull New Rows (`pullFlow.ts`) and Keep in Sync
 * (`../sync/`): a PostgreSQL connection's sink, or a file's (CSV, JSON Lines, SQLite), each
 * checked again at every pull (a remembered file may have become a link since).
 */
import * as vscode from 'vscode';

import type { TaskRef } from '../../api/taskRef';
import { fileLabel } from '../common/feedback';
import type { PgConnectionStore } from '../postgres/connectionStore';
import { markMade } from './ownFiles';
import { openPgSink, pgConnectionOf, pgTargetLabel } from './postgresTarget';
import type { PullSink } from './pullRows';
import { openPullSink } from './pullSinks';
import type { AppendTarget } from './targetPicker';

export interface TargetSinkContext {
  pgStore?: PgConnectionStore;
  /** The folder keeping this account's pull records (`pullJournal.ts`). */
  records: string;
  trusted: boolean;
  sqliteDir?: string;
  sqliteLogDir?: string;
}

/** `isNew`: the file does not exist yet (a database made as it is opened is noted as made by a pull). */
export async function openTargetSink(
  target: AppendTarget,
  task: TaskRef,
  isNew: boolean,
  c: TargetSinkContext,
): Promise<PullSink> {
  const server = pgConnectionOf(target.uri, c.pgStore);
  if (server !== undefined && c.pgStore !== undefined) return openPgSink(server, c.pgStore, task);
  const sink = await openPullSink(target.uri.fsPath, target.format === 'postgres' ? 'sqlite' : target.format, {
    taskId: task.taskId,
    taskName: task.taskName,
    root: vscode.workspace.getWorkspaceFolder(target.uri)?.uri.fsPath,
    wasmDir: c.sqliteDir ?? '',
    records: c.records,
    trusted: c.trusted,
    onCreate: (file) => markMade(c.records, file),
    logDir: c.sqliteLogDir,
  });
  // A database is made as it is opened.
  if (isNew && target.format === 'sqlite') await markMade(c.records, target.uri.fsPath);
  return sink;
}

/** A file by its path in the workspace; a PostgreSQL connection by its user, server, database and schema. */
export function destinationLabel(uri: vscode.Uri, pgStore: PgConnectionStore | undefined): string {
  const server = pgConnectionOf(uri, pgStore);
  return server === undefined ? fileLabel(uri) : pgTargetLabel(server);
}
