/**
 * Task parameters (Professional and Enterprise): get actions, update loop items, update action
 * properties. getActions leaves out ids the account does not have; updates answer 404
 * `InvalidTaskId` for them, and 400 `TaskUpdateFail` for an action the task does not have or a
 * loop type that is not the action's.
 */
import { SERVICE_CODES } from '../../api/schemas/opsSchemas';
import {
  getActionsBodySchema,
  updateActionPropertiesBodySchema,
  updateLoopItemsBodySchema,
} from '../../api/schemas/taskOpsSchemas';
import { ok, type Reply } from '../http/respond';
import type { SeedTask } from '../seed/seed';
import { LOOP_LIMITS, type SandboxAction, urlItemProblem } from '../state/loops';
import type { RouteRequest, SandboxState } from '../state/state';
import { authorize, body, opsError, ownTask } from './opsCommon';

export function handleGetActions(req: RouteRequest, state: SandboxState): Reply {
  const account = authorize(req, state, 'params', 'Get Action Parameters');
  if (!account.ok) return account.reply;
  const b = body(req, getActionsBodySchema);
  if (!b.ok) return b.reply;
  const types = new Set(b.value.actionTypes);
  const tasks = [...new Set(b.value.taskIds)]
    .map((id) => state.ops.tasks.task(account.value, id))
    .filter((t): t is SeedTask => t !== undefined);
  return ok(
    tasks.map((t) => ({
      taskId: t.taskId,
      // No types named: every action.
      actions: state.ops.loops
        .of(t)
        .filter((a) => types.size === 0 || types.has(a.actionType))
        .map((a) => ({
          actionType: a.actionType,
          actionId: a.actionId,
          name: a.name,
          loopType: a.loopType,
          loopItems: [...a.loopItems],
        })),
    })),
  );
}

export function handleUpdateLoopItems(req: RouteRequest, state: SandboxState): Reply {
  const account = authorize(req, state, 'params', 'Update Loop Item List');
  if (!account.ok) return account.reply;
  const b = body(req, updateLoopItemsBodySchema);
  if (!b.ok) return b.reply;
  const task = ownTask(state, account.value, b.value.taskId);
  if (!task.ok) return task.reply;
  const { actionId, loopType, loopItems, isAppend } = b.value;
  const action = findAction(state, task.value, actionId);
  if (!action) return updateFail(`actionId: task "${task.value.taskName}" has no action "${actionId}"`);
  if (action.loopType !== loopType)
    return updateFail(`loopType: action "${action.name}" is a ${action.loopType} loop, not ${loopType}`);
  const next = isAppend ? [...action.loopItems, ...loopItems] : [...loopItems];
  const problem = itemsProblem(action, loopItems, next.length);
  if (problem) return opsError('bad-request', SERVICE_CODES.invalidParameter, problem);
  action.loopItems = next;
  return ok({ message: 'success' });
}

export function handleUpdateActionProperties(req: RouteRequest, state: SandboxState): Reply {
  const account = authorize(req, state, 'params', 'Update Action Parameters');
  if (!account.ok) return account.reply;
  const b = body(req, updateActionPropertiesBodySchema);
  if (!b.ok) return b.reply;
  const task = ownTask(state, account.value, b.value.taskId);
  if (!task.ok) return task.reply;
  // All or nothing: every action is checked before any is changed.
  const targets: [SandboxAction, (typeof b.value.actions)[number]][] = [];
  for (const [i, update] of b.value.actions.entries()) {
    const action = findAction(state, task.value, update.actionId);
    if (!action || action.actionType !== update.actionType) {
      return updateFail(`actions.${i}: task "${task.value.taskName}" has no ${update.actionType} "${update.actionId}"`);
    }
    targets.push([action, update]);
  }
  for (const [action, update] of targets) {
    for (const { name, value } of update.properties) {
      action.properties[name] = value;
      if (name === 'name') action.name = String(value);
    }
  }
  return ok({ message: 'success' });
}

function findAction(state: SandboxState, task: SeedTask, actionId: string): SandboxAction | undefined {
  return state.ops.loops.of(task).find((a) => a.actionId === actionId);
}

function updateFail(message: string): Reply {
  return opsError('bad-request', SERVICE_CODES.taskUpdateFail, message);
}

/** The sandbox's rules for a loop's items: 1 to 10,000 of at most 2,048 characters; a URL list holds http(s) URLs. */
function itemsProblem(action: SandboxAction, sent: string[], resulting: number): string | undefined {
  if (resulting === 0) return 'loopItems: a loop needs at least one item';
  if (resulting > LOOP_LIMITS.items)
    return `loopItems: a loop holds at most ${LOOP_LIMITS.items} items (would be ${resulting})`;
  for (const [i, item] of sent.entries()) {
    if (item.length > LOOP_LIMITS.itemLength) return `loopItems.${i}: longer than ${LOOP_LIMITS.itemLength} characters`;
    const problem =
      action.loopType === 'URLList' ? urlItemProblem(item) : item.trim() === '' ? 'an empty item' : undefined;
    if (problem) return `loopItems.${i}: ${problem}`;
  }
  return undefined;
}
