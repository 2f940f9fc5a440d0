/**
 * One call to the main interface with credentials, shared by every operation file in `ops/`:
 * headers built before the limiter's slot and revalidated after it, a 401 on a session renewed
 * once and the call sent again (a 401 means the server did nothing), the reply parsed with its
 * schema. An operation that must not run twice (`retry: 'unsent'`) that fails after the request
 * may have reached the server comes back marked `maybeApplied`.
 */
import type * as z from 'zod';

import type { AuthHeaders, SessionKeeper } from '../auth/sessionKeeper';
import { ApiError, asMaybeApplied } from '../errors/errors';
import type { SecretSet } from '../errors/redact';
import { headerValueProblem } from '../schemas/headerValues';
import { parseReply, type ReplyContext } from './replies';
import type { RetryMode } from './retry';
import type { Transport } from './transport';

export interface CallOptions {
  signal?: AbortSignal;
}

export interface ApiResult<T> {
  data: T;
  requestId: string | undefined;
}

export interface MainCall<T> {
  method: 'GET' | 'POST';
  /** Path and query, appended to the base URL and shown in the log (nothing secret goes in a path). */
  path: string;
  /** Sent as JSON when defined. */
  body?: unknown;
  retry: RetryMode;
  /** A human name of the operation, for messages ("start task 1a2b…"). */
  operation: string;
  /** The whole reply's schema (an envelope). */
  response: z.ZodType<{ data: T; requestId?: string | undefined }>;
  notFound?: string;
  planNote?: string;
}

export interface MainCallerDeps {
  baseUrl: string;
  transport: Transport;
  auth: SessionKeeper;
  secrets: SecretSet;
  externalUserId: string | undefined;
  /** Throws when the client is closed. */
  assertOpen: () => void;
}

export class MainCaller {
  constructor(private readonly deps: MainCallerDeps) {}

  get secrets(): SecretSet {
    return this.deps.secrets;
  }

  /** The service address every call goes to. */
  get baseUrl(): string {
    return this.deps.baseUrl;
  }

  async call<T>(spec: MainCall<T>, o: CallOptions = {}): Promise<ApiResult<T>> {
    try {
      return await this.send(spec, o);
    } catch (e) {
      throw spec.retry === 'unsent' && e instanceof ApiError && mayHaveActed(e) ? asMaybeApplied(e) : e;
    }
  }

  private async send<T>(spec: MainCall<T>, o: CallOptions): Promise<ApiResult<T>> {
    this.deps.assertOpen();
    const { transport, auth } = this.deps;
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    const ctx: ReplyContext = {
      surface: 'main',
      operation: spec.operation,
      secrets: this.deps.secrets,
      notFound: spec.notFound,
      planNote: spec.planNote,
    };
    for (let renewed = false; ; renewed = true) {
      let used: AuthHeaders | undefined;
      const reply = await transport.send({
        method: spec.method,
        url: `${this.deps.baseUrl}${spec.path}`,
        logPath: spec.path,
        headers: async () => {
          used = await auth.mainHeaders(o.signal);
          return { ...this.baseHeaders(body !== undefined), ...used.headers };
        },
        revalidate: (built) => {
          if (used === undefined) return built;
          const now = auth.current(used);
          if (now === undefined) return undefined;
          if (now === used) return built; // unchanged while queued (every API key): no copy per request
          used = now;
          return { ...built, ...now.headers };
        },
        body,
        retry: spec.retry,
        signal: o.signal,
      });
      if (reply.status === 401 && !renewed && used?.accessToken !== undefined) {
        await auth.renewAfter401(used.accessToken, o.signal);
        continue;
      }
      const parsed = parseReply(reply, spec.response, ctx);
      return { data: parsed.data, requestId: reply.requestId ?? parsed.requestId };
    }
  }

  private baseHeaders(hasBody: boolean): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (hasBody) headers['content-type'] = 'application/json';
    const userId = this.deps.externalUserId;
    if (userId) {
      const problem = headerValueProblem(userId, 'The external user id (scrapedeck.externalUserId)');
      if (problem !== undefined)
        throw new ApiError({ kind: 'invalid-request', field: 'externalUserId', message: problem });
      headers['x-external-user-id'] = userId;
    }
    return headers;
  }
}

/** Whether a failure leaves open that the server acted: it answered 5xx or garbled, or the connection broke after sending. */
function mayHaveActed(e: ApiError): boolean {
  return e.maybeApplied || e.kind === 'server' || e.kind === 'bad-response';
}

/**
 * Checks a request with its schema before anything is sent: the parsed value, or an
 * `invalid-request` ApiError naming the first offending field.
 */
export function checkRequest<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : undefined;
  throw new ApiError({
    kind: 'invalid-request',
    field,
    message: `Invalid request to ${what}: ${field !== undefined ? `${field}: ` : ''}${issue?.message ?? 'bad input'}`,
  });
}

/** A query string from defined values, each encoded (ids are not secret: the log may show them). */
export function query(params: Record<string, string | number | undefined>): string {
  const parts = Object.entries(params)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}
