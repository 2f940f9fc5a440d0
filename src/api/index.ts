/** The public surface of the shared client (see docs/contracts.md). */
export { ScrapedeckClient, MAX_REQUESTS_PER_SECOND, type ClientOptions, type CallOptions, type ApiResult } from './client';
export type { FetchAllProgress, FetchAllResult, FetchAllOptions } from './fetchAll';
export { MemoryCredentialsStore, sessionFromToken, SIGN_IN_NEEDED, type Credentials, type CredentialsStore, type TokenSession } from './auth';
export { ApiError, isApiError, type ApiErrorKind } from './errors';
export { RateLimiter, UnlimitedLimiter, type RequestLimiter } from './limiter';
export { redact } from './redact';
