/** `GET /taskGroup` and `GET /task/search?taskGroupId=…` (Standard plan and up). */
import { authenticateMain } from '../auth';
import type { SeedAccount } from '../seed';
import { errorReply, ok, type Reply } from '../respond';
import type { RouteRequest, SandboxState } from '../state';

export const TASK_CODES = { missingTaskGroupId: 40020, unknownTaskGroup: 40401 } as const;

/** The plan table: everything but tokens and the hub needs Standard, Professional or Enterprise. */
export function planRefusal(account: SeedAccount, operation: string): Reply | undefined {
  if (account.plan !== 'Free') return undefined;
  return errorReply('main', 'forbidden', `${operation} requires a Standard, Professional or Enterprise plan; this account is on the Free plan.`);
}

export function handleTaskGroups(req: RouteRequest, state: SandboxState): Reply {
  const auth = authenticateMain(req.headers, state.world, state.tokens);
  if (!auth.ok) return auth.reply;
  const refused = planRefusal(auth.account, 'Get Task Group Information');
  if (refused) return refused;
  return ok(auth.account.groups.map((g) => ({ taskGroupId: g.taskGroupId, taskGroupName: g.taskGroupName })));
}

export function handleTaskSearch(req: RouteRequest, state: SandboxState): Reply {
  const auth = authenticateMain(req.headers, state.world, state.tokens);
  if (!auth.ok) return auth.reply;
  const refused = planRefusal(auth.account, 'Search Task');
  if (refused) return refused;
  const id = req.url.searchParams.get('taskGroupId')?.trim();
  if (!id) {
    return errorReply('main', 'bad-request', 'taskGroupId: query parameter is required', { mainCode: TASK_CODES.missingTaskGroupId });
  }
  const group = auth.account.groups.find((g) => g.taskGroupId === id);
  if (!group) {
    return errorReply('main', 'not-found', `taskGroupId: no task group "${id}" in this account`, { mainCode: TASK_CODES.unknownTaskGroup });
  }
  return ok(group.tasks.map((t) => ({ taskId: t.taskId, taskName: t.taskName })));
}
