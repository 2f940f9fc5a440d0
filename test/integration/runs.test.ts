/**
 * Runs in a real VS Code against a sandbox on a clock the test moves: start -> the row spins and
 * counts rows -> the run ends -> a notification with the rows; stop (asked first, Enter-safe, by the
 * service's name for the id);
 * a selection; a Standard account's refusal; statuses follow the account. Only the prompts'
 * answers are replaced; messages are recorded and still shown.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ScrapedeckTestApi } from '../../src/extension';
import type { RunOutcome } from '../../src/runs/runActions';
import type { TasksNode } from '../../src/views/tasks/taskNodes';
import { REFRESH_SECONDS, iconOf, rowWhen, startRunsSession, taskRow, taskRows, type Row, type RunsSession } from './runsHarness';
import { answerInputs, getApi, recordMessages, replaceUi, signInWithApiKey, tooltipText, waitFor } from './viewsHarness';

const GROUP = 'Price monitoring';
const RUN_MS = 31_000;

describe('Runs (real VS Code, sandbox on a test clock)', function () {
  this.timeout(120_000);
  let api: ScrapedeckTestApi;
  let session: RunsSession;
  let rows: Row[];

  const statusAtService = async (taskId: string) => (await session.client('ada').getTaskStatuses([taskId])).data[0];

  before(async () => {
    api = await getApi();
    if (api.account.account !== undefined) await vscode.commands.executeCommand('scrapedeck.signOut');
    session = await startRunsSession(api);
    await signInWithApiKey(api, session.apiKey('ada'));
    // The poll asks only while the view is visible.
    await vscode.commands.executeCommand('scrapedeck.tasks.focus');
    await waitFor('the Tasks view to be visible', () => api.runs.poller.isVisible);
    rows = await taskRows(api, GROUP);
    assert.ok(rows.length >= 8);
    // Each visible row gets its state from one status poll.
    await waitFor('the rows’ run state', async () => (await taskRows(api, GROUP)).every((r) => iconOf(r) !== 'checklist'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await session?.dispose();
  });

  it('every row shows its state from the service: icon, description, tooltip with times read as UTC', async () => {
    // The row as last drawn with its run state (health's redraw hands VS Code new row objects).
    const row = await rowWhen(api, GROUP, (rows[0] as Row).task.taskId, 'its run state', (r) => /Run status:/.test(tooltipText(r)));
    const status = await statusAtService(row.task.taskId);
    assert.ok(status);
    assert.notEqual(iconOf(row), 'sync~spin');
    assert.match(row.contextValue ?? '', /^task\b.*\brunnable\b/);
    assert.doesNotMatch(row.contextValue ?? '', /\brunning\b/);
    const tip = tooltipText(row);
    assert.match(tip, new RegExp(`Run status: ${status.status}`));
    if (status.startExecuteTime !== null) assert.match(tip, /read as UTC and shown in your time zone/);
  });

  it('Start Run: the row says so at once, then spins and counts rows; the run ends and a notification says how many', async () => {
    const task = (rows[1] as Row).task;
    const seen: string[] = [];
    const watch = api.views.tasks.onDidChangeTreeData((e) => {
      for (const item of Array.isArray(e) ? e : e ? [e] : []) if ((item as Row).task?.taskId === task.taskId) seen.push(String(item.description));
    });
    const { messages, stop } = recordMessages(api);
    try {
      const outcome = (await vscode.commands.executeCommand('scrapedeck.runs.start', await taskRow(api, GROUP, task.taskId))) as RunOutcome;
      assert.deepEqual(outcome.done, [task.taskId]);
      assert.ok(seen[0]?.startsWith('Starting'), `first redraw: ${seen.join(' | ')}`);
      const spinning = await rowWhen(api, GROUP, task.taskId, 'the spinner', (r) => iconOf(r) === 'sync~spin');
      assert.match(String(spinning.description), /^Extracting, \d+ rows?( · |$)/);
      assert.match(spinning.contextValue ?? '', /\brunning\b/);
      assert.doesNotMatch(spinning.contextValue ?? '', /\brunnable\b/, 'only Stop Run is offered');
      assert.equal(spinning.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed, 'a running task opens to its subtasks');
      const subtasks = await api.views.tasks.getChildren(spinning as unknown as TasksNode);
      assert.ok(subtasks.length >= 2, 'two to six subtasks');
      assert.ok(subtasks.every((s) => s.contextValue === 'subtask' && typeof s.description === 'string'));

      session.clock.advance(12_000);
      await rowWhen(api, GROUP, task.taskId, 'rows to grow', (r) => /Extracting, [1-9][\d,]* rows?/.test(String(r.description)));
      session.clock.advance(RUN_MS);
      const ended = await rowWhen(api, GROUP, task.taskId, 'the run to end', (r) => iconOf(r) !== 'sync~spin' && !/Starting|Stopping/.test(String(r.description)));
      const status = await statusAtService(task.taskId);
      assert.ok(status && /Finished|Failed/.test(status.status));
      assert.equal(iconOf(ended), status.status === 'Finished' ? 'pass' : 'error');
      // Not health's "tasks need attention" notice, which may name the same task.
      const isRunNotice = (m: { text: string }) => m.text.includes(task.taskName) && /(finished|failed):/.test(m.text);
      await waitFor('the notification', () => messages.some(isRunNotice));
      const notice = messages.find(isRunNotice);
      const rowsText = (status.currentTotalExtractCount ?? -1).toLocaleString('en-US');
      assert.match(notice?.text ?? '', new RegExp(`“.*” (finished|failed): ${rowsText} rows? collected`));
      const canExport = (await vscode.commands.getCommands(true)).includes('scrapedeck.data.export');
      assert.deepEqual(notice?.buttons, canExport ? ['Open Analytics', 'Export Data'] : ['Open Analytics']);
    } finally {
      stop();
      watch.dispose();
    }
  });

  it('Stop Run asks like Remove Data and Deprecate: one action button and VS Code\'s Cancel, then the task\'s name typed; declining or Enter alone sends nothing; stopping ends the run without a notice', async () => {
    const task = (rows[2] as Row).task;
    await vscode.commands.executeCommand('scrapedeck.runs.start', await taskRow(api, GROUP, task.taskId));
    const running = await rowWhen(api, GROUP, task.taskId, 'the spinner', (r) => iconOf(r) === 'sync~spin');
    const asked: { message: string; detail: string; items: string[] }[] = [];
    let answer: string | undefined;
    const restore = replaceUi(api, {
      showModalWarning: (message, detail, ...items) => {
        asked.push({ message, detail, items });
        return Promise.resolve(answer);
      },
    });
    const { messages, stop } = recordMessages(api);
    try {
      const declined = (await vscode.commands.executeCommand('scrapedeck.runs.stop', running)) as RunOutcome;
      assert.equal(declined.declined, true);
      assert.equal((await statusAtService(task.taskId))?.status, 'Extracting', 'nothing sent');
      assert.deepEqual(asked[0]?.items, ['Stop Run…'], 'one action; VS Code adds its Cancel, the one way to say no');
      assert.match(asked[0]?.message ?? '', new RegExp(`Stop the run of “${task.taskName}”`));
      assert.match(asked[0]?.detail ?? '', /cannot be resumed/);

      // The action button only opens the second step: an empty box (Enter alone) or Escape stops nothing.
      answer = 'Stop Run…';
      const escaped = answerInputs(api, [undefined]);
      try {
        assert.equal(((await vscode.commands.executeCommand('scrapedeck.runs.stop', running)) as RunOutcome).declined, true);
      } finally {
        escaped.restore();
      }
      const box = escaped.asked[0];
      assert.equal(box?.title, `Stop the Run of “${task.taskName}” (2/2)`);
      assert.ok(box?.validateInput?.(''), 'Enter on an empty box is refused');
      assert.equal(box?.validateInput?.(task.taskName), undefined);
      assert.equal((await statusAtService(task.taskId))?.status, 'Extracting', 'nothing sent');

      const typed = answerInputs(api, [task.taskName]);
      let stopped: RunOutcome;
      try {
        stopped = (await vscode.commands.executeCommand('scrapedeck.runs.stop', running)) as RunOutcome;
      } finally {
        typed.restore();
      }
      assert.deepEqual(stopped.done, [task.taskId]);
      const row = await rowWhen(api, GROUP, task.taskId, 'the stopped state', (r) => iconOf(r) === 'debug-stop');
      assert.match(String(row.description), /^Stopped, \d+ rows?( · |$)/);
      assert.equal((await statusAtService(task.taskId))?.status, 'Stopped');
      await new Promise((r) => setTimeout(r, REFRESH_SECONDS * 1000 + 500));
      assert.equal(messages.filter((m) => m.text.includes(task.taskName)).length, 0, 'the person who stopped it knows');
    } finally {
      stop();
      restore();
    }
  });

  it('a selection starts together and stops with one question (the number of runs typed)', async () => {
    const [a, b] = [(rows[3] as Row).task, (rows[4] as Row).task];
    const rowA = await taskRow(api, GROUP, a.taskId);
    const rowB = await taskRow(api, GROUP, b.taskId);
    const started = (await vscode.commands.executeCommand('scrapedeck.runs.start', rowA, [rowA, rowB])) as RunOutcome;
    assert.deepEqual([...started.done].sort(), [a.taskId, b.taskId].sort());
    await rowWhen(api, GROUP, a.taskId, 'A spinning', (r) => iconOf(r) === 'sync~spin');
    await rowWhen(api, GROUP, b.taskId, 'B spinning', (r) => iconOf(r) === 'sync~spin');
    const asked: string[] = [];
    const restore = replaceUi(api, {
      showModalWarning: (message, _detail, ...items) => {
        asked.push(message, ...items);
        return Promise.resolve(items[0]);
      },
    });
    const typed = answerInputs(api, ['2']);
    try {
      const a2 = await taskRow(api, GROUP, a.taskId);
      const stopped = (await vscode.commands.executeCommand('scrapedeck.runs.stop', a2, [a2, await taskRow(api, GROUP, b.taskId)])) as RunOutcome;
      assert.equal(stopped.done.length, 2);
      assert.deepEqual(asked, ['Stop 2 runs?', 'Stop 2 Runs…']);
      assert.equal(typed.asked[0]?.title, 'Stop 2 Runs (2/2)');
    } finally {
      typed.restore();
      restore();
    }
    await rowWhen(api, GROUP, b.taskId, 'B stopped', (r) => iconOf(r) === 'debug-stop');
  });

  it('Stop Run names the task as the service does: a caller\'s made-up name is not shown, an id the account does not have is left alone', async () => {
    const task = (rows[6] as Row).task;
    await vscode.commands.executeCommand('scrapedeck.runs.start', await taskRow(api, GROUP, task.taskId));
    await rowWhen(api, GROUP, task.taskId, 'the spinner', (r) => iconOf(r) === 'sync~spin');
    const asked: string[] = [];
    const restore = replaceUi(api, {
      showModalWarning: (message) => {
        asked.push(message);
        return Promise.resolve(undefined);
      },
    });
    try {
      const declined = (await vscode.commands.executeCommand('scrapedeck.runs.stop', { task: { taskId: task.taskId, taskName: 'Harmless test task' } })) as RunOutcome;
      assert.equal(declined.declined, true);
      assert.deepEqual(asked, [`Stop the run of “${task.taskName}”?`]);
    } finally {
      restore();
    }
    assert.equal((await statusAtService(task.taskId))?.status, 'Extracting');
    await session.client('ada').stopTask(task.taskId);
  });

  it('with notifications turned off, a run that ends says nothing', async () => {
    await vscode.workspace.getConfiguration('scrapedeck').update('runs.notifyOnFinish', false, vscode.ConfigurationTarget.Global);
    await waitFor('the setting', () => !api.runs.settings().notifyOnFinish);
    const task = (rows[5] as Row).task;
    const { messages, stop } = recordMessages(api);
    try {
      await vscode.commands.executeCommand('scrapedeck.runs.start', await taskRow(api, GROUP, task.taskId));
      await rowWhen(api, GROUP, task.taskId, 'the spinner', (r) => iconOf(r) === 'sync~spin');
      session.clock.advance(RUN_MS);
      await rowWhen(api, GROUP, task.taskId, 'the end', (r) => iconOf(r) === 'pass' || iconOf(r) === 'error');
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(messages.filter((m) => m.text.includes(task.taskName)).length, 0);
    } finally {
      stop();
      await vscode.workspace.getConfiguration('scrapedeck').update('runs.notifyOnFinish', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a Standard account shows no run state and is refused a start with the plans named and the request ID offered', async () => {
    await vscode.commands.executeCommand('scrapedeck.signOut');
    assert.equal(api.runs.store.get((rows[0] as Row).task.taskId), undefined, 'nothing of ada’s runs is kept');
    await signInWithApiKey(api, session.apiKey('grace'));
    const groups = await api.views.tasks.getChildren();
    const first = groups[0];
    assert.ok(first);
    const graceRows = (await taskRows(api, String(typeof first.label === 'string' ? first.label : first.label?.label))) as Row[];
    const row = graceRows[0] as Row;
    assert.equal(row.description, undefined, 'no run state: the plan has no run statuses');
    assert.match(row.contextValue ?? '', /\brunnable\b/, 'Start Run is still offered, to be told why not');
    const { messages, stop } = recordMessages(api);
    try {
      const outcome = (await vscode.commands.executeCommand('scrapedeck.runs.start', row)) as RunOutcome;
      assert.deepEqual(outcome.failed, [row.task.taskId]);
      await waitFor('the refusal', () => messages.some((m) => m.level === 'error'));
    } finally {
      stop();
    }
    const error = messages.find((m) => m.level === 'error');
    assert.match(error?.text ?? '', new RegExp(`Could not start “${row.task.taskName}”`));
    assert.match(error?.text ?? '', /Standard plan/);
    assert.match(error?.text ?? '', /Professional or Enterprise plan/);
    assert.ok(error?.buttons.includes('Copy Request ID'));
    assert.equal(api.runs.store.get(row.task.taskId)?.pending, undefined, 'the row is back as it was');
    await vscode.commands.executeCommand('scrapedeck.signOut');
    await signInWithApiKey(api, session.apiKey('ada'));
  });
});
