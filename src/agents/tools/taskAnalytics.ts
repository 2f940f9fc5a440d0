/**
 * scrapedeck_task_analytics: totals, per-period figures and the tasks ranked by a figure, for a
 * task set and a date range. The spec's rules (dates, three months, 100 task ids) are checked with
 * the same function the client and the sandbox use before anything is sent; every page is fetched
 * with the client's fetch-all, and only the digest goes back to the model.
 */
import * as z from 'zod';

import { checkAnalyticsQuery } from '../../api/schemas/analyticsQuery';
import { earliestStart, todayUtc } from '../../api/schemas/dates';
import {
  ANALYTICS_LIMITS,
  type AnalyticsQuery,
  type AnalyticsRecord,
  collectionMethodFilterSchema,
  timeGranularitySchema,
} from '../../api/schemas/schemas';
import { byPeriod, byTask, rankTasks, SORT_KEYS, totals } from '../analyticsDigest';
import { catalogProblem, type CatalogTask, loadCatalog, selectTasks } from '../catalog';
import { failuresCount, runsCount, tasksCount } from '../counts';
import { DATA_PLANS, failure } from '../failure';
import { limitSchema, refsOrScope, scopeFields, taskRefSchema } from '../inputs';
import { periodRange, PERIODS } from '../periods';
import { defineTool, refusal, reply, type ToolContext } from '../tool';

/** More periods than this (Day over months) are cut to the latest ones; Week or Month say it shorter. */
export const MAX_PERIODS = 40;

const dayText = z.string().trim().max(32).describe('A UTC calendar day, yyyy-MM-dd.');

const input = z
  .object({
    tasks: z
      .array(taskRefSchema)
      .min(1)
      .max(500)
      .optional()
      .describe('Only these tasks (ids, or unique exact names). Omit for all tasks of the account.'),
    ...scopeFields,
    period: z
      .enum(PERIODS)
      .optional()
      .describe(
        'A named UTC date range (default last7Days). thisWeek starts on Monday. Do not combine with start/end.',
      ),
    start: dayText
      .optional()
      .describe('First day (yyyy-MM-dd, UTC, inclusive); needs end. Within the last three months.'),
    end: dayText.optional().describe('Last day (yyyy-MM-dd, UTC, inclusive), not after today; needs start.'),
    granularity: z
      .enum(timeGranularitySchema.options)
      .default('Day')
      .describe('Bucket of the per-period figures: Day, Week (ISO weeks) or Month.'),
    collectionMethod: z
      .enum(collectionMethodFilterSchema.options)
      .default('All')
      .describe('Cloud runs, Local runs, or All (both).'),
    sortBy: z
      .enum(SORT_KEYS)
      .default('failures')
      .describe(
        'Rank tasks by this figure, highest first: failures, failureRate, runs, collected (rows), avgDuration (seconds per run) or cost.',
      ),
    limit: limitSchema(50, 10, 'ranked tasks'),
  })
  .strict()
  .refine((i) => (i.start === undefined) === (i.end === undefined), {
    message: 'start and end go together',
    path: ['end'],
  })
  .refine((i) => i.period === undefined || i.start === undefined, {
    message: 'use either period or start/end, not both',
    path: ['period'],
  })
  .refine(...refsOrScope('tasks'));

type Input = z.output<typeof input>;

export const taskAnalyticsTool = defineTool({
  name: 'scrapedeck_task_analytics',
  title: 'Scrapedeck Task Analytics',
  userDescription: 'Summarise runs, failures and rows of your tasks over a date range.',
  reference: 'scrapedeckAnalytics',
  modelDescription:
    'Summarises task performance analytics of the signed-in Scrapedeck account for a date range (UTC days, within the last three months, not after today): ' +
    'totals (runs, successes, failures, success rate, rows collected, execution seconds, cost), the same figures per Day/Week/Month, and the tasks ranked by a figure (sortBy: failures, failureRate, runs, collected, avgDuration, cost). ' +
    'Select tasks by ids/names, by group, by part of the name, or omit all three for every task. Use period (today, yesterday, thisWeek, lastWeek, last7Days, last30Days, thisMonth, lastMonth) or start/end. ' +
    'Answers questions such as "which tasks failed most this week" (period thisWeek, sortBy failures). Returns at most `limit` ranked tasks with the total number of tasks that had records; null means not known, not zero.',
  readOnly: true,
  idempotent: true,
  input,
  progress: (i, t) =>
    t(
      'Summarising Scrapedeck task analytics ({0})…',
      i.period ?? (i.start !== undefined ? `${i.start} – ${i.end ?? ''}` : 'last7Days'),
    ),
  run: runAnalytics,
});

