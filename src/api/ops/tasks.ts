/**
 * Task groups and tasks: list and search (reads), action parameters and their loop items,
 * action properties, duplicate and move. Replacing a loop's items or setting properties gives the
 * same result however often it is sent, so those are retried like reads; appending items,
 * duplicating and moving are not (see retry.ts).
 */
import { ApiError } from '../errors/errors';
import { type BatchedResult, inBatches, splitIds } from '../http/batches';
import { type ApiResult, type CallOptions, checkRequest, type MainCaller, query } from '../http/mainCaller';
import { OPS_LIMITS, taskIdListSchema, taskIdSchema } from '../schemas/opsSchemas';
import { type Task, type TaskGroup, taskGroupListResponseSchema, taskSearchResponseSchema } from '../schemas/schemas';
import {
  type ActionProperties,
  type CopiedTask,
  copiedTaskResponseSchema,
  getActionsBodySchema,
  type MoveResult,
  moveResultResponseSchema,
  type TaskActions,
  taskActionsResponseSchema,
  taskGroupIdSchema,
  updateActionPropertiesBodySchema,
  type UpdateLoopItems,
  updateLoopItemsBodySchema,
  type UpdateResult,
  updateResultResponseSchema,
} from '../schemas/taskOpsSchemas';

export const PARAMS_PLAN_NOTE = 'Task parameters need a Professional or Enterprise plan.';
export const ORGANISE_PLAN_NOTE = 'Duplicating and moving tasks need a Standard, Professional or Enterprise plan.';

/** The action type the spec shows (loops of URLs or texts). */
export const LOOP_ACTION = 'LoopAction';

export class TaskOps {
  constructor(private readonly caller: MainCaller) {}

  async listTaskGroups(o: CallOptions = {}): Promise<ApiResult<TaskGroup[]>> {
    return this.caller.call(
      {
        method: 'GET',
        path: '/taskGroup',
        retry: 'safe',
        operation: 'get task group information',
        response: taskGroupListResponseSchema,
      },
      o,
    );
  }

  async searchTasks(taskGroupId: string, o: CallOptions = {}): Promise<ApiResult<Task[]>> {
    if (taskGroupId.trim() === '') {
      throw new ApiError({
        kind: 'invalid-request',
        field: 'taskGroupId',
        message: 'A task group id is needed to search tasks',
      });
    }
    // A task group id is not a secret, so the log may show the query.
    const path = `/task/search?taskGroupId=${encodeURIComponent(taskGroupId)}`;
    return this.caller.call(
      { method: 'GET', path, retry: 'safe', operation: 'search tasks', response: taskSearchResponseSchema },
      o,
    );
  }

  /** The actions of any number of tasks (batches of 100), of the given types (default: loops). */
  async getActions(
    taskIds: readonly string[],
    actionTypes: readonly string[] = [LOOP_ACTION],
    o: CallOptions = {},
  ): Promise<BatchedResult<TaskActions>> {
    const batches = splitIds(taskIds, OPS_LIMITS.batch);
    for (const batch of batches)
      checkRequest(getActionsBodySchema, { taskIds: batch, actionTypes }, 'get action parameters');
    if (batches.length === 0) return { data: [], requestId: undefined, requestIds: [] };
    return inBatches(
      batches,
      (ids, signal) =>
        this.caller.call(
          {
            method: 'POST',
            path: '/task/getActions',
            body: {
              taskIds: checkRequest(taskIdListSchema, ids, 'get action parameters'),
              actionTypes: [...actionTypes],
            },
            retry: 'safe',
            operation: 'get action parameters',
            response: taskActionsResponseSchema,
            planNote: PARAMS_PLAN_NOTE,
          },
          { signal },
        ),
      o.signal,
    );
  }

  /**
   * Replaces a loop's items, or appends to them (`isAppend`). Replacing is retried like a read (the
   * same list twice is the same list); appending is not (twice would add the items twice).
   */
  async updateLoopItems(input: UpdateLoopItems, o: CallOptions = {}): Promise<ApiResult<UpdateResult>> {
    const body = checkRequest(updateLoopItemsBodySchema, input, 'update loop items');
    return this.caller.call(
      {
        method: 'POST',
        path: '/task/updateLoopItems',
        body,
        retry: body.isAppend ? 'unsent' : 'safe',
        operation: `${body.isAppend ? 'append to' : 'replace'} the loop items of task ${body.taskId}`,
        response: updateResultResponseSchema,
        planNote: PARAMS_PLAN_NOTE,
      },
      o,
    );
  }

  /** Sets action properties to values: the same values twice are the same, so it is retried. */
  async updateActionProperties(
    taskId: string,
    actions: readonly ActionProperties[],
    o: CallOptions = {},
  ): Promise<ApiResult<UpdateResult>> {
    const body = checkRequest(updateActionPropertiesBodySchema, { taskId, actions }, 'update action properties');
    return this.caller.call(
      {
        method: 'POST',
        path: '/task/updateActionProperties',
        body,
        retry: 'safe',
        operation: `update the action properties of task ${body.taskId}`,
        response: updateResultResponseSchema,
        planNote: PARAMS_PLAN_NOTE,
      },
      o,
    );
  }

  /** Duplicates a task into a group (omitted: the task's own group). Never replayed: twice is two copies. */
  async copyTask(taskId: string, taskGroupId?: string, o: CallOptions = {}): Promise<ApiResult<CopiedTask>> {
    const id = checkRequest(taskIdSchema, taskId, 'duplicate a task');
    const group =
      taskGroupId === undefined ? undefined : checkRequest(taskGroupIdSchema, taskGroupId, 'duplicate a task');
    return this.caller.call(
      {
        method: 'POST',
        path: `/task/copy${query({ taskId: id, taskGroupId: group })}`,
        retry: 'unsent',
        operation: `duplicate task ${id}`,
        response: copiedTaskResponseSchema,
        planNote: ORGANISE_PLAN_NOTE,
      },
      o,
    );
  }

  /** Moves a task to another group (`moved: false` when it was there already). */
  async moveTask(taskId: string, taskGroupId: string, o: CallOptions = {}): Promise<ApiResult<MoveResult>> {
    const id = checkRequest(taskIdSchema, taskId, 'move a task');
    const group = checkRequest(taskGroupIdSchema, taskGroupId, 'move a task');
    return this.caller.call(
      {
        method: 'POST',
        path: `/task/moveToGroup${query({ taskId: id, taskGroupId: group })}`,
        retry: 'unsent',
        operation: `move task ${id} to group ${group}`,
        response: moveResultResponseSchema,
        planNote: ORGANISE_PLAN_NOTE,
      },
      o,
    );
  }
}
