/**
 * The whole validity check of an analytics query: the static schema plus the date rules that
 * need today's date. The client refuses before sending; the sandbox answers 400; the webview
 * shows each issue next to its field. One function so all three say the same thing.
 */
import { type AnalyticsQuery, analyticsQuerySchema } from './analyticsSchemas';
import { checkDateRange } from './dates';

export type AnalyticsField = keyof AnalyticsQuery | 'body';

export interface QueryIssue {
  field: AnalyticsField;
  message: string;
}

export type QueryCheck = { ok: true; query: AnalyticsQuery } | { ok: false; issues: QueryIssue[] };

const KNOWN_FIELDS = new Set<string>(Object.keys(analyticsQuerySchema.shape));

export function checkAnalyticsQuery(input: unknown, today: string): QueryCheck {
  const parsed = analyticsQuerySchema.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue): QueryIssue => {
      const head = issue.path[0];
      const field: AnalyticsField =
        typeof head === 'string' && KNOWN_FIELDS.has(head) ? (head as AnalyticsField) : 'body';
      const where = issue.path.length > 0 ? issue.path.join('.') : 'body';
      return { field, message: `${where}: ${issue.message}` };
    });
    return { ok: false, issues };
  }
  const dateIssues = checkDateRange(parsed.data.start, parsed.data.end, today);
  if (dateIssues.length > 0) return { ok: false, issues: dateIssues };
  return { ok: true, query: parsed.data };
}
