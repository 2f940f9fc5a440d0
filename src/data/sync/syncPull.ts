/**
 * Keep in sync's pull: the exactly-once pull of Pull New Rows (`../pull/pullRows.ts`, the same
 * sinks and the same busy keys, so a sync and a Pull New Rows of one task or into one destination
 * never run together), without asking anything: a quiet status line while it works, and the
 * outcome handed back (`SyncOutcome`), a failure as one sentence for the follower's one
 * notification. Called only in a trusted workspace (the follower checks).
 */
import * as vscode from 'vscode';

import type { ClientHolder } from '../../account/clientHolder';
import { errorMessage } from '../../api/errors/errors';
import type { TaskRef } from '../../api/taskRef';
import { UnsafeFileError } from '../../platform/files/safeFiles';
import { plainText } from '../../platform/plainText';
import { pullAdvice } from '../common/failureText';
import { count, fileLabel, isCancel, withAdvice } from '../common/feedback';
import type { PgConnectionStore } from '../postgres/connectionStore';
import { serverMessage } from '../postgres/pgConnection';
import { pgFailureText } from '../postgres/pgFailureText';
import { OtherTaskPendingError } from '../pull/fileSink';
import { exists, isMade, markMade } from '../pull/ownFiles';
import { PG_SCHEME, pgConnectionOf } from '../pull/postgresTarget';
import { DamagedJournalError } from '../pull/pullJournal';
import { PullFailure, pullNewRows, type PullSink } from '../pull/pullRows';
import { refusalText } from '../pull/refusals';
import { accountKey } from '../pull/rememberedTargets';
import { appendFormatOf, type AppendTarget, targetProblem } from '../pull/targetPicker';
import { destinationLabel, openTargetSink } from '../pull/targetSink';
import { UnusableFileError } from '../pull/unusableFile';
import type { SyncOutcome } from './syncFollower';
import type { Follow } from './syncTargets';

const t = vscode.l10n.t;

export interface SyncPullDeps {
  account: Pick<ClientHolder, 'account' | 'getClient' | 'onDidChange'>;
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>;
  /** Pulls under way (shared with Pull New Rows): by account key and task id, and by destination. */
  busy: Set<string>;
  records: (accountKey: string) => string;
  pgStore: PgConnectionStore;
  sqliteDir?: string;
  sqliteLogDir?: string;
  /** Aborted when the window closes. */
  closing: AbortSignal;
}

/** The follow's destination, or the sentence saying why it can no longer take rows. */
export function followTarget(follow: Follow, pgStore: PgConnectionStore): AppendTarget | { problem: string } {
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(follow.target, true);
  } catch {
    return { problem: t('The destination kept in sync could not be read: choose it again with Keep in Sync….') };
  }
  if (uri.scheme === PG_SCHEME) {
    return pgConnectionOf(uri, pgStore) === undefined
      ? { problem: t('Its PostgreSQL connection was removed: choose another destination with Keep in Sync….') }
      : { uri, format: 'postgres' };
  }
  const problem = targetProblem(uri);
  const format = appendFormatOf(uri);
  if (problem !== undefined || format === undefined)
    return { problem: t('{0} cannot take the rows: {1}.', fileLabel(uri), problem ?? '') };
  return { uri, format };
}

