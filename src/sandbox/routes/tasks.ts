/**
 * `GET /taskGroup` and `GET /task/search?taskGroupId=…` (Standard plan and up), shaped as the
 * published examples: group ids as numbers, errors with string codes (`InvalidParameter…`).
 */
import { SERVICE_CODES } from '../../api/schemas/opsSchemas';
import { errorReply, ok, type Reply } from '../http/respond';
import type { SeedAccount } from '../seed/seed';
import { authenticateMain } from '../state/auth';
import type { RouteRequest, SandboxState } from '../state/state';
import { opsError } from './opsCommon';

/** The plan table: everything but tokens and the hub needs Standard, Professional or Enterprise (analytics: integer codes). */
export function planRefusal(account: SeedAccount, operation: string): Reply | undefined {
  if (account.plan !== 'Free') return undefined;
  return errorReply(
    'main',
    'forbidden',
    `${operation} requires a Standard, Professional or Enterprise plan; this account is on the Free plan.`,
  );
}

/** The same refusal with the string code the task operations' published errors use. */
function taskPlanRefusal(account: SeedAccount, operation: string): Reply | undefined {
  if (account.plan !== 'Free') return undefined;
  return opsError(
    'forbidden',
    SERVICE_CODES.plan,
    `${operation} requires a Standard, Professional or Enterprise plan; this account is on the Free plan.`,
  );
}

export function handleTaskGroups(req: RouteRequest, state: SandboxState): Reply {
  const auth = authenticateMain(req.headers, state.world, state.tokens);
  if (!auth.ok) return auth.reply;
  const refused = taskPlanRefusal(auth.account, 'Get Task Group Information');
  if (refused) return refused;
  // A number, as the published example shows it (the seed's ids are all digits).
  return ok(auth.account.groups.map((g) => ({ taskGroupId: Number(g.taskGroupId), taskGroupName: g.taskGroupName })));
}

export function handleTaskSearch(req: RouteRequest, state: SandboxState): Reply {
  const auth = authenticateMain(req.headers, state.world, state.tokens);
  if (!auth.ok) return auth.reply;
  const refused = taskPlanRefusal(auth.account, 'Search Task');
  if (refused) return refused;
  const id = req.url.searchParams.get('taskGroupId')?.trim();
  if (!id) return opsError('bad-request', SERVICE_CODES.required, 'taskGroupId: query parameter is required');
  const group = auth.account.groups.find((g) => g.taskGroupId === id);
  if (!group)
    return opsError(
      'not-found',
      SERVICE_CODES.invalidTaskGroupId,
      `taskGroupId: no task group "${id}" in this account`,
    );
  return ok(group.tasks.map((t) => ({ taskId: t.taskId, taskName: t.taskName })));
}
