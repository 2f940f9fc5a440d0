/**
 * What the page takes from the service's definitions: the query's shape and limits and the day
 * rules, the same the host checks before sending. The page imports only its protocol and model;
 * these come through here.
 */
export { ANALYTICS_LIMITS, type AnalyticsQuery, type AnalyticsRecord } from '../../api/schemas/analyticsSchemas';
export { earliestStart, isDay, todayUtc } from '../../api/schemas/dates';