export async function syncPull(task: TaskRef, follow: Follow, deps: SyncPullDeps): Promise<SyncOutcome> {
  const account = deps.account.account;
  const client = deps.account.getClient();
  if (account === undefined || client === undefined) return { kind: 'cancelled' };
  const target = followTarget(follow, deps.pgStore);
  if ('problem' in target) return { kind: 'failed', sentence: target.problem };
  const key = accountKey(account);
  const busyKey = `${key}\n${task.taskId}`;
  const fileKey = `file\n${target.uri.fsPath}`;
  if (deps.busy.has(busyKey) || deps.busy.has(fileKey)) return { kind: 'busy' };
  const label = destinationLabel(target.uri, deps.pgStore);
  const server = pgConnectionOf(target.uri, deps.pgStore);
  const records = deps.records(key);
  deps.busy.add(busyKey);
  deps.busy.add(fileKey);
  try {
    const isNew = server === undefined && !(await exists(target.uri.fsPath));
    const ours = server === undefined && (isNew || (await isMade(records, target.uri.fsPath)));
    let sink: PullSink;
    try {
      sink = await openTargetSink(target, task, isNew, {
        pgStore: deps.pgStore,
        records,
        trusted: true,
        sqliteDir: deps.sqliteDir,
        sqliteLogDir: deps.sqliteLogDir,
      });
    } catch (error) {
      return { kind: 'failed', sentence: openFailure(error, task, target, label, deps) };
    }
    const controller = new AbortController();
    const stop = () => controller.abort();
    const subscription = deps.account.onDidChange(stop);
    deps.closing.addEventListener('abort', stop);
    try {
      // The window's progress: a quiet line in the status bar, no notification.
      const result = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Window,
          title: t('Syncing “{0}” into {1}', plainText(task.taskName), label),
        },
        (progress) =>
          pullNewRows(client, {
            taskId: task.taskId,
            sink,
            signal: controller.signal,
            onProgress: (p) => progress.report({ message: t('{0} of {1} rows', count(p.rows), count(p.total)) }),
          }),
      );
      deps.log.info(
        `Kept task ${task.taskId} in sync: ${result.rows} new rows into ${target.uri.toString()} in ${result.batches} batches, marked exported (request IDs ${result.requestIds.join(', ')})`,
      );
      return result.rows === 0 ? { kind: 'nothing-new' } : { kind: 'pulled', rows: result.rows };
    } catch (error) {
      return pullFailure(error, task, target, label);
    } finally {
      subscription.dispose();
      deps.closing.removeEventListener('abort', stop);
      await sink.close();
      // A CSV that gained a column was rewritten (a new inode): still the file the pull made.
      if (ours) await markMade(records, target.uri.fsPath).catch(() => undefined);
    }
  } finally {
    deps.busy.delete(busyKey);
    deps.busy.delete(fileKey);
  }
}

function openFailure(error: unknown, task: TaskRef, target: AppendTarget, label: string, deps: SyncPullDeps): string {
  const server = pgConnectionOf(target.uri, deps.pgStore);
  if (server !== undefined) {
    deps.log.warn(`Could not open ${label} to keep task ${task.taskId} in sync: ${serverMessage(error)}`);
    const sentence =
      error instanceof Error && error.name === 'MissingPasswordError' ? error.message : pgFailureText(error, server, t);
    return `${sentence} ${t('Nothing was pulled from the service or written to {0}.', label)}`;
  }
  if (
    error instanceof UnusableFileError ||
    error instanceof UnsafeFileError ||
    error instanceof DamagedJournalError ||
    error instanceof OtherTaskPendingError
  ) {
    return refusalText(error, task.taskName, fileLabel(target.uri));
  }
  return errorMessage(withAdvice(error, t('Nothing was pulled from the service or written to {0}.', label)));
}

function pullFailure(error: unknown, task: TaskRef, target: AppendTarget, label: string): SyncOutcome {
  const failure = error instanceof PullFailure ? error : new PullFailure('fetch', 0, 0, error);
  const cause = failure.error;
  if (isCancel(cause)) return { kind: 'cancelled' };
  if (cause instanceof UnusableFileError || cause instanceof UnsafeFileError)
    return { kind: 'failed', sentence: refusalText(cause, task.taskName, fileLabel(target.uri)) };
  const advice = pullAdvice(
    failure.stage,
    { rowsDone: failure.rowsDone, batchRows: failure.batchRows, file: label },
    t,
    count,
  );
  return { kind: 'failed', sentence: errorMessage(withAdvice(cause, advice)) };
}
