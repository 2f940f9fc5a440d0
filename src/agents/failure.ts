/**
 * Failures as a model reads them: what failed (naming the task or app), the service's message once,
 * at most one hint, and the request id in the text (a model has no "Copy Request ID" button, and
 * the person it talks to may need it for support). Composed with the same sentence rules as the
 * extension's messages (`platform/errorText.ts`).
 */
import { errorMessage, isApiError } from '../api/errors/errors';
import { joinSentences, kindHint, sentence, TASK_PLANS } from '../platform/errorText';
import { refusal, type ToolContext, type ToolReply } from './tool';

/** The plans each area needs, named once in a 403's hint (spec: the plan table). */
export const RUN_PLANS = ['Professional', 'Enterprise'] as const;
export const DATA_PLANS = TASK_PLANS;

export interface FailureSubject {
  /** What failed, without a full stop: "Could not start a run of “Amazon prices”". */
  failed: string;
  /** Plans that allow the operation, named in the hint of a 403. */
  plans?: readonly string[];
}

export function failureText(
  error: unknown,
  subject: FailureSubject,
  ctx: Pick<ToolContext, 't' | 'signInHint'>,
): string {
  const { t } = ctx;
  const api = isApiError(error) ? error : undefined;
  if (api?.kind === 'cancelled' && !api.maybeApplied)
    return sentence(t('{0}: the call was cancelled before it finished', subject.failed));
  const raw = api?.message ?? errorMessage(error);
  const hint = kindHint(t, api?.kind, subject.plans, raw, {
    auth: ctx.signInHint,
    rateLimited: t('The service is limiting requests: wait a few seconds before calling again.'),
    unreachable: t('The service could not be reached: check the connection and the service address.'),
  });
  const requestId = api?.requestId ? t('Request ID (for support): {0}.', api.requestId) : '';
  return joinSentences([sentence(subject.failed), sentence(raw), hint === undefined ? '' : sentence(hint), requestId]);
}

export function failure(
  error: unknown,
  subject: FailureSubject,
  ctx: Pick<ToolContext, 't' | 'signInHint'>,
): ToolReply {
  return refusal(failureText(error, subject, ctx));
}
