/**
 * scrapedeck_task_health: which tasks need attention — failing, slowing or with no runs — over the
 * last N UTC days against the N days before. Built on src/health's pure pieces (the windows, the
 * batched fetch and the model), so the model hears the same verdicts the Tasks view shows; nothing
 * is cached (each call reads the account signed in at that moment).
 */
import * as z from 'zod';

import { isApiError } from '../../api/errors/errors';
import { todayUtc } from '../../api/schemas/dates';
import { fetchWindowTotals } from '../../health/healthFetch';
import { assess, attentionOrder, type TaskHealth, type Thresholds } from '../../health/healthModel';
import { DEFAULT_HEALTH_SETTINGS } from '../../health/healthSettings';
import { healthWindows } from '../../health/healthWindow';
import { plainText } from '../../platform/plainText';
import { CatalogError, catalogProblem, type CatalogTask, loadCatalog, selectTasks } from '../catalog';
import { daysCount, tasksCount } from '../counts';
import { DATA_PLANS, failure } from '../failure';
import { limitSchema, refsOrScope, scopeFields, taskRefSchema } from '../inputs';
import { defineTool, refusal, reply, type ToolContext } from '../tool';

/** The setting `scrapedeck.health.windowDays` allows 1-46 (the previous window must lie within three months). */
export const MAX_HEALTH_WINDOW_DAYS = 46;

const input = z
  .object({
    task: taskRefSchema
      .optional()
      .describe('Only this task: its id (from scrapedeck_list_tasks), or its exact name when that name is unique.'),
    ...scopeFields,
    windowDays: z
      .number()
      .int()
      .min(1)
      .max(MAX_HEALTH_WINDOW_DAYS)
      .default(DEFAULT_HEALTH_SETTINGS.windowDays)
      .describe(
        `Days per window (1-${MAX_HEALTH_WINDOW_DAYS}, default ${DEFAULT_HEALTH_SETTINGS.windowDays}): the last N UTC days, today included, compared with the N days before.`,
      ),
    failureRate: z
      .number()
      .min(0)
      .lt(1)
      .default(DEFAULT_HEALTH_SETTINGS.failureRate)
      .describe(
        `A task is failing when its failure rate is above this (0 to below 1, default ${DEFAULT_HEALTH_SETTINGS.failureRate}).`,
      ),
    slowdownFactor: z
      .number()
      .min(1)
      .max(1000)
      .default(DEFAULT_HEALTH_SETTINGS.slowdownFactor)
      .describe(
        `A task is slowing when its average run time is more than this factor of the previous window's (at least 1, default ${DEFAULT_HEALTH_SETTINGS.slowdownFactor}).`,
      ),
    limit: limitSchema(50, 20, 'tasks needing attention'),
  })
  .strict()
  .refine(...refsOrScope('task'));

type Input = z.output<typeof input>;

export const taskHealthTool = defineTool({
  name: 'scrapedeck_task_health',
  title: 'Scrapedeck Task Health',
  userDescription: 'See which tasks are failing, slowing down or not running.',
  reference: 'scrapedeckHealth',
  modelDescription:
    'Judges the health of the signed-in Scrapedeck account’s tasks as the Tasks view does: over the last windowDays UTC days (today included) against the windowDays before, a task is failing when its failure rate is above failureRate, slowing when its average run time rose more than slowdownFactor times, and has no runs when nothing ran in the window. ' +
    'Select one task (id or exact name), a group, part of the name, or omit all for every task. ' +
    'Returns the counts per verdict, the window dates, the thresholds and at most `limit` tasks needing attention (failing first, then slowing, then no runs) with their runs, failures, failure rate and average seconds now and before; moreNeedingAttention says how many were left out. ' +
    'Fails with the service’s message and a request id when the plan has no analytics (Free plan).',
  readOnly: true,
  idempotent: true,
  input,
  progress: (i, t) =>
    i.task
      ? t('Judging the health of the Scrapedeck task “{0}”…', i.task)
      : t('Judging the health of Scrapedeck tasks…'),
  run: runHealth,
});

