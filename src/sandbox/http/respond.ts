/**
 * Replies and the three error shapes of the spec. A handler returns a `Reply`; the server adds the
 * requestId (body and `x-request-id`) and writes it. Which shape an error takes depends on the
 * interface the route belongs to.
 */

/** `token`: POST /token. `main`: the rest of {base_url}. `hub`: {datahub_url}. */
export type Iface = 'token' | 'main' | 'hub';

export interface Reply {
  status: number;
  /** JSON body; the server adds `requestId` to it. */
  body?: Record<string, unknown>;
  /** A body that is deliberately not JSON (fault injection). */
  text?: { contentType: string; content: string };
  headers?: Record<string, string>;
}

export type ErrorKind =
  | 'bad-request'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'method-not-allowed'
  | 'conflict'
  | 'unsupported-media-type'
  | 'rate-limited'
  | 'internal'
  | 'unavailable'
  | 'invalid-grant'
  | 'unsupported-grant';

interface KindInfo {
  status: number;
  /** Main interface: integer codes (the analytics shape). */
  main: number;
  /** Token operations: dotted string codes, as `Invalid.Grant`. */
  token: string;
  hub: { code: string; category: string; retryable: boolean };
}

/** Status and code of each kind of error, per interface (the spec leaves most codes open). */
export const ERROR_KINDS: Record<ErrorKind, KindInfo> = {
  'bad-request': {
    status: 400,
    main: 40000,
    token: 'Invalid.Request',
    hub: { code: 'invalid_argument', category: 'invalid_request', retryable: false },
  },
  unauthorized: {
    status: 401,
    main: 40100,
    token: 'Unauthorized',
    hub: { code: 'unauthorized', category: 'forbidden', retryable: false },
  },
  forbidden: {
    status: 403,
    main: 40300,
    token: 'Forbidden',
    hub: { code: 'forbidden', category: 'forbidden', retryable: false },
  },
  'not-found': {
    status: 404,
    main: 40400,
    token: 'Not.Found',
    hub: { code: 'not_found', category: 'not_found', retryable: false },
  },
  conflict: {
    status: 409,
    main: 40900,
    token: 'Conflict',
    hub: { code: 'conflict', category: 'invalid_request', retryable: false },
  },
  'unsupported-media-type': {
    status: 415,
    main: 41500,
    token: 'Unsupported.MediaType',
    hub: { code: 'unsupported_media_type', category: 'invalid_request', retryable: false },
  },
  'method-not-allowed': {
    status: 405,
    main: 40500,
    token: 'Method.Not.Allowed',
    hub: { code: 'method_not_allowed', category: 'invalid_request', retryable: false },
  },
  'rate-limited': {
    status: 429,
    main: 42900,
    token: 'Too.Many.Requests',
    hub: { code: 'rate_limited', category: 'rate_limit', retryable: true },
  },
  internal: {
    status: 500,
    main: 50000,
    token: 'Internal.Error',
    hub: { code: 'internal', category: 'internal', retryable: true },
  },
  unavailable: {
    status: 503,
    main: 50300,
    token: 'Service.Unavailable',
    hub: { code: 'unavailable', category: 'unavailable', retryable: true },
  },
  'invalid-grant': {
    status: 400,
    main: 40000,
    token: 'Invalid.Grant',
    hub: { code: 'invalid_argument', category: 'invalid_request', retryable: false },
  },
  'unsupported-grant': {
    status: 400,
    main: 40000,
    token: 'Unsupported.GrantType',
    hub: { code: 'invalid_argument', category: 'invalid_request', retryable: false },
  },
};

export interface ErrorOptions {
  /**
   * A more specific code for the main interface: an integer (analytics parameter problems), or a
   * string name as the runs, data and task-parameter operations send (`InvalidTaskId`).
   */
  mainCode?: number | string;
  headers?: Record<string, string>;
  extra?: Record<string, unknown>;
}

export function errorReply(iface: Iface, kind: ErrorKind, message: string, options: ErrorOptions = {}): Reply {
  const info = ERROR_KINDS[kind];
  let error: Record<string, unknown>;
  if (iface === 'token') error = { code: info.token, message };
  else if (iface === 'hub')
    error = { code: info.hub.code, category: info.hub.category, message, retryable: info.hub.retryable };
  else error = { code: options.mainCode ?? info.main, message };
  return { status: info.status, body: { error, ...options.extra }, headers: options.headers };
}

export function ok(data: unknown): Reply {
  return { status: 200, body: { data } };
}

/** Retry-After in whole seconds (at least 1), with the precise wait in the body as the agent layer's retryGuidance. */
export function retryAfter(iface: Iface, kind: 'rate-limited' | 'unavailable', message: string, waitMs: number): Reply {
  const ms = Math.max(1, Math.ceil(waitMs));
  return errorReply(iface, kind, message, {
    headers: { 'retry-after': String(Math.max(1, Math.ceil(ms / 1000))) },
    extra: { retryGuidance: { retryAfterMs: ms } },
  });
}
