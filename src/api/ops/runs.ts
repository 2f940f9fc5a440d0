/**
 * Cloud extraction: task statuses (v2, v1 when v2 is refused), start, stop, subtask statuses,
 * start/stop subtasks. Statuses are reads and are retried; start, stop and the subtask actions
 * must not run twice and are retried only when the server surely did not act (see retry.ts).
 */
import { type ApiError, isApiError } from '../errors/errors';
import { type BatchedResult, inBatches, splitIds } from '../http/batches';
import { type ApiResult, type CallOptions, checkRequest, type MainCaller, query } from '../http/mainCaller';
import { nullDataResponseSchema, OPS_LIMITS, taskIdListSchema } from '../schemas/opsSchemas';
import {
  type StartedRun,
  startResponseSchema,
  SUBTASK_ACTION_PATH,
  SUBTASK_ACTION_PATHS,
  type SubtaskPage,
  subtaskPageSchema,
  subtasksBodySchema,
  type SubtaskSpelling,
  type SubtaskStatus,
  subtaskStatusResponseSchema,
  taskIdBodySchema,
  taskStatusV1ResponseSchema,
  taskStatusV2ResponseSchema,
} from '../schemas/runSchemas';
import type { ServiceRoutes } from './serviceRoutes';

export { SUBTASK_ACTION_PATH, SUBTASK_ACTION_PATHS };

export const CLOUD_PLAN_NOTE = 'Cloud extraction needs a Professional or Enterprise plan.';

/** After v2 was refused, v1 is used for this long before v2 is tried again. */
export const STATUS_V2_RETRY_MS = 10 * 60_000;

/** A task's run status: v2's fields, or v1's (then the counts and times are null: v1 does not say). */
export interface TaskRunStatus {
  taskId: string;
  /** As the service sent it: `Extracting`, `Stopped`, or a value not published. */
  status: string;
  /** v1 only. */
  taskName: string | null;
  currentTotalExtractCount: number | null;
  executedTimes: number | null;
  subTaskCount: number | null;
  /** Service times (`2018-04-04T18:34:20.973`), no zone: read them as UTC (`parseServiceTime`). */
  startExecuteTime: string | null;
  endExecuteTime: string | null;
  nextExecuteTime: string | null;
  source: 'v2' | 'v1';
}

/**
 * Statuses as answered, and which call answered them. v2 leaves out tasks that never ran in the
 * cloud (a public client notes it; the published document does not say): an id asked and not in a
 * `v2` answer has never run there. What v1 leaves out is not known.
 */
export interface StatusesResult extends BatchedResult<TaskRunStatus> {
  source: 'v2' | 'v1';
}

/**
 * v2 refused: the route is unknown or not allowed (404, 405, 410, 501). A 404 that names a task
 * (`InvalidTaskId`) is about the ids, not the route, and v1 would say the same.
 */
export function isStatusV2Refused(e: ApiError): boolean {
  if (e.status === undefined || ![404, 405, 410, 501].includes(e.status)) return false;
  return !namesTask(e);
}

/** A 404 about the route (the path is unknown), not an error envelope naming the task. */
export function isRouteNotFound(e: ApiError): boolean {
  return e.status === 404 && !namesTask(e);
}

function namesTask(e: ApiError): boolean {
  return typeof e.code === 'string' && /task/i.test(e.code);
}

export class RunOps {
  /** Epoch ms until which v1 answers statuses (v2 was refused). */
  private v2RefusedUntil = -Infinity;

  constructor(
    private readonly caller: MainCaller,
    private readonly now: () => number,
    private readonly routes: ServiceRoutes,
  ) {}

  /**
   * Statuses of any number of tasks: batches of 100 (duplicates sent once), v2 first; if v2 is
   * refused, v1 for every batch, and v1 for the next 10 minutes.
   */
  async statuses(taskIds: readonly string[], o: CallOptions = {}): Promise<StatusesResult> {
    const batches = splitIds(taskIds, OPS_LIMITS.batch);
    for (const batch of batches) checkRequest(taskIdListSchema, batch, 'get task statuses');
    if (batches.length === 0) return { data: [], requestId: undefined, requestIds: [], source: 'v2' };
    if (this.now() >= this.v2RefusedUntil) {
      try {
        return {
          ...(await inBatches(batches, (ids, signal) => this.statusesV2(ids, { signal }), o.signal)),
          source: 'v2',
        };
      } catch (e) {
        if (!isApiError(e) || !isStatusV2Refused(e)) throw e;
        this.v2RefusedUntil = this.now() + STATUS_V2_RETRY_MS;
      }
    }
    return { ...(await inBatches(batches, (ids, signal) => this.statusesV1(ids, { signal }), o.signal)), source: 'v1' };
  }

  async statusesV2(taskIds: readonly string[], o: CallOptions = {}): Promise<ApiResult<TaskRunStatus[]>> {
    const body = { taskIds: checkRequest(taskIdListSchema, taskIds, 'get task statuses (v2)') };
    const r = await this.caller.call(
      {
        method: 'POST',
        path: '/cloudextraction/statuses/v2',
        body,
        retry: 'safe',
        operation: 'get task statuses',
        response: taskStatusV2ResponseSchema,
        planNote: CLOUD_PLAN_NOTE,
      },
      o,
    );
    return { requestId: r.requestId, data: r.data.map((s) => ({ ...s, taskName: null, source: 'v2' as const })) };
  }

