/**
 * From an HTTP reply to a typed result or one ApiError. The three error shapes of the spec
 * (token: string code; main/analytics: integer code; hub: code/category/message/retryable)
 * are read with one loose schema. A code the published document shows decides the kind whatever
 * the status (its examples are all under HTTP 400, `ServerError` included); otherwise the status does.
 */
import type { z } from 'zod';

import { kindOfKnownCode } from '../errors/errorCodes';
import { ApiError, type ApiErrorKind } from '../errors/errors';
import { redact, type SecretSet } from '../errors/redact';
import { anyErrorSchema } from '../schemas/schemas';
import { fitText } from './replyBody';
import type { Reply } from './transportTypes';

/** Which interface answered: it decides the wording of plan and auth errors. */
export type Surface = 'token' | 'main' | 'hub';

export interface ReplyContext {
  surface: Surface;
  /** A human name of the operation, for messages ("list task groups"). */
  operation: string;
  secrets: SecretSet;
  /** Wording for a 404 that means something specific here (the hub's "not the author"). */
  notFound?: string;
  /** Which plans the operation needs, said when the service refuses it (403). */
  planNote?: string;
}

const PLAN_NOTE = 'Task and analytics operations need a Standard, Professional or Enterprise plan.';

export function kindOfStatus(status: number): ApiErrorKind {
  if (status === 400) return 'invalid-request';
  if (status === 401) return 'auth';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not-found';
  if (status === 429) return 'rate-limited';
  if (status >= 500) return 'server';
  if (status >= 400) return 'invalid-request';
  return 'bad-response';
}

/**
 * The kind an error envelope's own code implies, for a reply whose HTTP status says nothing (a
 * 2xx carrying `{ error }`): integer codes start with an HTTP status (40102, 42900); string codes
 * are names (InvalidTaskId, ServerError, Forbidden).
 */
export function kindOfCode(code: string | number | undefined): ApiErrorKind {
  if (typeof code === 'number' || (typeof code === 'string' && /^\d{3,}$/.test(code))) {
    const status = Number(String(code).slice(0, 3));
    return status >= 400 ? kindOfStatus(status) : 'server';
  }
  const name = (code ?? '').toLowerCase();
  if (/unauthori[sz]ed|token|grant|credential|apikey|api_key/.test(name)) return 'auth';
  if (/forbidden|plan|permission|denied/.test(name)) return 'forbidden';
  if (/notfound|not_found|not\.found/.test(name)) return 'not-found';
  if (/toomany|ratelimit|throttl/.test(name)) return 'rate-limited';
  if (/invalid|parameter|required|bad|fail|already|running|conflict|exists/.test(name)) return 'invalid-request';
  return 'server';
}

/** True when the body is an error envelope (`error.code` and `error.message`), whatever the status. */
export function isErrorEnvelope(body: unknown): boolean {
  // Every success reply passes here: one without an `error` member is no envelope, and saying so
  // without zod skips building a failed parse's issues (most of a small reply's client-side cost).
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const parsed = anyErrorSchema.safeParse(body);
  return parsed.success && parsed.data.error.code !== undefined && parsed.data.error.message !== undefined;
}

export function errorFromReply(reply: Reply, ctx: ReplyContext): ApiError {
  const parsed = anyErrorSchema.safeParse(reply.body);
  const err = parsed.success ? parsed.data.error : undefined;
  // The service's own words, once, redacted, cut to a readable length and without control characters.
  const serverMessage =
    err?.message !== undefined && err.message.trim() !== ''
      ? fitText(redact(err.message, ctx.secrets), 500)
      : undefined;
  const code = err?.code;
  const common = {
    status: reply.status,
    code,
    category: err?.category,
    requestId: reply.requestId,
  };
  const known = kindOfKnownCode(code);
  if (known === 'auth' && ctx.surface === 'token') {
    // Invalid.Grant: a refused password, or a refresh token the service will not take (sign in again).
    return new ApiError({
      ...common,
      kind: 'auth',
      message: serverMessage ?? 'The username or password is incorrect.',
    });
  }
  const ok = reply.status >= 200 && reply.status < 300;
  const kind = known ?? (ok ? kindOfCode(code) : kindOfStatus(reply.status));
  const retryable = err?.retryable ?? (kind === 'rate-limited' || kind === 'server');
  // Parameter errors read "pageSize: must be …"; keep the field so a form can point at it.
  const field = kind === 'invalid-request' ? /^([A-Za-z_][\w.]*):\s/.exec(serverMessage ?? '')?.[1] : undefined;
  // "(HTTP 401)" says which status; a 2xx error envelope is named by its code instead.
  const label = ok ? `code ${String(code)}` : `HTTP ${reply.status}`;
  return new ApiError({ ...common, kind, retryable, field, message: messageFor(kind, label, serverMessage, ctx) });
}

function messageFor(kind: ApiErrorKind, label: string, serverMessage: string | undefined, ctx: ReplyContext): string {
  const said = serverMessage !== undefined ? `: ${serverMessage}` : '';
  switch (kind) {
    case 'forbidden':
      return ctx.surface === 'hub'
        ? `The data-app hub refused to ${ctx.operation}${said}`
        : `Not allowed to ${ctx.operation}${said.replace(/\.$/, '')}. ${ctx.planNote ?? PLAN_NOTE}`;
    case 'not-found':
      return ctx.notFound !== undefined ? `${ctx.notFound}${said}` : `Not found (${ctx.operation})${said}`;
    case 'auth':
      return ctx.surface === 'hub'
        ? `The data-app hub refused the API key (${label})${said}`
        : `The service refused the credentials for ${ctx.operation} (${label})${said}`;
    case 'rate-limited':
      return `The service is limiting the request rate (${label}) and retries ran out (${ctx.operation})${said}`;
    case 'server':
      return `The service failed to ${ctx.operation} (${label})${said}`;
    case 'invalid-request':
      return `The service rejected the request to ${ctx.operation} (${label})${said}`;
    default:
      return `Unexpected reply (${label}) to ${ctx.operation}${said}`;
  }
}

/**
 * A 2xx reply parsed with its schema; anything else becomes an ApiError. A shape mismatch names
 * the first offending field path (`data.data.3.taskId`) and keeps the requestId.
 */
export function parseReply<S extends z.ZodType>(reply: Reply, schema: S, ctx: ReplyContext): z.output<S> {
  // The spec leaves some statuses "not specified": an error envelope is the service's own word,
  // code and message, even on HTTP 200.
  if (reply.status < 200 || reply.status >= 300 || isErrorEnvelope(reply.body)) throw errorFromReply(reply, ctx);
  if (reply.bodyError !== undefined || reply.body === undefined) {
    throw new ApiError({
      kind: 'bad-response',
      status: reply.status,
      requestId: reply.requestId,
      message: `The reply to ${ctx.operation} could not be read: ${reply.bodyError ?? 'the body is empty'}`,
    });
  }
  const result = schema.safeParse(reply.body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : '(body)';
  return badShape(reply, ctx, path, issue?.message ?? 'unexpected shape');
}

function badShape(reply: Reply, ctx: ReplyContext, field: string, detail: string): never {
  throw new ApiError({
    kind: 'bad-response',
    status: reply.status,
    requestId: reply.requestId,
    field,
    message: `The reply to ${ctx.operation} does not match the spec at ${field}: ${redact(detail, ctx.secrets)}`,
  });
}
