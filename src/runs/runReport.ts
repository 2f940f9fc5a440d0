/**
 * How runs report a failure: through the window's one reporter (`platform/errors.ts`), so every
 * message names what failed and the task, offers "Copy Request ID" when the service sent one, and
 * lands in the log. A plan refusal names the plans that allow the operation: cloud extraction and
 * task parameters need Professional or Enterprise, duplicate and move Standard or better.
 */
import { ApiError, isApiError } from '../api/errors';
import { CLOUD_PLAN_NOTE } from '../api/ops/runs';
import { ORGANISE_PLAN_NOTE, PARAMS_PLAN_NOTE } from '../api/ops/tasks';
import type { Reporter } from '../platform/errors';

export const PRO_PLANS = ['Professional', 'Enterprise'] as const;
export const STANDARD_PLANS = ['Standard', 'Professional', 'Enterprise'] as const;

export type ReportFailure = (error: unknown, what: string, plans?: readonly string[]) => Promise<void>;

export function runReporter(reporter: Pick<Reporter, 'report'>): ReportFailure {
  return (error, what, plans = PRO_PLANS) => reporter.report(withoutPlanNote(error), what, { requiredPlans: plans });
}

/**
 * The client ends a 403's message with the plans it needs, and the reporter names them again;
 * keep the reporter's (it is the one translated) and the service's own words.
 */
function withoutPlanNote(error: unknown): unknown {
  if (!isApiError(error) || error.kind !== 'forbidden') return error;
  let message = error.message;
  for (const note of [CLOUD_PLAN_NOTE, PARAMS_PLAN_NOTE, ORGANISE_PLAN_NOTE]) message = message.replace(` ${note}`, '');
  if (message === error.message) return error;
  const { kind, status, code, category, requestId, retryable, field, maybeApplied } = error;
  return new ApiError({ kind, status, code, category, requestId, retryable, field, maybeApplied, message, cause: error });
}
