/**
 * Duplicate and move a task (Standard and up). Both take their ids in the query string; a copy
 * lands in the given group or the task's own, named "<name> (copy)"; a move to the task's own
 * group answers `moved: false`. Task search shows the change at once.
 */
import * as z from 'zod';

import { SERVICE_CODES, taskIdSchema } from '../../api/schemas/opsSchemas';
import { taskGroupIdSchema } from '../../api/schemas/taskOpsSchemas';
import { ok, type Reply } from '../http/respond';
import type { SeedAccount, SeedGroup } from '../seed/seed';
import type { RouteRequest, SandboxState } from '../state/state';
import { authorize, check, opsError, type Outcome, ownTask, queryOf } from './opsCommon';

const copyQuerySchema = z.object({ taskId: taskIdSchema, taskGroupId: taskGroupIdSchema.optional() });
const moveQuerySchema = z.object({ taskId: taskIdSchema, taskGroupId: taskGroupIdSchema });

function ownGroup(state: SandboxState, account: SeedAccount, taskGroupId: string): Outcome<SeedGroup> {
  const group = state.ops.tasks.group(account, taskGroupId);
  return group
    ? { ok: true, value: group }
    : {
        ok: false,
        reply: opsError(
          'not-found',
          SERVICE_CODES.invalidTaskGroupId,
          `taskGroupId: no task group "${taskGroupId}" in this account`,
        ),
      };
}

export function handleCopy(req: RouteRequest, state: SandboxState): Reply {
  const account = authorize(req, state, 'organise', 'Duplicate Task');
  if (!account.ok) return account.reply;
  const q = check(copyQuerySchema, queryOf(req, { taskId: 'text', taskGroupId: 'text' }));
  if (!q.ok) return q.reply;
  const task = ownTask(state, account.value, q.value.taskId);
  if (!task.ok) return task.reply;
  const group = ownGroup(state, account.value, q.value.taskGroupId ?? task.value.taskGroupId);
  if (!group.ok) return group.reply;
  const copy = state.ops.tasks.copy(account.value, task.value, group.value);
  state.ops.loops.clone(task.value, copy);
  return ok({ taskId: copy.taskId, taskName: copy.taskName });
}

export function handleMove(req: RouteRequest, state: SandboxState): Reply {
  const account = authorize(req, state, 'organise', 'Move Task');
  if (!account.ok) return account.reply;
  const q = check(moveQuerySchema, queryOf(req, { taskId: 'text', taskGroupId: 'text' }));
  if (!q.ok) return q.reply;
  const task = ownTask(state, account.value, q.value.taskId);
  if (!task.ok) return task.reply;
  const group = ownGroup(state, account.value, q.value.taskGroupId);
  if (!group.ok) return group.reply;
  return ok({ moved: state.ops.tasks.move(account.value, task.value, group.value) });
}
