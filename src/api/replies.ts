/**
 * From an HTTP reply to a typed result or one ApiError. The three error shapes of the spec
 * (token: string code; main/analytics: integer code; hub: code/category/message/retryable)
 * are read with one loose schema; the HTTP status decides the kind.
 */
import type { z } from 'zod';
import { ApiError, type ApiErrorKind } from './errors';
import { redact, type SecretSet } from './redact';
import { anyErrorSchema } from './schemas';
import type { Reply } from './transport';

/** Which interface answered: it decides the wording of plan and auth errors. */
export type Surface = 'token' | 'main' | 'hub';

export interface ReplyContext {
  surface: Surface;
  /** A human name of the operation, for messages ("list task groups"). */
  operation: string;
  secrets: SecretSet;
  /** Wording for a 404 that means something specific here (the hub's "not the author"). */
  notFound?: string;
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

export function errorFromReply(reply: Reply, ctx: ReplyContext): ApiError {
  const parsed = anyErrorSchema.safeParse(reply.body);
  const err = parsed.success ? parsed.data.error : undefined;
  const serverMessage = err?.message !== undefined && err.message.trim() !== '' ? redact(err.message.trim(), ctx.secrets) : undefined;
  const code = err?.code;
  const common = {
    status: reply.status,
    code,
    category: err?.category,
    requestId: reply.requestId,
  };
  if (typeof code === 'string' && code.toLowerCase() === 'invalid.grant') {
    return new ApiError({ ...common, kind: 'auth', message: serverMessage ?? 'The username or password is incorrect.' });
  }
  const kind = kindOfStatus(reply.status);
  const retryable = err?.retryable ?? (kind === 'rate-limited' || kind === 'server');
  // Parameter errors read "pageSize: must be …"; keep the field so a form can point at it.
  const field = kind === 'invalid-request' ? /^([A-Za-z_][\w.]*):\s/.exec(serverMessage ?? '')?.[1] : undefined;
  return new ApiError({ ...common, kind, retryable, field, message: messageFor(kind, reply.status, serverMessage, ctx) });
}

function messageFor(kind: ApiErrorKind, status: number, serverMessage: string | undefined, ctx: ReplyContext): string {
  const said = serverMessage !== undefined ? `: ${serverMessage}` : '';
  switch (kind) {
    case 'forbidden':
      return ctx.surface === 'hub'
        ? `The data-app hub refused to ${ctx.operation}${said}`
        : `Not allowed to ${ctx.operation}${said}. ${PLAN_NOTE}`;
    case 'not-found':
      return ctx.notFound !== undefined ? `${ctx.notFound}${said}` : `Not found (${ctx.operation})${said}`;
    case 'auth':
      return ctx.surface === 'hub'
        ? `The data-app hub refused the API key (HTTP 401)${said}`
        : `The service refused the credentials for ${ctx.operation} (HTTP 401)${said}`;
    case 'rate-limited':
      return `The service is limiting the request rate (HTTP 429) and retries ran out (${ctx.operation})${said}`;
    case 'server':
      return `The service failed to ${ctx.operation} (HTTP ${status})${said}`;
    case 'invalid-request':
      return `The service rejected the request to ${ctx.operation} (HTTP ${status})${said}`;
    default:
      return `Unexpected HTTP ${status} for ${ctx.operation}${said}`;
  }
}

/**
 * A 2xx reply parsed with its schema; anything else becomes an ApiError. A shape mismatch names
 * the first offending field path (`data.data.3.taskId`) and keeps the requestId.
 */
export function parseReply<S extends z.ZodType>(reply: Reply, schema: S, ctx: ReplyContext): z.output<S> {
  if (reply.status < 200 || reply.status >= 300) throw errorFromReply(reply, ctx);
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
