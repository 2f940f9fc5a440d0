/**
 * Start Run and Stop Run on one task or a selection. The tree shows "Starting…"/"Stopping…" at
 * once, the requests go out (the client paces them), and the tasks' statuses are asked right
 * after so the rows follow the run. Stopping asks first, alike Remove Data and Deprecate
 * (`platform/confirm.ts`): a modal naming the tasks as the service names their ids (not as the
 * caller passed them), then the name (or, for several, the number of runs) typed out, so Enter
 * alone stops nothing. A plan refusal is reported once for the selection, naming the plans that
 * allow runs; a task that is already running (or already stopped) is not an error.
 */
import * as vscode from 'vscode';

import type { ScrapedeckClient } from '../api/client';
import { type ApiError, isApiError } from '../api/errors/errors';
import { SERVICE_CODES } from '../api/schemas/opsSchemas';
import { type KnownNames, serviceTaskNames } from '../api/taskNames';
import type { TaskRef } from '../api/taskRef';
import { confirmDestructive } from '../platform/confirm';
import { plainText } from '../platform/plainText';
import type { Ui } from '../platform/ui';
import type { ReportFailure } from './runReport';
import type { RunStore } from './runStore';
import type { StatusPoller } from './statusPoller';

const t = vscode.l10n.t;

export interface RunActionDeps {
  getClient(): ScrapedeckClient | undefined;
  store: Pick<RunStore, 'isActive' | 'setPending' | 'get' | 'setLot'>;
  poller: Pick<StatusPoller, 'follow'>;
  ui: Pick<Ui, 'showInformationMessage' | 'showWarningMessage' | 'showModalWarning' | 'showInputBox'>;
  report: ReportFailure;
  log: Pick<vscode.LogOutputChannel, 'info'>;
  /** Names this account's Tasks view has read from the service (the confirmation's first source). */
  knownNames?: KnownNames;
  /** The plan refused a start or a stop (403): the rows stop offering them (`noCloudRuns`). */
  runsRefused?(): void;
}

/** What happened to each task (the commands resolve to it, so tests and callers can tell). */
export interface RunOutcome {
  readonly done: string[];
  /** Nothing to do (already running for a start, not running for a stop). */
  readonly skipped: string[];
  readonly failed: string[];
  /** The stop was not confirmed. */
  readonly declined: boolean;
}

const none = (declined = false): RunOutcome => ({ done: [], skipped: [], failed: [], declined });

export async function startRuns(tasks: readonly TaskRef[], deps: RunActionDeps): Promise<RunOutcome> {
  const client = signedIn(deps);
  if (client === undefined) return none();
  const todo = unique(tasks).filter((task) => !deps.store.isActive(task.taskId));
  const skipped = unique(tasks)
    .filter((task) => deps.store.isActive(task.taskId))
    .map((task) => task.taskId);
  if (todo.length === 0) {
    void deps.ui.showInformationMessage(
      tasks.length === 1
        ? t('“{0}” is already running.', plainText(tasks[0]?.taskName ?? ''))
        : t('The selected tasks are already running.'),
    );
    return { ...none(), skipped };
  }
  return act('start', todo, skipped, client, deps);
}

export async function stopRuns(tasks: readonly TaskRef[], deps: RunActionDeps): Promise<RunOutcome> {
  const client = signedIn(deps);
  if (client === undefined) return none();
  const todo = unique(tasks).filter(
    (task) => deps.store.isActive(task.taskId) && deps.store.get(task.taskId)?.pending?.action !== 'stopping',
  );
  const skipped = unique(tasks)
    .filter((task) => !todo.includes(task))
    .map((task) => task.taskId);
  if (todo.length === 0) {
    void deps.ui.showInformationMessage(
      tasks.length === 1
        ? t('“{0}” is not running.', plainText(tasks[0]?.taskName ?? ''))
        : t('None of the selected tasks is running.'),
    );
    return { ...none(), skipped };
  }
  const named = await withServiceNames(todo, client, deps);
  if (named === undefined || named.length === 0) return { ...none(), skipped };
  skipped.push(...todo.filter((task) => !named.some((n) => n.taskId === task.taskId)).map((task) => task.taskId));
  if ((await askToStop(named, deps.ui)) !== 'confirmed') return { ...none(true), skipped };
  // The same client, or nothing: another account (or a changed address) was not the one asked for.
  if (deps.getClient() !== client) {
    void deps.ui.showWarningMessage(t('The Scrapedeck account changed while you were asked, so no run was stopped.'));
    return { ...none(), skipped };
  }
  return act('stop', named, skipped, client, deps);
}

