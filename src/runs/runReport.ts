/**
 * How runs report a failure: through the window's one reporter (`platform/reporter.ts`), so every
 * message names what failed and the task, offers "Copy Request ID" when the service sent one, and
 * lands in the log. A plan refusal names the plans that allow the operation: cloud extraction and
 * task parameters need Professional or Enterprise (context `runs`), duplicate and move Standard or
 * better (context `organiseTasks`); platform/errorText.ts holds both.
 */
import { ApiError, isApiError } from '../api/errors/errors';
import { CLOUD_PLAN_NOTE } from '../api/ops/runs';
import { ORGANISE_PLAN_NOTE, PARAMS_PLAN_NOTE } from '../api/ops/tasks';
import type { Reporter } from '../platform/reporter';

/** `what` is the whole sentence of what failed, naming the task ("Could not start “Prices”"). */
export type ReportFailure = (error: unknown, what: string, context?: 'runs' | 'organiseTasks') => Promise<void>;

export function runReporter(reporter: Pick<Reporter, 'report'>): ReportFailure {
  return (error, what, context = 'runs') => reporter.report(withoutPlanNote(error), context, what);
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
  return new ApiError({
    kind,
    status,
    code,
    category,
    requestId,
    retryable,
    field,
    maybeApplied,
    message,
    cause: error,
  });
}
