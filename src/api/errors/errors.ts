/**
 * One error type for everything that can go wrong talking to the service. The three error
 * shapes of the spec (token, analytics, hub), transport failures and parse failures all map
 * onto it, and it always carries the requestId when the server sent one.
 */

export type ApiErrorKind =
  | 'auth' // 401, or a session that cannot be renewed: sign-in is needed
  | 'forbidden' // 403: the plan or the account does not allow this
  | 'not-found' // 404
  | 'invalid-request' // 400, or a request refused before sending
  | 'rate-limited' // 429 that outlasted the retries
  | 'server' // 5xx
  | 'network' // connection refused, reset, DNS, TLS
  | 'timeout'
  | 'bad-response' // the reply did not match the spec's shape
  | 'cancelled'; // the caller's AbortSignal fired

export interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  status?: number;
  code?: string | number;
  category?: string;
  requestId?: string;
  retryable?: boolean;
  /** For invalid requests and bad responses: which field. */
  field?: string;
  /**
   * An operation that must not run twice (start, stop, copy, remove…) failed after the request
   * may have reached the server (a 5xx, a time-out, a dropped connection, an unreadable 2xx): it
   * may have been carried out. It was not retried; check the state before trying again.
   */
  maybeApplied?: boolean;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  readonly code: string | number | undefined;
  readonly category: string | undefined;
  readonly requestId: string | undefined;
  readonly retryable: boolean;
  readonly field: string | undefined;
  readonly maybeApplied: boolean;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.code = init.code;
    this.category = init.category;
    this.requestId = init.requestId;
    this.retryable = init.retryable ?? false;
    this.field = init.field;
    this.maybeApplied = init.maybeApplied ?? false;
  }

  /** A one-line description for people, with the requestId to quote to support. */
  describe(): string {
    const parts = [this.message];
    if (this.code !== undefined) parts.push(`(code ${this.code})`);
    if (this.requestId) parts.push(`— request ID ${this.requestId}`);
    return parts.join(' ');
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      message: this.message,
      status: this.status,
      code: this.code,
      category: this.category,
      requestId: this.requestId,
      retryable: this.retryable,
      field: this.field,
      maybeApplied: this.maybeApplied,
    };
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

const MAYBE_APPLIED_NOTE = 'It may have been carried out: check before trying again.';

/** The same error, marked as possibly carried out (see `maybeApplied`), its message saying so once. */
export function asMaybeApplied(e: ApiError): ApiError {
  if (e.message.endsWith(MAYBE_APPLIED_NOTE)) return e;
  return new ApiError({
    kind: e.kind,
    status: e.status,
    code: e.code,
    category: e.category,
    requestId: e.requestId,
    retryable: false,
    field: e.field,
    maybeApplied: true,
    message: `${e.message.replace(/[.\s]+$/, '')}. ${MAYBE_APPLIED_NOTE}`,
    cause: e,
  });
}

/** The message of anything thrown: an Error's own, or the thrown value as text. */
export function errorMessage(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}
