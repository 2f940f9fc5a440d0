/**
 * scrapedeck_start_run and scrapedeck_stop_run. Both change something, so both are confirmed first
 * with the task's real name, group and current status, read from the service (never the name a
 * model supplied). Neither is retried after the request may have reached the service: the
 * client's `maybeApplied` message says to check the status first.
 */
import * as z from 'zod';
import type { TaskRunStatus } from '../../api/ops/runs';
import { rowsCount } from '../counts';
import { catalogProblem, findTask, loadCatalog, type CatalogTask } from '../catalog';
import { failure, RUN_PLANS } from '../failure';
import { taskRefSchema } from '../inputs';
import { defineTool, refusal, reply, type Confirmation, type ToolContext, type ToolReply } from '../tool';

const input = z.object({ task: taskRefSchema }).strict();
type Input = z.output<typeof input>;

type Verb = 'start' | 'stop';

export const startRunTool = defineTool({
  name: 'scrapedeck_start_run',
  title: 'Start a Scrapedeck Run',
  userDescription: 'Start a cloud run of one task (asks first).',
  reference: 'scrapedeckStartRun',
  modelDescription:
    'Starts a cloud run (extraction) of one Scrapedeck task, after the user confirms. The run collects new rows as a new batch and ends by itself. ' +
    'Fails if the task is already running (status Extracting). Check progress afterwards with scrapedeck_run_status. Needs a Professional or Enterprise plan. ' +
    'To start several tasks, call it once per task.',
  readOnly: false,
  destructive: false,
  idempotent: false,
  input,
  progress: (i, t) => t('Starting a cloud run of {0}…', i.task),
  confirm: (i, ctx) => confirmation('start', i, ctx),
  run: (i, ctx) => act('start', i, ctx),
});

export const stopRunTool = defineTool({
  name: 'scrapedeck_stop_run',
  title: 'Stop a Scrapedeck Run',
  userDescription: 'Stop the running cloud run of one task (asks first).',
  reference: 'scrapedeckStopRun',
  modelDescription:
    'Stops the running cloud run of one Scrapedeck task, after the user confirms. Extraction ends at once; rows collected so far are kept and the run ends as Stopped. ' +
    'Fails if the task is not running. Needs a Professional or Enterprise plan.',
  readOnly: false,
  destructive: true,
  idempotent: false,
  input,
  progress: (i, t) => t('Stopping the cloud run of {0}…', i.task),
  confirm: (i, ctx) => confirmation('stop', i, ctx),
  run: (i, ctx) => act('stop', i, ctx),
});

async function resolve(i: Input, ctx: ToolContext): Promise<CatalogTask> {
  return findTask(await loadCatalog(ctx.client, ctx), i.task, ctx.t);
}

/** What the person is asked. Reads only; when the task cannot be found it says nothing will happen. */
async function confirmation(verb: Verb, i: Input, ctx: ToolContext): Promise<Confirmation> {
  const { t } = ctx;
  let task: CatalogTask;
  try {
    task = await resolve(i, ctx);
  } catch (e) {
    const problem = catalogProblem(e, t('Could not look the task up'), ctx);
    return {
      title: verb === 'start' ? t('Start a cloud run?') : t('Stop a cloud run?'),
      message: t('{0} Nothing will be started or stopped: the call will fail without sending anything.', problem),
    };
  }
  const now = await currentStatus(task, ctx);
  const where = t('Task “{0}” (id {1}) in the group “{2}”, account {3}.', task.taskName, task.taskId, task.groupName, ctx.accountLabel);
  const state = now === undefined ? '' : t('Its status now: {0}.', describe(now, t));
  if (verb === 'start') {
    return {
      title: t('Start a cloud run of “{0}”?', task.taskName),
      message: [where, state, t('Scrapedeck will start a cloud run of this task. The run collects new rows as a new batch, uses the plan’s cloud resources, and ends by itself (or when stopped).')].filter(Boolean).join(' '),
    };
  }
  return {
    title: t('Stop the cloud run of “{0}”?', task.taskName),
    message: [where, state, t('Scrapedeck will stop this task’s run now. Rows collected so far are kept; the run ends as Stopped and does not resume by itself.')].filter(Boolean).join(' '),
  };
}

async function currentStatus(task: CatalogTask, ctx: ToolContext): Promise<TaskRunStatus | undefined> {
  try {
    return (await ctx.client.getTaskStatuses([task.taskId], { signal: ctx.signal })).data[0];
  } catch {
    return undefined; // the confirmation is still useful without it
  }
}

function describe(s: TaskRunStatus, t: ToolContext['t']): string {
  return s.currentTotalExtractCount === null ? s.status : t('{0}, {1} in the current or last run', s.status, rowsCount(t, s.currentTotalExtractCount));
}

async function act(verb: Verb, i: Input, ctx: ToolContext): Promise<ToolReply> {
  const { t } = ctx;
  let task: CatalogTask;
  try {
    task = await resolve(i, ctx);
  } catch (e) {
    return refusal(catalogProblem(e, verb === 'start' ? t('Could not find the task to start') : t('Could not find the task to stop'), ctx));
  }
  try {
    if (verb === 'start') await ctx.client.startTask(task.taskId, { signal: ctx.signal });
    else await ctx.client.stopTask(task.taskId, { signal: ctx.signal });
  } catch (e) {
    const failed = verb === 'start' ? t('Could not start a run of “{0}” ({1})', task.taskName, task.taskId) : t('Could not stop the run of “{0}” ({1})', task.taskName, task.taskId);
    return failure(e, { failed, plans: RUN_PLANS }, ctx);
  }
  const summary =
    verb === 'start'
      ? t('Started a cloud run of “{0}” ({1}). It shows Extracting while it runs: check it with scrapedeck_run_status.', task.taskName, task.taskId)
      : t('Stopped the cloud run of “{0}” ({1}). Rows collected so far are kept.', task.taskName, task.taskId);
  return reply(summary, { taskId: task.taskId, taskName: task.taskName, group: task.groupName, [verb === 'start' ? 'started' : 'stopped']: true });
}
