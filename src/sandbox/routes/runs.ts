/**
 * Cloud extraction: statuses (v1, v2), start, stop, subtask statuses, start/stop subtasks.
 * Professional and Enterprise only. Batch statuses leave out ids the account does not have (a
 * poll survives a deleted task), and v2 leaves out tasks that never ran in the cloud, as a public
 * client notes the service does (unless `neverRun` is `stopped`: then they answer Stopped, 0 runs).
 * Start answers the run's lot and status (`{ lotNo, status }`, as two public clients read it; the
 * published example shows `null`). Single-task operations answer 404 `InvalidTaskId`; starting a
 * running task or stopping one that is not running is 409.
 */
import { SERVICE_CODES } from '../../api/schemas/opsSchemas';
import {
  formatServiceTime,
  subtaskPageSchema,
  subtasksBodySchema,
  taskIdBodySchema,
  taskIdsBodySchema,
} from '../../api/schemas/runSchemas';
import { errorReply, ok, type Reply } from '../http/respond';
import type { SeedAccount, SeedTask } from '../seed/seed';
import type { RouteRequest, SandboxState } from '../state/state';
import { authorize, body, check, opsError, ownTask, queryOf } from './opsCommon';

function owned(state: SandboxState, account: SeedAccount, ids: string[]): SeedTask[] {
  return [...new Set(ids)].map((id) => state.ops.tasks.task(account, id)).filter((t): t is SeedTask => t !== undefined);
}

const time = (ms: number | null | undefined): string | null =>
  ms === null || ms === undefined ? null : formatServiceTime(ms);

export function handleStatusesV1(req: RouteRequest, state: SandboxState): Reply {
  const account = authorize(req, state, 'cloud', 'Get Task Status');
  if (!account.ok) return account.reply;
  const b = body(req, taskIdsBodySchema);
  if (!b.ok) return b.reply;
  const now = state.now();
  return ok(
    owned(state, account.value, b.value.taskIds).map((t) => ({
      taskId: t.taskId,
      taskName: t.taskName,
      status: state.ops.runs.of(t).status(now),
    })),
  );
}

export function handleStatusesV2(req: RouteRequest, state: SandboxState): Reply {
  const account = authorize(req, state, 'cloud', 'Get Task Status V2');
  if (!account.ok) return account.reply;
  const b = body(req, taskIdsBodySchema);
  if (!b.ok) return b.reply;
  const now = state.now();
  const omitNeverRun = state.behaviour.neverRun === 'omit';
  return ok(
    owned(state, account.value, b.value.taskIds).flatMap((t) => {
      const rt = state.ops.runs.of(t);
      if (omitNeverRun && rt.executedTimes === 0) return [];
      const status = rt.status(now);
      const queued = rt.isQueued(now);
      return [
        {
          taskId: t.taskId,
          status,
          // What the task holds of the run: after Remove Data the count follows the rows, not the history.
          currentTotalExtractCount: rt.held(now),
          executedTimes: rt.executedTimes,
          subTaskCount: rt.run?.subtasks.length ?? 0,
          startExecuteTime: queued ? null : time(rt.run?.startedAt),
          endExecuteTime: time(rt.run?.end?.at),
          nextExecuteTime: time(rt.nextExecuteTime(now)),
        },
      ];
    }),
  );
}

export function handleStart(req: RouteRequest, state: SandboxState): Reply {
  const task = single(req, state, 'Start Task');
  if (!task.ok) return task.reply;
  const now = state.now();
  const run = state.ops.runs.start(task.value, now);
  if (run === undefined) {
    return opsError('conflict', SERVICE_CODES.alreadyRunning, `Task "${task.value.taskName}" is already running.`);
  }
  return ok({ lotNo: run.lotNo, status: state.ops.runs.of(task.value).status(now) });
}

export function handleStop(req: RouteRequest, state: SandboxState): Reply {
  const task = single(req, state, 'Stop Task');
  if (!task.ok) return task.reply;
  if (!state.ops.runs.of(task.value).stop(state.now())) {
    return opsError('conflict', SERVICE_CODES.notRunning, `Task "${task.value.taskName}" is not running.`);
  }
  return ok(null);
}

export function handleSubtaskStatuses(req: RouteRequest, state: SandboxState): Reply {
  const account = authorize(req, state, 'cloud', 'Get Subtask Status');
  if (!account.ok) return account.reply;
  const q = queryOf(req, { taskId: 'text', page: 'int', size: 'int' });
  const id = check(taskIdBodySchema, q);
  if (!id.ok) return id.reply;
  const page = check(subtaskPageSchema, { page: q.page ?? 1, size: q.size ?? 20 });
  if (!page.ok) return page.reply;
  const task = ownTask(state, account.value, id.value.taskId);
  if (!task.ok) return task.reply;
  const rt = state.ops.runs.of(task.value);
  const now = state.now();
  const { page: p, size } = page.value;
  const subtasks = rt.run?.subtasks.slice((p - 1) * size, p * size) ?? [];
  return ok(subtasks.map((s) => ({ subTaskId: s.subTaskId, status: rt.subtaskStatus(s, now) })));
}

/** The spelling a request used: `subtasks/start` is `slash`, `subtasks:start` (or `%3A`) `colon`. */
function spellingOf(pathname: string): 'colon' | 'slash' {
  return /subtasks\/(?:start|stop)\/?$/i.test(pathname) ? 'slash' : 'colon';
}

export function handleSubtaskAction(verb: 'start' | 'stop') {
  return (req: RouteRequest, state: SandboxState): Reply => {
    const accepted = state.behaviour.subtaskSpelling;
    if (accepted !== 'both' && spellingOf(req.url.pathname) !== accepted) {
      // As a service that knows only the other spelling answers: no such route.
      return errorReply('main', 'not-found', `No route ${req.method} ${req.url.pathname}`);
    }
    const account = authorize(req, state, 'cloud', verb === 'start' ? 'Start Subtasks' : 'Stop Subtasks');
    if (!account.ok) return account.reply;
    const b = body(req, subtasksBodySchema);
    if (!b.ok) return b.reply;
    const task = ownTask(state, account.value, b.value.taskId);
    if (!task.ok) return task.reply;
    const rt = state.ops.runs.of(task.value);
    const now = state.now();
    if (!rt.isRunning(now))
      return opsError('conflict', SERVICE_CODES.notRunning, `Task "${task.value.taskName}" is not running.`);
    const known = new Set(rt.run?.subtasks.map((s) => s.subTaskId));
    const unknown = b.value.subTaskIds.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      return opsError(
        'bad-request',
        SERVICE_CODES.invalidParameter,
        `subTaskIds: not subtasks of this run: ${unknown.slice(0, 5).join(', ')}`,
      );
    }
    const ids = new Set(b.value.subTaskIds);
    if (verb === 'stop') rt.stopSubtasks(ids, now);
    else rt.startSubtasks(ids, now);
    return ok(null);
  };
}

function single(
  req: RouteRequest,
  state: SandboxState,
  operation: string,
): { ok: true; value: SeedTask } | { ok: false; reply: Reply } {
  const account = authorize(req, state, 'cloud', operation);
  if (!account.ok) return account;
  const b = body(req, taskIdBodySchema);
  if (!b.ok) return b;
  return ownTask(state, account.value, b.value.taskId);
}
