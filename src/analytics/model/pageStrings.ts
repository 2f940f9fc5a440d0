/**
 * Every English string the analytics page shows, by key, with `{0}` placeholders. The host
 * translates each entry with vscode.l10n.t (analytics/host/translatePage.ts) and writes the table into
 * the page's HTML; the page parses it (`pageStringsFrom`), and `pageText` formats from it. A
 * missing or bad table, or a bad entry, falls back to the English here: the page never breaks
 * for a translation. scripts/l10n-bundle.mjs reads this table (the values of PAGE_STRINGS) into
 * l10n/bundle.l10n.json, so keep every value a plain string literal.
 *
 * Pure and shared by the host and the page (like the number locale in format.ts, the table is
 * set once when the page boots).
 */
import * as z from 'zod/mini';

export const PAGE_STRINGS = {
  'page.title': 'Task analytics',
  'page.waiting': 'Waiting for Scrapedeck…',
  'page.noRowsMatch': 'No rows match this query.',
  'page.results': 'Results',
  'page.summaryHeading': 'Summary',
  'page.chartsHeading': 'Charts',
  'page.recordsHeading': 'Records',

  'notice.signedOut': 'You are signed out. Sign in from the Scrapedeck view to run queries.',
  'notice.accountChanged': "The account changed: the previous account's results and task choice were cleared.",
  'notice.signedOutCleared':
    "You are signed out: the previous account's results and task choice were cleared. Sign in from the Scrapedeck view to run queries.",
  'notice.droppedRows': 'The {0} rows fetched before were too many to keep across a reload; fetching them again.',
  'notice.cancelled': '{0} was cancelled.',
  'notice.stopped': '{0} was stopped: {1}',
  'notice.exporting': 'Exporting {0} rows as {1}…',
  'notice.exported': 'Exported to {0}',

  'action.query': 'The query',
  'action.rest': 'Fetching the rest of the rows',
  'action.fetchAll': 'Fetching all pages',
  'action.pickTasks': 'Choosing tasks',
  'action.export': 'The export',
  'export.notHeld':
    'This result was saved before a reload and its rows are no longer held. Run the query again, then export.',

  'form.label': 'Analytics query',
  'form.start': 'Start date',
  'form.startHelp': 'UTC calendar day, within the last three months.',
  'form.end': 'End date',
  'form.endHelp': 'UTC, not after today.',
  'form.granularity': 'Granularity',
  'form.method': 'Collection method',
  'form.pageSize': 'Page size',
  'form.pageSizeHelp': '{0}–{1} rows per page.',
  'form.tasks': 'Tasks',
  'form.members': 'Members',
  'form.membersHelp':
    "Team members' names, separated by commas or new lines (at most {0}). Empty means only you. Ctrl+Enter runs the query.",
  'form.onlyMe': 'Only me',
  'form.chooseTasks': 'Choose tasks…',
  'form.useAllTasks': 'Use all tasks',
  'form.useAllTasksTitle': 'Clear the choice: include all tasks',
  'form.run': 'Run query',
  'form.fetchAll': 'Fetch all pages',
  'form.fetchAllTitle': 'Fetch every page of this query (within the rate limit)',
  'form.pageSizeIssue': 'Page size must be a whole number from {0} to {1}.',
  'form.membersIssue': 'At most {0} members (you entered {1}).',
  'form.tasksIssue': 'At most {0} tasks (you chose {1}).',
  'form.endAfterToday': 'End must not be after today ({0}, UTC).',
  'form.startAfterEnd': 'Start must not be after end ({0}).',
  'form.startTooEarly': 'Start must be within the last three months (not before {0}).',
  'option.Day': 'Day',
  'option.Week': 'Week',
  'option.Month': 'Month',
  'option.All': 'All',
  'option.Cloud': 'Cloud',
  'option.Local': 'Local',

  'chips.label': 'Chosen tasks',
  'chips.allTasks': 'All tasks',
  'chips.taskId': 'Task ID {0}',
  'chips.fewer': 'Show fewer',
  'chips.fewerTitle': 'Show only the first tasks',
  'chips.more': '+{0} more',
  'chips.moreTitle': 'Show all {0} chosen tasks',

  'query.title': 'Analytics: {0}',
  'query.moreTasks': '{0} +{1} more',
  'query.byDay': 'by day',
  'query.byWeek': 'by week',
  'query.byMonth': 'by month',

  'status.rowsFetched': 'Rows fetched',
  'status.cancel': 'Cancel',
  'status.running': 'Running query…',
  'status.fetchingAll': 'Fetching all pages…',
  'status.fetchingRest': 'Fetching the rest of the rows…',
  'status.fetchedOf': 'Fetched {0} of {1} rows…',
  'status.fetchedOfFirst': 'Fetched {0} of the first {1} rows ({2} in all)…',

  'error.failed': '{0} failed.',
  'error.failedHttp': '{0} failed (HTTP {1}).',
  'error.code': 'Code {0}: {1}',
  'error.requestId': 'Request ID:',
  'error.copyRequestId': 'Copy request ID',
  'error.rowsLost': 'Some of the rows did not reach this page. Use “Fetch all pages” to get them again.',

  'coverage.one': 'Figures for the one row of this query.',
  'coverage.all': 'Figures for all {0} rows of this query.',
  'coverage.first': 'Figures for the first {0} of {1} rows only.',
  'coverage.tag': 'first {0} of {1} rows',
  'coverage.fetchingRest': 'Fetching the rest…',

  'pager.rows': 'Rows {0}–{1} of {2}',
  'pager.noRows': 'No rows on this page ({0} in total)',
  'pager.label': '{0} · Page {1} of {2}',
  'pager.oneRow': 'The one row',
  'pager.allRows': 'All {0} rows',
  'pager.allFetched': 'All {0} rows fetched so far (of {1})',
  'pager.pages': 'Pages',
  'pager.first': 'First',
  'pager.firstLabel': 'First page',
  'pager.previous': 'Previous',
  'pager.previousLabel': 'Previous page',
  'pager.next': 'Next',
  'pager.nextLabel': 'Next page',
  'pager.last': 'Last',
  'pager.lastLabel': 'Last page',
  'pager.lastWaiting': 'The last rows are not fetched yet',
  'pager.showAll': 'Show all',
  'pager.showAllTitle': 'Show every row fetched in one scrollable table instead of pages',
  'pager.exportCsv': 'Export CSV',
  'pager.exportJson': 'Export JSON',

  'summary.label': 'Summary of the rows fetched',
  'summary.labelAll': 'Summary of every row of the query',
  'summary.labelPart': 'Summary of the {0}',
  'summary.noRow': '{0}. No row reports it.',
  'summary.partOnly': '{0} (the {1} only)',
  'summary.runs': 'Runs in this query',
  'summary.runsTitle':
    'Runs, cloud and local, that analytics counts in the query’s days, over the rows fetched (not the service’s count of all cloud runs)',
  'summary.successRate': 'Success rate',
  'summary.successRateTitle': 'Successful runs ÷ runs, over the {0} of {1} rows that report both',
  'summary.failures': 'Failures',
  'summary.failuresTitle': 'Failed runs over the rows fetched',
  'summary.collected': 'Records collected',
  'summary.collectedTitle': 'Total records collected',
  'summary.deduplicated': 'After dedup',
  'summary.deduplicatedTitle': 'Records remaining after deduplication',
  'summary.time': 'Execution time',
  'summary.timeTitle': 'Total execution time',
  'summary.proxy': 'Proxy IP usage',
  'summary.proxyTitle': 'Proxy IP usage as the service reports it, in its own unit (not a number of addresses)',
  'summary.captchas': 'CAPTCHAs',
  'summary.captchasTitle': 'CAPTCHAs processed',
  'summary.cost': 'Cost',
  'summary.costTitle': 'Resource cost (balance)',

  'chart.runs': 'Successful and failed runs',
  'chart.successful': 'Successful runs',
  'chart.failed': 'Failed runs',
  'chart.records': 'Records collected and after deduplication',
  'chart.collected': 'Collected',
  'chart.deduplicated': 'After dedup',
  'chart.duration': 'Average duration per run',
  'chart.noData': 'No data for these rows',
  'chart.noDataNote': '(no data)',
  'chart.fallback': '{0}. The table below lists every figure.',
  'chart.titlePart': '{0} ({1})',
  'chart.describeNone': '{0}: no data.',
  'chart.describeOne': '{0}, one date bucket, {1}. The table below lists every figure.',
  'chart.describeMany': '{0}, {1} date buckets from {2} to {3}. The table below lists every figure.',

  'table.label': 'Analytics records',
  'table.caption': 'Analytics records. Column headers are buttons that sort the table.',
  'table.region': 'Records table',
  'table.noRows': 'No rows',
  'table.sortBy': '{0}. Sort by {1}',
  'table.notReported': 'Not reported',
  'table.idOnly': 'Task name not reported; showing its id',
  // One header and tooltip per column of analytics/model/tableModel.ts (a unit test keeps them in step).
  'column.task': 'Task',
  'column.task.title': 'Task name, or the task id when the name is not known',
  'column.taskId': 'Task ID',
  'column.taskId.title': 'Task id',
  'column.userId': 'User ID',
  'column.userId.title': 'User id',
  'column.dayKey': 'Date bucket',
  'column.dayKey.title': 'Day, year-week (with its dates) or month',
  'column.weekStartDate': 'Week start',
  'column.weekStartDate.title': 'Start of the week (Week granularity)',
  'column.weekEndDate': 'Week end',
  'column.weekEndDate.title': 'End of the week (Week granularity)',
  'column.collectionMethod': 'Method',
  'column.collectionMethod.title': 'Collection method: Cloud or Local',
  'column.totalCollected': 'Collected',
  'column.totalCollected.title': 'Total records collected',
  'column.deduplicatedVolume': 'After dedup',
  'column.deduplicatedVolume.title': 'Records remaining after deduplication',
  'column.runCount': 'Runs',
  'column.runCount.title': 'Total runs',
  'column.successCount': 'Successes',
  'column.successCount.title': 'Successful runs',
  'column.failureCount': 'Failures',
  'column.failureCount.title': 'Failed runs',
  'column.successRate': 'Success rate',
  'column.successRate.title': 'Successful runs as a fraction, as reported',
  'column.failureRate': 'Failure rate',
  'column.failureRate.title': 'Failed runs as a fraction, as reported',
  'column.durationPerRunSeconds': 'Avg duration',
  'column.durationPerRunSeconds.title': 'Average duration per run',
  'column.totalExecutionSeconds': 'Total time',
  'column.totalExecutionSeconds.title': 'Total execution time',
  'column.captchaCount': 'CAPTCHAs',
  'column.captchaCount.title': 'CAPTCHAs processed',
  'column.simpleTemplateCount': 'Templates',
  'column.simpleTemplateCount.title': 'Simple template usage',
  'column.proxyIpCount': 'Proxy IP usage',
  'column.proxyIpCount.title': 'Proxy IP usage as the service reports it, in its own unit (not a number of addresses)',
  'column.balance': 'Cost',
  'column.balance.title': 'Resource cost (balance)',
} as const satisfies Record<string, string>;

