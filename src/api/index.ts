/** The public surface of the shared client (see docs/contracts/api.md). */
export {
  type Credentials,
  type CredentialsStore,
  MemoryCredentialsStore,
  sessionFromToken,
  SIGN_IN_NEEDED,
  type TokenSession,
} from './auth/auth';
export {
  type ApiResult,
  type CallOptions,
  type ClientOptions,
  MAX_REQUESTS_PER_SECOND,
  ScrapedeckClient,
} from './client';
export { ApiError, type ApiErrorKind, isApiError } from './errors/errors';
export { redact } from './errors/redact';
export type { BatchedResult } from './http/batches';
export type { FetchAllOptions, FetchAllProgress, FetchAllResult } from './http/fetchAll';
export { RateLimiter, type Release, type RequestLimiter, UnlimitedLimiter } from './http/limiter';
export type { DataPageRequest, ReadDataOptions } from './ops/data';
export { type DataBatch, DataReader, type DataReaderOptions, type DataReadProgress } from './ops/dataReader';
export {
  STATUS_V2_RETRY_MS,
  type StatusesResult,
  SUBTASK_ACTION_PATH,
  SUBTASK_ACTION_PATHS,
  type TaskRunStatus,
} from './ops/runs';
export { ServiceRoutes } from './ops/serviceRoutes';
export { LOOP_ACTION } from './ops/tasks';
export type { DataPage, DataRow, DataValue, NotExportedPage } from './schemas/dataSchemas';
export { OPS_LIMITS } from './schemas/opsSchemas';
export {
  parseServiceTime,
  type StartedRun,
  type SubtaskPage,
  type SubtaskSpelling,
  type SubtaskStatus,
} from './schemas/runSchemas';
export type {
  ActionProperties,
  CopiedTask,
  MoveResult,
  TaskAction,
  TaskActions,
  UpdateLoopItems,
  UpdateResult,
} from './schemas/taskOpsSchemas';