/**
 * The tasks with the names the service gives their ids; ids this account does not have are left
 * out (and said). Undefined when the names could not be read (reported): nothing is asked or sent.
 */
async function withServiceNames(
  todo: readonly TaskRef[],
  client: ScrapedeckClient,
  deps: RunActionDeps,
): Promise<TaskRef[] | undefined> {
  let names: Map<string, string>;
  try {
    names = await serviceTaskNames(
      client,
      todo.map((task) => task.taskId),
      deps.knownNames,
    );
  } catch (error) {
    void deps.report(
      error,
      todo.length === 1 ? couldNot('stop', plainText(todo[0]?.taskName ?? '')) : t('Could not stop the selected runs'),
    );
    return undefined;
  }
  const missing = todo.filter((task) => !names.has(task.taskId));
  if (missing.length > 0) {
    void deps.ui.showWarningMessage(
      t(
        'This account has no task with the id {0}, so it was left alone.',
        missing.map((task) => plainText(task.taskId, 80)).join(', '),
      ),
    );
  }
  return todo
    .filter((task) => names.has(task.taskId))
    .map((task) => ({ taskId: task.taskId, taskName: names.get(task.taskId) ?? '' }));
}

/** One question for the selection: the modal, then the task's name (or the number of runs) typed. */
function askToStop(todo: readonly TaskRef[], ui: RunActionDeps['ui']): ReturnType<typeof confirmDestructive> {
  const first = plainText(todo[0]?.taskName ?? '');
  const many = todo.length > 1;
  const names = !many
    ? ''
    : `\n\n${todo
        .slice(0, 10)
        .map((task) => `• ${plainText(task.taskName)}`)
        .join('\n')}${todo.length > 10 ? `\n${t('and {0} more', todo.length - 10)}` : ''}`;
  const typedName = plainText(todo[0]?.taskName ?? '', 200);
  const count = String(todo.length);
  return confirmDestructive(ui, {
    message: many ? t('Stop {0} runs?', todo.length) : t('Stop the run of “{0}”?', first),
    detail:
      t(
        'A stopped run cannot be resumed: the next run starts from the beginning. The rows collected so far are kept.',
      ) + names,
    action: many ? t('Stop {0} Runs…', todo.length) : t('Stop Run…'),
    keep: many ? t('Keep Them Running') : t('Keep Running'),
    typed: many
      ? {
          title: t('Stop {0} Runs (2/2)', todo.length),
          prompt: t('Type {0} to stop these {0} runs.', todo.length),
          expected: count,
          mismatch: t('Type {0} exactly, or press Escape to keep them running.', todo.length),
        }
      : {
          title: t('Stop the Run of “{0}” (2/2)', first),
          prompt: t('Type the task name, {0}, to stop its run.', typedName),
          expected: typedName,
          mismatch: t('Type “{0}” exactly, or press Escape to keep it running.', typedName),
        },
  });
}