  async statusesV1(taskIds: readonly string[], o: CallOptions = {}): Promise<ApiResult<TaskRunStatus[]>> {
    const body = { taskIds: checkRequest(taskIdListSchema, taskIds, 'get task statuses (v1)') };
    const r = await this.caller.call(
      {
        method: 'POST',
        path: '/cloudextraction/statuses',
        body,
        retry: 'safe',
        operation: 'get task statuses',
        response: taskStatusV1ResponseSchema,
        planNote: CLOUD_PLAN_NOTE,
      },
      o,
    );
    const data = r.data.map((s) => ({
      taskId: s.taskId,
      status: s.status,
      taskName: s.taskName,
      currentTotalExtractCount: null,
      executedTimes: null,
      subTaskCount: null,
      startExecuteTime: null,
      endExecuteTime: null,
      nextExecuteTime: null,
      source: 'v1' as const,
    }));
    return { requestId: r.requestId, data };
  }

  /** Starts a cloud run: the run's lot and status when the service sends them (`data: null` otherwise). */
  async start(taskId: string, o: CallOptions = {}): Promise<ApiResult<StartedRun | null>> {
    const body = checkRequest(taskIdBodySchema, { taskId }, 'start a task');
    return this.caller.call(
      {
        method: 'POST',
        path: '/cloudextraction/start',
        body,
        retry: 'unsent',
        operation: `start task ${body.taskId}`,
        response: startResponseSchema,
        planNote: CLOUD_PLAN_NOTE,
      },
      o,
    );
  }

  async stop(taskId: string, o: CallOptions = {}): Promise<ApiResult<null>> {
    const body = checkRequest(taskIdBodySchema, { taskId }, 'stop a task');
    const r = await this.caller.call(
      {
        method: 'POST',
        path: '/cloudextraction/stop',
        body,
        retry: 'unsent',
        operation: `stop task ${body.taskId}`,
        response: nullDataResponseSchema,
        planNote: CLOUD_PLAN_NOTE,
      },
      o,
    );
    return { data: null, requestId: r.requestId };
  }

  /** One page of a task's subtasks (size 1 to 20). The reply has no total: a short page is the last. */
  async subtaskStatuses(taskId: string, page: SubtaskPage, o: CallOptions = {}): Promise<ApiResult<SubtaskStatus[]>> {
    const { taskId: id } = checkRequest(taskIdBodySchema, { taskId }, 'get subtask statuses');
    const p = checkRequest(subtaskPageSchema, page, 'get subtask statuses');
    return this.caller.call(
      {
        method: 'GET',
        path: `/cloudextraction/task/subtasks${query({ taskId: id, page: p.page, size: p.size })}`,
        retry: 'safe',
        operation: `get the subtasks of task ${id}`,
        response: subtaskStatusResponseSchema,
        planNote: CLOUD_PLAN_NOTE,
      },
      o,
    );
  }

  async startSubtasks(taskId: string, subTaskIds: readonly string[], o: CallOptions = {}): Promise<ApiResult<null>> {
    return this.subtaskAction('start', taskId, subTaskIds, o);
  }

  async stopSubtasks(taskId: string, subTaskIds: readonly string[], o: CallOptions = {}): Promise<ApiResult<null>> {
    return this.subtaskAction('stop', taskId, subTaskIds, o);
  }

  /**
   * Start/stop subtasks at the spelling this address is known to answer (`colon` when nothing is
   * known). A route 404 tries the other spelling once; the one that answers is remembered.
   */
  private async subtaskAction(
    verb: 'start' | 'stop',
    taskId: string,
    subTaskIds: readonly string[],
    o: CallOptions,
  ): Promise<ApiResult<null>> {
    const body = checkRequest(subtasksBodySchema, { taskId, subTaskIds: [...new Set(subTaskIds)] }, `${verb} subtasks`);
    const base = this.caller.baseUrl;
    const first: SubtaskSpelling = this.routes.subtaskSpelling(base) ?? 'colon';
    const send = (spelling: SubtaskSpelling) =>
      this.caller.call(
        {
          method: 'POST',
          path: SUBTASK_ACTION_PATHS[spelling][verb],
          body,
          retry: 'unsent',
          operation: `${verb} ${body.subTaskIds.length} subtask(s) of task ${body.taskId}`,
          response: nullDataResponseSchema,
          planNote: CLOUD_PLAN_NOTE,
        },
        o,
      );
    let spelling = first;
    let r: ApiResult<unknown>;
    try {
      r = await send(first);
    } catch (e) {
      // A 404 means the service did nothing, so the other spelling may be sent without a double run.
      if (!isApiError(e) || !isRouteNotFound(e)) throw e;
      spelling = first === 'colon' ? 'slash' : 'colon';
      r = await send(spelling);
    }
    this.routes.rememberSubtaskSpelling(base, spelling);
    return { data: null, requestId: r.requestId };
  }
}
