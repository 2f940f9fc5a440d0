/** Task performance analytics: one page, or every page of a query (fetchAll.ts). */
import { ApiError } from '../errors/errors';
import { type FetchAllOptions, fetchAllPages, type FetchAllResult } from '../http/fetchAll';
import type { ApiResult, CallOptions, MainCaller } from '../http/mainCaller';
import { checkAnalyticsQuery } from '../schemas/analyticsQuery';
import { todayUtc } from '../schemas/dates';
import { type AnalyticsPage, type AnalyticsQuery, analyticsResponseSchema } from '../schemas/schemas';

export class AnalyticsOps {
  constructor(
    private readonly caller: MainCaller,
    private readonly now: () => number,
  ) {}

  async queryTaskAnalytics(query: AnalyticsQuery, o: CallOptions = {}): Promise<ApiResult<AnalyticsPage>> {
    const check = checkAnalyticsQuery(query, todayUtc(new Date(this.now())));
    if (!check.ok) {
      const first = check.issues[0];
      throw new ApiError({
        kind: 'invalid-request',
        field: first?.field,
        message: `Invalid analytics query: ${check.issues.map((i) => i.message).join('; ')}`,
      });
    }
    return this.caller.call(
      {
        method: 'POST',
        path: '/taskanalytics/queries',
        body: check.query,
        retry: 'safe',
        operation: 'query task analytics',
        response: analyticsResponseSchema,
      },
      o,
    );
  }

  /** Every page of a query: page 1 at the maximum page size, then the rest concurrently, in order. */
  async queryAllTaskAnalytics(query: AnalyticsQuery, o: FetchAllOptions = {}): Promise<FetchAllResult> {
    return fetchAllPages((q, signal) => this.queryTaskAnalytics(q, { signal }), query, o);
  }
}
