/**
 * A PostgreSQL connection as a Pull New Rows destination: named by a `scrapedeck-postgres:` URI
 * holding only the connection's id (what a workspace may remember for a task); the server, user
 * and password are the user's (`postgres/connectionStore.ts`), looked up at each pull, so a
 * workspace cannot name or change the server.
 */
import * as vscode from 'vscode';

import type { TaskRef } from '../../api/taskRef';
import { connectionLabel, type PgConnectionStore, type SavedConnection } from '../postgres/connectionStore';
import { PostgresPullSink } from './postgresSink';

const t = vscode.l10n.t;

export const PG_SCHEME = 'scrapedeck-postgres';

export function pgTargetUri(c: SavedConnection): vscode.Uri {
  return vscode.Uri.from({ scheme: PG_SCHEME, path: `/${c.id}` });
}

/** The saved connection a target URI names, if it is one and still saved. */
export function pgConnectionOf(uri: vscode.Uri, store: PgConnectionStore | undefined): SavedConnection | undefined {
  return uri.scheme === PG_SCHEME ? store?.find(uri.path.slice(1)) : undefined;
}

/** How the destination is named in messages. */
export function pgTargetLabel(c: SavedConnection): string {
  return t('PostgreSQL {0}', connectionLabel(c));
}

/** The picker's items, one per saved connection. */
export function pgTargetItems(
  store: PgConnectionStore | undefined,
): { label: string; description: string; uri: vscode.Uri }[] {
  return (store?.list() ?? []).map((c) => ({
    label: `$(server) ${connectionLabel(c)}`,
    description: t('PostgreSQL: the rows go to this task’s own table'),
    uri: pgTargetUri(c),
  })); // l10n-exempt: icon name
}

export class MissingPasswordError extends Error {
  override readonly name = 'MissingPasswordError';
}

export async function openPgSink(
  c: SavedConnection,
  store: PgConnectionStore,
  task: TaskRef,
): Promise<PostgresPullSink> {
  const password = await store.password(c.id);
  if (password === undefined)
    throw new MissingPasswordError(
      t(
        'The password of {0} is not in VS Code’s secret storage any more: remove the connection and add it again.',
        connectionLabel(c),
      ),
    );
  return PostgresPullSink.open({ taskId: task.taskId, taskName: task.taskName, connection: c, password });
}
