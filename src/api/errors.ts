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

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.status = init.status;
    this.code = init.code;
    this.category = init.category;
    this.requestId = init.requestId;
    this.retryable = init.retryable ?? false;
    this.field = init.field;
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
    };
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
