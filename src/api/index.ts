/** The public surface of the shared client (see docs/contracts/api.md). */
export { ScrapedeckClient, MAX_REQUESTS_PER_SECOND, type ClientOptions, type CallOptions, type ApiResult } from './client';
export type { FetchAllProgress, FetchAllResult, FetchAllOptions } from './http/fetchAll';
export { MemoryCredentialsStore, sessionFromToken, SIGN_IN_NEEDED, type Credentials, type CredentialsStore, type TokenSession } from './auth/auth';
export { ApiError, isApiError, type ApiErrorKind } from './errors/errors';
export { RateLimiter, UnlimitedLimiter, type Release, type RequestLimiter } from './http/limiter';
export { redact } from './errors/redact';
export type { BatchedResult } from './http/batches';
export { DataReader, type DataBatch, type DataReadProgress, type DataReaderOptions } from './ops/dataReader';
export type { DataPage, DataRow, DataValue, NotExportedPage } from './schemas/dataSchemas';
export type { DataPageRequest, ReadDataOptions } from './ops/data';
export { SUBTASK_ACTION_PATH, SUBTASK_ACTION_PATHS, STATUS_V2_RETRY_MS, type StatusesResult, type TaskRunStatus } from './ops/runs';
export { ServiceRoutes } from './ops/serviceRoutes';
export { LOOP_ACTION } from './ops/tasks';
export { OPS_LIMITS } from './schemas/opsSchemas';
export { parseServiceTime, type StartedRun, type SubtaskPage, type SubtaskSpelling, type SubtaskStatus } from './schemas/runSchemas';
export type { ActionProperties, CopiedTask, MoveResult, TaskAction, TaskActions, UpdateLoopItems, UpdateResult } from './schemas/taskOpsSchemas';
