/**
 * scrapedeck_start_run and scrapedeck_stop_run. Both change something, so both are planned first:
 * the task is resolved (by id, or a unique name) and the confirmation shows its real name, group
 * and current status, read from the service (never the name a model supplied), as plain text. The
 * plan then acts on that task id only. Neither is retried after the request may have reached the
 * service: the client's `maybeApplied` message says to check the status first.
 */
import * as z from 'zod';

import type { TaskRunStatus } from '../../api/ops/runs';
import { plainText } from '../../platform/plainText';
import { catalogProblem, type CatalogTask, findTask, loadCatalog } from '../catalog';
import { rowsCount } from '../counts';
import { failure, RUN_PLANS } from '../failure';
import { taskRefSchema } from '../inputs';
import { defineTool, type Plan, refusal, reply, type ToolContext, type ToolReply } from '../tool';

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
  idempotent: false,
  input,
  progress: (i, t) => t('Starting a cloud run of {0}…', plainText(i.task)),
  intent: (i, t) => t('start a cloud run of the task “{0}”', plainText(i.task)),
  plan: (i, ctx) => plan('start', i, ctx),
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
  idempotent: false,
  input,
  progress: (i, t) => t('Stopping the cloud run of {0}…', plainText(i.task)),
  intent: (i, t) => t('stop the cloud run of the task “{0}”', plainText(i.task)),
  plan: (i, ctx) => plan('stop', i, ctx),
});

async function resolve(i: Input, ctx: ToolContext): Promise<CatalogTask> {
  return findTask(await loadCatalog(ctx.client, ctx), i.task, ctx.t);
}

/** Reads only. When the task cannot be found, the confirmation says nothing will happen, and nothing does. */
async function plan(verb: Verb, i: Input, ctx: ToolContext): Promise<Plan> {
  const { t } = ctx;
  let task: CatalogTask;
  try {
    task = await resolve(i, ctx);
  } catch (e) {
    const problem = plainText(catalogProblem(e, t('Could not look the task up'), ctx), 600);
    const refused = catalogProblem(
      e,
      verb === 'start' ? t('Could not find the task to start') : t('Could not find the task to stop'),
      ctx,
    );
    return {
      confirmation: {
        title: verb === 'start' ? t('Start a cloud run?') : t('Stop a cloud run?'),
        message: t('{0} Nothing will be started or stopped: the call will fail without sending anything.', problem),
      },
      target: undefined,
      execute: () => Promise.resolve(refusal(refused)),
    };
  }
  const now = await currentStatus(task, ctx);
  const name = plainText(task.taskName);
  const where = t(
    'Task “{0}” (id {1}) in the group “{2}”, account {3}.',
    name,
    plainText(task.taskId),
    plainText(task.groupName),
    plainText(ctx.accountLabel),
  );
  const state = now === undefined ? '' : t('Its status now: {0}.', describe(now, t));
  const confirmation =
    verb === 'start'
      ? {
          title: t('Start a cloud run of “{0}”?', name),
          message: [
            where,
            state,
            t(
              'Scrapedeck will start a cloud run of this task. The run collects new rows as a new batch, uses the plan’s cloud resources, and ends by itself (or when stopped).',
            ),
          ]
            .filter(Boolean)
            .join(' '),
        }
      : {
          title: t('Stop the cloud run of “{0}”?', name),
          message: [
            where,
            state,
            t(
              'Scrapedeck will stop this task’s run now. Rows collected so far are kept; the run ends as Stopped and does not resume by itself.',
            ),
          ]
            .filter(Boolean)
            .join(' '),
        };
  return { confirmation, target: `task ${task.taskId}`, execute: (c) => act(verb, task, c) };
}

/** The task's status now; `never` when a v2 answer leaves it out (it never ran in the cloud). */
async function currentStatus(task: CatalogTask, ctx: ToolContext): Promise<TaskRunStatus | 'never' | undefined> {
  try {
    const answer = await ctx.client.getTaskStatuses([task.taskId], { signal: ctx.signal });
    return answer.data[0] ?? (answer.source === 'v2' ? 'never' : undefined);
  } catch {
    return undefined; // the confirmation is still useful without it
  }
}

function describe(s: TaskRunStatus | 'never', t: ToolContext['t']): string {
  if (s === 'never') return t('never run in the cloud');
  const status = plainText(s.status, 40);
  return s.currentTotalExtractCount === null
    ? status
    : t('{0}, {1} in the current or last run', status, rowsCount(t, s.currentTotalExtractCount));
}

/** Acts on the planned task, by its id: the name is not looked up again. */
async function act(verb: Verb, task: CatalogTask, ctx: ToolContext): Promise<ToolReply> {
  const { t } = ctx;
  let lotNo: string | null = null;
  ctx.runs?.before(verb, { taskId: task.taskId, taskName: task.taskName });
  try {
    if (verb === 'start') lotNo = (await ctx.client.startTask(task.taskId, { signal: ctx.signal })).data?.lotNo ?? null;
    else await ctx.client.stopTask(task.taskId, { signal: ctx.signal });
    ctx.runs?.after(verb, task.taskId, { ok: true, lotNo });
  } catch (e) {
    ctx.runs?.after(verb, task.taskId, { ok: false });
    const failed =
      verb === 'start'
        ? t('Could not start a run of “{0}” ({1})', plainText(task.taskName), task.taskId)
        : t('Could not stop the run of “{0}” ({1})', plainText(task.taskName), task.taskId);
    return failure(e, { failed, plans: RUN_PLANS }, ctx);
  }
  const summary =
    verb === 'start'
      ? t(
          'Started a cloud run of “{0}” ({1}). It may wait a moment (Waiting), then shows Extracting while it runs: check it with scrapedeck_run_status.',
          plainText(task.taskName),
          task.taskId,
        )
      : t(
          'Stopped the cloud run of “{0}” ({1}). Rows collected so far are kept.',
          plainText(task.taskName),
          task.taskId,
        );
  // The run's lot, when the service gives it: scrapedeck_sample_rows reads this run's rows with it.
  const lot = lotNo === null ? {} : { lotNo };
  return reply(summary, {
    taskId: task.taskId,
    taskName: task.taskName,
    group: task.groupName,
    [verb === 'start' ? 'started' : 'stopped']: true,
    ...lot,
  });
}