export type PageStringKey = keyof typeof PAGE_STRINGS;
export type PageStrings = Record<PageStringKey, string>;

const KEYS = Object.keys(PAGE_STRINGS) as PageStringKey[];

/** The `{n}` placeholders of a message, sorted: a translation must keep exactly these. */
export function placeholdersOf(text: string): string {
  return [...text.matchAll(/\{(\d+)\}/g)]
    .map((m) => m[1])
    .sort()
    .join(',');
}

/** What the host hands the page: any object of strings (extra keys are ignored, missing ones are English). */
const tableSchema = z.record(z.string(), z.unknown());

/**
 * The page's table from whatever arrived (parsed JSON, or anything else): each entry that is a
 * non-blank string keeping its message's placeholders is used, every other one is English.
 */
export function pageStringsFrom(raw: unknown): PageStrings {
  const parsed = tableSchema.safeParse(raw);
  const given = parsed.success ? parsed.data : {};
  const out = { ...PAGE_STRINGS } as PageStrings;
  for (const key of KEYS) {
    const v = Object.prototype.hasOwnProperty.call(given, key) ? given[key] : undefined;
    if (typeof v === 'string' && v.trim() !== '' && placeholdersOf(v) === placeholdersOf(PAGE_STRINGS[key]))
      out[key] = v;
  }
  return out;
}

/** `{0}`, `{1}`… replaced by the arguments (numbers are formatted by the caller, in the UI locale). */
export function formatMessage(template: string, args: readonly (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (match, i: string) => {
    const v = args[Number(i)];
    return v === undefined ? match : String(v);
  });
}

let current: PageStrings = { ...PAGE_STRINGS };

/** Sets the table the page speaks from (the page does this once as it boots); returns it. */
export function setPageStrings(table: PageStrings): PageStrings {
  current = table;
  return current;
}

/** The page's words: the entry for `key`, its placeholders filled. */
export function pageText(key: PageStringKey, ...args: (string | number)[]): string {
  return formatMessage(current[key], args);
}

/** A key made at run time (a column's id): its entry when the table has one, else `fallback`. */
export function pageTextOr(key: string, fallback: string): string {
  return Object.prototype.hasOwnProperty.call(current, key) ? current[key as PageStringKey] : fallback;
}
