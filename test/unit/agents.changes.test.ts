/**
 * The tools that change something, against the sandbox: what their confirmation says (the task's
 * real name, group, id, status and the account; the app and what deprecation means), what they do,
 * and how they fail (the service's refusal with the request id, a hub that cannot be called).
 * Also "deprecate ada/lead-finder". Plus the failure sentences for cancelled and maybe-applied calls.
 */
import * as assert from 'node:assert/strict';

import { failureText } from '../../src/agents/failure';
import type { AppOutcome } from '../../src/agents/tool';
import type { ScrapedeckClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors/errors';
import { english } from '../../src/platform/errorText';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';
import { clientFor, contextFor, dataOf, run, tool } from './helpers/agents';
import { FakeClock } from './helpers/sandbox';

const T0 = Date.parse('2026-11-19T12:00:00Z');
const DEPRECATE = 'POST /datahub/v1/data-apps/{app_id}/deprecate';

describe('agents: tools that change something', function () {
  const clock = new FakeClock(T0);
  let sandbox: RunningSandbox;
  let ada: ScrapedeckClient;
  let task: { taskId: string; taskName: string; groupName: string };
  const ctx = () => contextFor(ada, clock.now);

  before(async () => {
    sandbox = await startSandbox({ now: clock.now, rateLimit: 0, seed: 21, runSeconds: 30, queueSeconds: 0 });
    ada = clientFor(sandbox, 'ada');
    const group = (await ada.listTaskGroups()).data[1];
    assert.ok(group);
    const first = (await ada.searchTasks(group.taskGroupId)).data[2];
    assert.ok(first);
    task = { ...first, groupName: group.taskGroupName };
  });
  after(async () => {
    await ada.close();
    await sandbox.close();
  });

  const confirmation = async (name: string, input: unknown) => {
    const call = tool(name).parse(input, english);
    assert.ok(call.ok && !call.readOnly, `${name} is confirmed`);
    return (await call.plan(ctx())).confirmation;
  };

  it('start: confirmed with the real name, id, group, status and account; then runs; a second start is refused with its request id', async () => {
    const before = sandbox.stats.byRoute['POST /cloudextraction/start'] ?? 0;
    const c = await confirmation('scrapedeck_start_run', { task: task.taskName.toLowerCase() });
    assert.equal(c.title, `Start a cloud run of “${task.taskName}”?`);
    assert.match(
      c.message,
      new RegExp(
        `^Task “${escape(task.taskName)}” \\(id ${task.taskId}\\) in the group “${escape(task.groupName)}”, account ada \\(test\\)\\. Its status now: \\w+`,
      ),
    );
    assert.match(c.message, /Scrapedeck will start a cloud run of this task/);
    assert.equal(sandbox.stats.byRoute['POST /cloudextraction/start'] ?? 0, before, 'confirming sends no start');

    const started = await run('scrapedeck_start_run', { task: task.taskId }, ctx());
    assert.equal(started.ok, true, started.text);
    const { lotNo, ...rest } = dataOf<{ lotNo: string }>(started);
    assert.deepEqual(rest, { taskId: task.taskId, taskName: task.taskName, group: task.groupName, started: true });
    assert.match(lotNo, /^\d{19}$/, "the run's lot, for reading its rows");
    assert.equal((await ada.getTaskStatuses([task.taskId])).data[0]?.status, 'Extracting');

    // The sample-rows tool reads this run's rows alone (issue 28 item 1).
    clock.advance(3_000);
    const sampled = await run('scrapedeck_sample_rows', { task: task.taskId, rows: 5, lotNo }, ctx());
    assert.equal(sampled.ok, true, sampled.text);
    const lotPage = (await ada.getLotData(task.taskId, lotNo, { offset: 0, size: 5 })).data;
    const sample = dataOf<{ lotNo: string; total: number; rows: unknown[][] }>(sampled);
    assert.deepEqual([sample.lotNo, sample.total, sample.rows.length], [lotNo, lotPage.total, lotPage.data.length]);
    assert.ok(
      lotPage.total > 0 && lotPage.total < (await ada.getData(task.taskId, { offset: 0, size: 1 })).data.total,
      "one run's rows, not all of them",
    );
    assert.match(sampled.text, new RegExp(`rows of run ${lotNo} of “`));
    const bad = tool('scrapedeck_sample_rows').parse({ task: task.taskId, lotNo: '12ab' }, english);
    assert.equal(bad.ok, false, 'a lot number is digits');

    const again = await run('scrapedeck_start_run', { task: task.taskId }, ctx());
    assert.equal(again.ok, false);
    assert.match(
      again.text,
      new RegExp(
        `^Could not start a run of “${escape(task.taskName)}” \\(${task.taskId}\\)\\. .*running.*Request ID \\(for support\\): [\\w-]+\\.$`,
        'i',
      ),
    );
  });

  it('stop: confirmed with what stopping keeps; then stops; stopping a stopped task is refused with its request id', async () => {
    clock.advance(5_000);
    const c = await confirmation('scrapedeck_stop_run', { task: task.taskId });
    assert.equal(c.title, `Stop the cloud run of “${task.taskName}”?`);
    assert.match(c.message, /Its status now: Extracting, \d+ rows in the current or last run\./);
    assert.match(c.message, /Rows collected so far are kept; the run ends as Stopped/);
    const stopped = await run('scrapedeck_stop_run', { task: task.taskId }, ctx());
    assert.equal(stopped.ok, true, stopped.text);
    assert.equal((await ada.getTaskStatuses([task.taskId])).data[0]?.status, 'Stopped');
    const again = await run('scrapedeck_stop_run', { task: task.taskId }, ctx());
    assert.equal(again.ok, false);
    assert.match(again.text, /^Could not stop the run of “.+”.*Request ID \(for support\): [\w-]+\.$/);
  });

  it('a task that cannot be found: the confirmation says nothing will happen, and the call sends no start', async () => {
    const before = sandbox.stats.byRoute['POST /cloudextraction/start'] ?? 0;
    const c = await confirmation('scrapedeck_start_run', { task: 'Nothing by this name' });
    assert.equal(c.title, 'Start a cloud run?');
    assert.match(
      c.message,
      /No task of this account has the id or name “Nothing by this name”.*Nothing will be started or stopped/,
    );
    const reply = await run('scrapedeck_start_run', { task: 'Nothing by this name' }, ctx());
    assert.equal(reply.ok, false);
    assert.equal(sandbox.stats.byRoute['POST /cloudextraction/start'] ?? 0, before);
  });

  it('"deprecate ada/lead-finder": the confirmation says what deprecation means; then it is deprecated and the view is told', async () => {
    const c = await confirmation('scrapedeck_deprecate_app', { app: 'ada/lead-finder' });
    assert.equal(c.title, 'Deprecate ada/lead-finder?');
    assert.match(c.message, /^Account ada \(test\)\.\n\nDeprecation marks the app as no longer maintained/);
    assert.match(c.message, /New releases of it are rejected\./);
    assert.match(c.message, /cannot undo this/);
    const outcomes: [string, AppOutcome][] = [];
    const reply = await run(
      'scrapedeck_deprecate_app',
      { app: 'ada/lead-finder' },
      contextFor(ada, clock.now, { onAppOutcome: (ref, o) => void outcomes.push([ref, o]) }),
    );
    assert.equal(reply.ok, true, reply.text);
    assert.match(reply.text, /^ada\/lead-finder is deprecated \(.+ · v0\.9\.1\)\./);
    assert.deepEqual(dataOf(reply), {
      app: 'ada/lead-finder',
      status: dataOf<{ status: string }>(reply).status,
      version: '0.9.1',
      missingSecrets: [],
    });
    assert.equal(outcomes[0]?.[0], 'ada/lead-finder');
    assert.equal(outcomes[0]?.[1].kind, 'deprecated');
  });

  it('an app the account does not author: not found, the request id, and the view told so', async () => {
    const outcomes: AppOutcome[] = [];
    const reply = await run(
      'scrapedeck_deprecate_app',
      { app: 'grace/review-miner' },
      contextFor(ada, clock.now, { onAppOutcome: (_r, o) => void outcomes.push(o) }),
    );
    assert.equal(reply.ok, false);
    assert.match(
      reply.text,
      /^Could not deprecate grace\/review-miner\. App grace\/review-miner was not found, or you are not its author.*Request ID \(for support\): [\w-]+\.$/,
    );
    assert.equal(outcomes[0]?.kind, 'not-found');
  });

  it('a hub that cannot be called (the adapter says why): nothing is sent', async () => {
    const before = sandbox.stats.byRoute[DEPRECATE] ?? 0;
    const reply = await run(
      'scrapedeck_deprecate_app',
      { app: 'ada/news-digest' },
      contextFor(ada, clock.now, { hubProblem: () => 'The hub needs a key (test).' }),
    );
    assert.deepEqual(reply, { ok: false, text: 'The hub needs a key (test).' });
    assert.equal(sandbox.stats.byRoute[DEPRECATE] ?? 0, before);
  });
});

describe('agents: failure sentences', () => {
  const ctx = { t: english, signInHint: 'Sign in (hint).' };
  it('a start that may have been carried out says so, and to check first', () => {
    const e = new ApiError({
      kind: 'server',
      status: 502,
      message: 'Bad gateway. It may have been carried out: check before trying again.',
      requestId: 'r-1',
      maybeApplied: true,
    });
    assert.equal(
      failureText(e, { failed: 'Could not start a run of “X” (1)' }, ctx),
      'Could not start a run of “X” (1). Bad gateway. It may have been carried out: check before trying again. Request ID (for support): r-1.',
    );
  });
  it('a cancelled call is said as such; a time-out names what to check', () => {
    assert.equal(
      failureText(
        new ApiError({ kind: 'cancelled', message: 'Cancelled' }),
        { failed: 'Could not list the tasks' },
        ctx,
      ),
      'Could not list the tasks: the call was cancelled before it finished.',
    );
    assert.match(
      failureText(
        new ApiError({ kind: 'timeout', message: 'No answer within 30 s' }),
        { failed: 'Could not list the tasks' },
        ctx,
      ),
      /No answer within 30 s\. The service could not be reached: check the connection and the service address\.$/,
    );
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
