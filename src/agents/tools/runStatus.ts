/** scrapedeck_run_status: the cloud-run status of tasks (one request per 100 tasks). */
import * as z from 'zod';

import type { TaskRunStatus } from '../../api/ops/runs';
import { parseServiceTime } from '../../api/schemas/runSchemas';
import { plainText } from '../../platform/plainText';
import { catalogProblem, type CatalogTask, loadCatalog, selectTasks } from '../catalog';
import { tasksCount } from '../counts';
import { failure, RUN_PLANS } from '../failure';
import { limitSchema, refsOrScope, scopeFields, taskRefSchema } from '../inputs';
import { defineTool, refusal, reply, type ToolContext } from '../tool';

const input = z
  .object({
    tasks: z
      .array(taskRefSchema)
      .min(1)
      .max(100)
      .optional()
      .describe('These tasks (ids, or unique exact names). Omit, with group and query, for every task.'),
    ...scopeFields,
    limit: limitSchema(100, 50, 'tasks'),
  })
  .strict()
  .refine(...refsOrScope('tasks'));

type Input = z.output<typeof input>;

export const runStatusTool = defineTool({
  name: 'scrapedeck_run_status',
  title: 'Scrapedeck Run Status',
  userDescription: 'See which tasks are running and how their last runs went.',
  reference: 'scrapedeckRunStatus',
  modelDescription:
    'Reads the cloud-run status of Scrapedeck tasks: status as the service sends it (Extracting means running; Waiting or Unexecuted means queued, it will run; Stopped, Finished, Failed and others end a run; "Never run in the cloud" when the service leaves the task out), rows collected by the current or last run, how many times the task ran in the cloud, its subtasks, and start/end/next-scheduled times (UTC, ISO 8601). ' +
    'Select tasks by ids/names, by group, by part of the name, or omit all for every task. Returns the number of tasks per status and at most `limit` tasks, running ones first. Needs a Professional or Enterprise plan.',
  readOnly: true,
  idempotent: true,
  input,
  progress: (i, t) =>
    i.tasks
      ? t('Reading the run status of {0} Scrapedeck tasks…', i.tasks.length)
      : t('Reading the run status of Scrapedeck tasks…'),
  run: runStatus,
});

async function runStatus(i: Input, ctx: ToolContext) {
  const { t } = ctx;
  let selected: CatalogTask[];
  try {
    const catalog = await loadCatalog(ctx.client, ctx);
    selected = selectTasks(catalog, i.tasks, i, t);
  } catch (e) {
    return refusal(catalogProblem(e, t('Could not find the tasks whose run status was asked for'), ctx));
  }
  if (selected.length === 0) return reply(t('No task matches, so no status was read.'), { total: 0, tasks: [] });
  let statuses: TaskRunStatus[];
  let leftOutNeverRan: boolean;
  try {
    const answer = await ctx.client.getTaskStatuses(
      selected.map((s) => s.taskId),
      { signal: ctx.signal },
    );
    statuses = answer.data;
    // v2 leaves out tasks that never ran in the cloud; what v1 leaves out is not known.
    leftOutNeverRan = answer.source === 'v2';
  } catch (e) {
    const what =
      selected.length === 1 && selected[0]
        ? t('“{0}”', plainText(selected[0].taskName))
        : tasksCount(t, selected.length);
    return failure(e, { failed: t('Could not read the run status of {0}', what), plans: RUN_PLANS }, ctx);
  }
  const byId = new Map(statuses.map((s) => [s.taskId, s]));
  const rows = selected.map((task) => view(task, byId.get(task.taskId), leftOutNeverRan));
  rows.sort(
    (a, b) =>
      Number(b.status === 'Extracting') - Number(a.status === 'Extracting') ||
      a.taskName.localeCompare(b.taskName, 'en'),
  );
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.status] = (counts[row.status] ?? 0) + 1;
  const running = counts.Extracting ?? 0;
  const shown = rows.slice(0, i.limit);
  const summary = t(
    '{0}: {1} running (Extracting). {2} of them listed, running ones first.',
    tasksCount(t, rows.length),
    running,
    shown.length,
  );
  return reply(summary, { total: rows.length, byStatus: counts, tasks: shown, timeZone: 'UTC' });
}

/** What the model reads for a task the answer left out (not translated: the model's words). */
export const NEVER_RUN_STATUS = 'Never run in the cloud';

function view(task: CatalogTask, s: TaskRunStatus | undefined, leftOutNeverRan: boolean) {
  if (s === undefined) {
    const status = leftOutNeverRan ? NEVER_RUN_STATUS : 'Unknown (the service did not report it)';
    const none = {
      rowsCollected: null,
      executedTimes: leftOutNeverRan ? 0 : null,
      subtasks: null,
      started: null,
      ended: null,
      nextScheduled: null,
    };
    return { taskId: task.taskId, taskName: task.taskName, group: task.groupName, status, ...none };
  }
  return {
    taskId: task.taskId,
    taskName: task.taskName,
    group: task.groupName,
    status: s.status,
    rowsCollected: s.currentTotalExtractCount,
    executedTimes: s.executedTimes,
    subtasks: s.subTaskCount,
    started: isoTime(s.startExecuteTime),
    ended: isoTime(s.endExecuteTime),
    nextScheduled: isoTime(s.nextExecuteTime),
  };
}

/** Service times carry no zone: read as UTC and written with a Z so the model cannot misread them. */
function isoTime(text: string | null): string | null {
  if (text === null) return null;
  const ms = parseServiceTime(text);
  return ms === undefined ? text : new Date(ms).toISOString();
}
