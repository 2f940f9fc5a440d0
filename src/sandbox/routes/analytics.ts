/**
 * `POST /taskanalytics/queries`. Validation is `checkAnalyticsQuery` from src/api, the same function
 * the client runs before sending, so the two cannot disagree; each kind of problem gets its own
 * integer code and the message names the parameter.
 */
import { checkAnalyticsQuery, type QueryIssue } from '../../api/schemas/analyticsQuery';
import { parseDay, todayUtc } from '../../api/schemas/dates';
import { ANALYTICS_LIMITS, type AnalyticsQuery } from '../../api/schemas/schemas';
import { errorReply, ok, type Reply } from '../http/respond';
import { authenticateMain } from '../state/auth';
import { parseJson, type RouteRequest, type SandboxState } from '../state/state';
import { planRefusal } from './tasks';

/** The sandbox's integer codes for analytics 400s (the spec leaves them unspecified). */
export const ANALYTICS_CODES = {
  body: 40000,
  startInvalid: 40001,
  endInvalid: 40002,
  endAfterToday: 40003,
  startAfterEnd: 40004,
  startTooEarly: 40005,
  page: 40006,
  pageSize: 40007,
  taskIds: 40008,
  memberNames: 40009,
  memberNotInTeam: 40010,
  collectionMethod: 40011,
  timeGranularity: 40012,
} as const;

/** Classifies by the field and the facts (not the message text) so wording can change freely. */
function codeOf(issue: QueryIssue, input: unknown): number {
  const body = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const start = typeof body.start === 'string' ? parseDay(body.start) : null;
  const end = typeof body.end === 'string' ? parseDay(body.end) : null;
  switch (issue.field) {
    case 'start':
      if (start === null) return ANALYTICS_CODES.startInvalid;
      return end !== null && start > end ? ANALYTICS_CODES.startAfterEnd : ANALYTICS_CODES.startTooEarly;
    case 'end':
      return end === null ? ANALYTICS_CODES.endInvalid : ANALYTICS_CODES.endAfterToday;
    case 'page':
    case 'pageSize':
    case 'taskIds':
    case 'memberNames':
    case 'collectionMethod':
    case 'timeGranularity':
      return ANALYTICS_CODES[issue.field];
    default:
      return ANALYTICS_CODES.body;
  }
}

function invalid(code: number, message: string): Reply {
  return errorReply('main', 'bad-request', message, { mainCode: code });
}

export function handleAnalytics(req: RouteRequest, state: SandboxState): Reply {
  const auth = authenticateMain(req.headers, state.world, state.tokens);
  if (!auth.ok) return auth.reply;
  const account = auth.account;
  const refused = planRefusal(account, 'Task analytics');
  if (refused) return refused;

  const json = parseJson(req.body);
  if (!json.ok) return invalid(ANALYTICS_CODES.body, 'body: not valid JSON');
  const check = checkAnalyticsQuery(json.value, todayUtc(new Date(state.now())));
  if (!check.ok) {
    const first = check.issues[0] as QueryIssue;
    return invalid(codeOf(first, json.value), check.issues.map((i) => i.message).join('; '));
  }
  const q: AnalyticsQuery = check.query;

  // memberNames: the named team members' records (the caller's only if named); empty = caller only.
  const names = q.memberNames ?? [];
  const strangers = names.filter((n) => !account.team.includes(n));
  if (strangers.length > 0) {
    return invalid(
      ANALYTICS_CODES.memberNotInTeam,
      `memberNames: ${strangers.map((n) => JSON.stringify(n)).join(', ')} not in your team (${account.team.join(', ')})`,
    );
  }
  const userIds =
    names.length === 0
      ? [account.userId]
      : names.map((n) => state.world.byUsername.get(n.toLowerCase())?.userId ?? '').filter((id) => id !== '');

  const page = state.queryRecords({
    userIds,
    start: q.start,
    end: q.end,
    taskIds: q.taskIds,
    collectionMethod: q.collectionMethod ?? 'All',
    timeGranularity: q.timeGranularity ?? 'Day',
    page: q.page ?? ANALYTICS_LIMITS.pageDefault,
    pageSize: q.pageSize ?? ANALYTICS_LIMITS.pageSizeDefault,
  });
  return ok(page);
}