async function act(
  verb: 'start' | 'stop',
  todo: readonly TaskRef[],
  skipped: string[],
  client: ScrapedeckClient,
  deps: RunActionDeps,
): Promise<RunOutcome> {
  const ids = todo.map((task) => task.taskId);
  deps.store.setPending(ids, verb === 'start' ? 'starting' : 'stopping');
  const results = await Promise.allSettled(
    todo.map((task) => (verb === 'start' ? client.startTask(task.taskId) : client.stopTask(task.taskId))),
  );
  const done: string[] = [];
  const failed: { task: TaskRef; error: unknown }[] = [];
  results.forEach((result, i) => {
    const task = todo[i] as TaskRef;
    if (result.status === 'fulfilled') {
      done.push(task.taskId);
      // The service may answer the run's lot: its rows can then be exported alone.
      const lotNo = result.value.data?.lotNo;
      if (typeof lotNo === 'string') deps.store.setLot(task.taskId, lotNo);
      deps.log.info(
        `${verb === 'start' ? 'Started' : 'Stopped'} task ${task.taskId}${result.value.requestId ? ` (request ID ${result.value.requestId})` : ''}`,
      );
    } else if (isAlreadyThere(verb, result.reason)) {
      // Already running (or already ended): the status poll shows which; nothing went wrong.
      skipped.push(task.taskId);
    } else {
      failed.push({ task, error: result.reason });
    }
  });
  // Whatever happened, the service now says how things are (a failure may have been carried out).
  deps.store.setPending([...skipped.filter((id) => ids.includes(id)), ...failed.map((f) => f.task.taskId)], undefined);
  deps.poller.follow(ids);
  if (failed.some((f) => isApiError(f.error) && f.error.kind === 'forbidden')) deps.runsRefused?.();
  reportFailures(verb, failed, deps.report);
  if (done.length > 0) vscode.window.setStatusBarMessage(statusLine(verb, todo, done), 5000);
  return { done, skipped, failed: failed.map((f) => f.task.taskId), declined: false };
}

/** A plan refusal once for the whole selection; other failures one message per task. */
function reportFailures(
  verb: 'start' | 'stop',
  failed: { task: TaskRef; error: unknown }[],
  report: ReportFailure,
): void {
  const refused = failed.filter((f) => isApiError(f.error) && f.error.kind === 'forbidden');
  const rest = failed.filter((f) => !refused.includes(f));
  const first = refused[0];
  const messages: Promise<void>[] = [];
  if (first !== undefined) {
    const what =
      refused.length === 1
        ? couldNot(verb, first.task.taskName)
        : t('{0} (and {1} more tasks)', plainText(couldNot(verb, first.task.taskName)), refused.length - 1);
    messages.push(report(first.error, what));
  }
  for (const f of rest) messages.push(report(f.error, couldNot(verb, f.task.taskName)));
  // Shown, not awaited until dismissed: the command finishes when the work is done.
  void Promise.all(messages);
}

function couldNot(verb: 'start' | 'stop', taskName: string): string {
  return verb === 'start'
    ? t('Could not start “{0}”', plainText(taskName))
    : t('Could not stop “{0}”', plainText(taskName));
}

function statusLine(verb: 'start' | 'stop', todo: readonly TaskRef[], done: readonly string[]): string {
  const name = todo.find((task) => task.taskId === done[0])?.taskName ?? '';
  if (verb === 'start')
    return `$(play) ${done.length === 1 ? t('Started “{0}”', plainText(name)) : t('Started {0} runs', done.length)}`;
  return `$(debug-stop) ${done.length === 1 ? t('Stopped “{0}”', plainText(name)) : t('Stopped {0} runs', done.length)}`;
}

function isAlreadyThere(verb: 'start' | 'stop', error: unknown): error is ApiError {
  if (!isApiError(error)) return false;
  return error.code === (verb === 'start' ? SERVICE_CODES.alreadyRunning : SERVICE_CODES.notRunning);
}

function signedIn(deps: RunActionDeps): ScrapedeckClient | undefined {
  const client = deps.getClient();
  if (client === undefined) void deps.ui.showInformationMessage(t('Sign in to Scrapedeck to start or stop runs.'));
  return client;
}

function unique(tasks: readonly TaskRef[]): TaskRef[] {
  const byId = new Map<string, TaskRef>();
  for (const task of tasks) if (!byId.has(task.taskId)) byId.set(task.taskId, task);
  return [...byId.values()];
}
