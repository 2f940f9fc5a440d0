/**
 * The shapes one HTTP exchange with the service is described in: what the transport is built with,
 * the request it sends, the reply it hands back as-is, and its counters.
 */
import type { Dispatcher } from 'undici';

import type { SecretSet } from '../errors/redact';
import type { RequestLimiter } from './limiter';
import type { RetryMode } from './retry';

export type IncomingHttpHeaders = Dispatcher.ResponseData['headers'];

export interface TransportOptions {
  dispatcher: Dispatcher;
  limiter: RequestLimiter;
  timeoutMs: number;
  maxRetries: number;
  secrets: SecretSet;
  /** Wall clock (epoch ms), for Retry-After dates. */
  now: () => number;
  log?: (line: string) => void;
  random?: () => number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
}

export interface OutgoingRequest {
  method: 'GET' | 'POST';
  url: string;
  /** What the log shows: the path and only query values that are not secret. */
  logPath: string;
  /**
   * Evaluated per attempt BEFORE the limiter grants a slot: whatever it waits for (a token
   * renewal, a secret store) must not hold a slot, or every call granted during the wait would
   * fire together when it ends.
   */
  headers: () => Record<string, string> | Promise<Record<string, string>>;
  /**
   * Called right after the slot is granted, synchronously: the headers to send now (newer ones if
   * the credentials were renewed while the call was queued), or undefined when they went stale
   * and nobody has renewed yet. The slot is then given up unused, the headers are built again
   * (waiting for the renewal without a slot), and the call takes the next slot ahead of the queue,
   * since it already waited its turn. No request leaves with credentials the server would refuse.
   */
  revalidate?: (built: Record<string, string>) => Record<string, string> | undefined;
  body?: string;
  retry: RetryMode;
  signal?: AbortSignal;
  /** Jump the limiter queue (a token renewal that other calls are waiting for). */
  priority?: boolean;
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; undefined if empty or not JSON (see `bodyError`). */
  body: unknown;
  bodyError: string | undefined;
  requestId: string | undefined;
  retries: number;
}

export interface TransportStats {
  /** Logical requests (one per call to `send`). */
  requests: number;
  /** HTTP attempts, retries included. */
  attempts: number;
  retries: number;
  /** Replies of 429 seen on the wire, retried or not. */
  rateLimited: number;
}