async function runHealth(i: Input, ctx: ToolContext) {
  const { t } = ctx;
  let selected: CatalogTask[];
  let everyTask = false;
  try {
    const catalog = await loadCatalog(ctx.client, ctx);
    selected = selectTasks(catalog, i.task === undefined ? undefined : [i.task], i, t);
    everyTask = selected.length === new Set(catalog.tasks.map((c) => c.taskId)).size;
  } catch (e) {
    // A plan refusal is said as health being unavailable, with the service's words and request id.
    if (e instanceof CatalogError && isApiError(e.cause) && e.cause.kind === 'forbidden')
      return failure(e.cause, { failed: t('Task health is unavailable for this account'), plans: DATA_PLANS }, ctx);
    return refusal(catalogProblem(e, t('Could not find the tasks whose health was asked for'), ctx));
  }
  if (selected.length === 0)
    return reply(t('No task matches, so no health was judged.'), { tasksJudged: 0, attention: [] });

  const windows = healthWindows(todayUtc(new Date(ctx.now())), i.windowDays);
  const ids = selected.map((s) => s.taskId);
  let current;
  let previous;
  try {
    // Every task of the account: a query for all tasks takes fewer pages than batches of 100 ids.
    const options = { signal: ctx.signal, account: { records: undefined, idsAreAll: everyTask } };
    [current, previous] = await Promise.all([
      fetchWindowTotals(ctx.client, ids, windows.current, options),
      fetchWindowTotals(ctx.client, ids, windows.previous, options),
    ]);
  } catch (e) {
    const what =
      selected.length === 1 && selected[0]
        ? t('“{0}”', plainText(selected[0].taskName))
        : tasksCount(t, selected.length);
    return failure(e, { failed: t('Could not read the task health of {0}', what), plans: DATA_PLANS }, ctx);
  }

  const thresholds: Thresholds = { failureRate: i.failureRate, slowdownFactor: i.slowdownFactor };
  const judged = selected.map((task) => ({
    task,
    health: assess(current.totals.get(task.taskId), previous.totals.get(task.taskId), thresholds),
  }));
  const counts = { failing: 0, slowing: 0, noRuns: 0, ok: 0 };
  for (const { health } of judged) counts[health.level === 'idle' ? 'noRuns' : health.level]++;
  const attention = judged.filter((j) => j.health.level !== 'ok').sort((a, b) => attentionOrder(a.health, b.health));
  const shown = attention.slice(0, i.limit);

  const summary = t(
    'Task health of {0} over the last {1} ({2} to {3}, UTC) against the {1} before: {4} failing (failure rate above {5}), {6} slowing (average run time above {7}x), {8} with no runs, {9} fine. {10} needing attention listed, failing first.',
    tasksCount(t, judged.length),
    daysCount(t, windows.days),
    windows.current.start,
    windows.current.end,
    counts.failing,
    `${round(thresholds.failureRate * 100, 1)}%`,
    counts.slowing,
    thresholds.slowdownFactor,
    counts.noRuns,
    counts.ok,
    shown.length,
  );
  const clampNote = windows.clamped
    ? ` ${t('The window was shortened from {0} to {1} days: the service keeps three months of analytics.', windows.requested, windows.days)}`
    : '';
  return reply(summary + clampNote, {
    window: { days: windows.days, current: windows.current, previous: windows.previous, timeZone: 'UTC' },
    thresholds,
    tasksJudged: judged.length,
    counts,
    attention: shown.map(({ task, health }) => view(task, health)),
    moreNeedingAttention: attention.length - shown.length,
  });
}

/** One task needing attention: its figures rounded for reading (null means not known). */
export function view(task: CatalogTask, h: TaskHealth) {
  return {
    taskId: task.taskId,
    taskName: task.taskName,
    group: task.groupName,
    level: h.level === 'idle' ? 'noRuns' : h.level,
    failing: h.failing,
    slowing: h.slowing,
    runs: h.runs,
    failures: h.failures,
    failureRate: h.failureRate === null ? null : round(h.failureRate, 3),
    averageSeconds: h.averageSeconds === null ? null : round(h.averageSeconds, 1),
    previousAverageSeconds: h.previousAverageSeconds === null ? null : round(h.previousAverageSeconds, 1),
    slowdown: h.slowdown === null ? null : round(h.slowdown, 2),
  };
}

const round = (n: number, places: number): number => Math.round(n * 10 ** places) / 10 ** places;

/** A task listed in two groups is judged once, under its first group (as the Tasks view does). */