async function runAnalytics(i: Input, ctx: ToolContext) {
  const { t } = ctx;
  const now = ctx.now();
  const today = todayUtc(new Date(now));
  const range =
    i.start !== undefined && i.end !== undefined
      ? { start: i.start, end: i.end }
      : periodRange(i.period ?? 'last7Days', now);

  // The task set: every task (no ids sent), or the ones named, in requests of at most 100 ids.
  let selected: CatalogTask[] | undefined;
  const names = new Map<string, string>();
  if (i.tasks !== undefined || i.group !== undefined || i.query !== undefined) {
    try {
      const catalog = await loadCatalog(ctx.client, ctx);
      selected = selectTasks(catalog, i.tasks, i, t);
    } catch (e) {
      return refusal(catalogProblem(e, t('Could not find the tasks for the analytics'), ctx));
    }
    if (selected.length === 0)
      return refusal(
        t(
          'No task matches that group or name, so no analytics were asked for. Use scrapedeck_list_tasks to see the tasks.',
        ),
      );
    for (const task of selected) names.set(task.taskId, task.taskName);
  }
  const base: AnalyticsQuery = {
    start: range.start,
    end: range.end,
    collectionMethod: i.collectionMethod,
    timeGranularity: i.granularity,
  };
  const queries =
    selected === undefined
      ? [base]
      : chunk(
          selected.map((s) => s.taskId),
          ANALYTICS_LIMITS.maxTaskIds,
        ).map((taskIds) => ({ ...base, taskIds }));
  for (const q of queries) {
    const check = checkAnalyticsQuery(q, today);
    if (!check.ok) {
      const issues = check.issues.map((issue) => issue.message).join('; ');
      return refusal(
        t(
          'The analytics query was not sent: {0}. Dates are UTC days from {1} (three months back) to {2} (today).',
          issues,
          earliestStart(today),
          today,
        ),
      );
    }
  }

  const records: AnalyticsRecord[] = [];
  try {
    for (const q of queries)
      records.push(...(await ctx.client.queryAllTaskAnalytics(q, { signal: ctx.signal })).records);
  } catch (e) {
    const what = selected === undefined ? t('all tasks') : tasksCount(t, selected.length);
    return failure(
      e,
      {
        failed: t('Could not read the task analytics of {0} from {1} to {2}', what, range.start, range.end),
        plans: DATA_PLANS,
      },
      ctx,
    );
  }

  const ranked = rankTasks(
    byTask(records, (id) => names.get(id)),
    i.sortBy,
  );
  const periods = byPeriod(records);
  const sum = totals(records);
  const scope = selected === undefined ? t('of all tasks of the account') : t('of the {0} selected', selected.length);
  const unknown = t('unknown');
  const summary =
    records.length === 0
      ? t('No analytics records {0} from {1} to {2} (UTC): nothing ran in that range.', scope, range.start, range.end)
      : t(
          'From {0} to {1} (UTC, by {2}), {3} {4} had records: {5}, {6}, success rate {7}. Tasks are ranked by {8}, highest first; the first {9} listed.',
          range.start,
          range.end,
          i.granularity,
          tasksCount(t, ranked.length),
          scope,
          runsCount(t, sum.runs),
          failuresCount(t, sum.failures),
          sum.successRate === null ? unknown : `${(sum.successRate * 100).toFixed(1)}%`,
          i.sortBy,
          Math.min(i.limit, ranked.length),
        );
  return reply(summary, {
    range: {
      start: range.start,
      end: range.end,
      granularity: i.granularity,
      collectionMethod: i.collectionMethod,
      timeZone: 'UTC',
    },
    tasksSelected: selected === undefined ? 'all' : selected.length,
    totals: sum,
    periods: periods.slice(-MAX_PERIODS),
    ...(periods.length > MAX_PERIODS
      ? {
          periodsOmitted: periods.length - MAX_PERIODS,
          periodsNote: 'Only the latest periods are listed; use granularity Week or Month for the whole range.',
        }
      : {}),
    rankedBy: i.sortBy,
    tasksWithRecords: ranked.length,
    tasks: ranked.slice(0, i.limit),
  });
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
