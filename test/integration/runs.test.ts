/**
 * Runs in a real VS Code against a sandbox on a clock the test moves: start -> the row says
 * Queued -> spins and counts rows -> the run ends -> a notification with the rows and Export This
 * Run's Data, which writes that run's rows alone; stop (asked first, Enter-safe, by the service's
 * name for the id); a selection; a task that never ran in the cloud; Remove Data refreshes the
 * row's count; a Standard account's refusal; statuses follow the account. Only the prompts' answers
 * are replaced; messages are recorded and still shown.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import * as vscode from 'vscode';

import type { ScrapedeckTestApi } from '../../src/extension';
import type { RunOutcome } from '../../src/runs/runActions';
import type { TasksNode } from '../../src/tasks/taskNodes';
import {
  iconOf,
  QUEUE_MS,
  REFRESH_SECONDS,
  type Row,
  rowWhen,
  type RunsSession,
  startRunsSession,
  taskRow,
  taskRows,
} from './runsHarness';
import {
  answerInputs,
  getApi,
  recordMessages,
  replaceUi,
  signInWithApiKey,
  tooltipText,
  waitFor,
} from './viewsHarness';

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
    await waitFor('the rows’ run state', async () =>
      (await taskRows(api, GROUP)).every((r) => iconOf(r) !== 'checklist'),
    );
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await session?.dispose();
  });

  it('every row shows its state from the service: icon, description, tooltip with times read as UTC', async () => {
    // The row as last drawn with its run state (health's redraw hands VS Code new row objects).
    const row = await rowWhen(api, GROUP, (rows[0] as Row).task.taskId, 'its run state', (r) =>
      /Run status:/.test(tooltipText(r)),
    );
    const status = await statusAtService(row.task.taskId);
    assert.ok(status);
    assert.notEqual(iconOf(row), 'sync~spin');
    assert.match(row.contextValue ?? '', /^task\b.*\brunnable\b/);
    assert.doesNotMatch(row.contextValue ?? '', /\brunning\b/);
    const tip = tooltipText(row);
    assert.match(tip, new RegExp(`Run status: ${status.status}`));
    if (status.startExecuteTime !== null) assert.match(tip, /read as UTC and shown in your time zone/);
  });

  it("Start Run: the row says so at once, then Queued, then spins and counts rows; the run ends, a notification says how many and offers this run's data", async () => {
    const task = (rows[1] as Row).task;
    const seen: string[] = [];
    const watch = api.views.tasks.onDidChangeTreeData((e) => {
      for (const item of Array.isArray(e) ? e : e ? [e] : [])
        if ((item as Row).task?.taskId === task.taskId) seen.push(String(item.description));
    });
    const { messages, stop } = recordMessages(api);
    try {
      const outcome = (await vscode.commands.executeCommand(
        'scrapedeck.runs.start',
        await taskRow(api, GROUP, task.taskId),
      )) as RunOutcome;
      assert.deepEqual(outcome.done, [task.taskId]);
      // Health may lead the row with why it needs attention ("52% failed · Starting…") once its
      // figures are in, which a faster limiter brings before the start.
      assert.match(seen[0] ?? '', /(^| · )Starting/, `first redraw: ${seen.join(' | ')}`);
      // Queued for a cloud node: shown as queued (not unknown), Stop Run applies, still polled.
      const queued = await rowWhen(api, GROUP, task.taskId, 'the queued state', (r) =>
        /(^| · )Queued( · |$)/.test(String(r.description)),
      );
      assert.equal(iconOf(queued), 'watch');
      assert.match(queued.contextValue ?? '', /\brunning\b/);
      assert.match(tooltipText(queued), /Run status: Waiting/);
      assert.ok(api.runs.store.isActive(task.taskId));
      session.clock.advance(QUEUE_MS);
      const spinning = await rowWhen(api, GROUP, task.taskId, 'the spinner', (r) => iconOf(r) === 'sync~spin');
      assert.match(String(spinning.description), /(^| · )Extracting, \d+ rows?( · |$)/);
      assert.match(spinning.contextValue ?? '', /\brunning\b/);
      assert.doesNotMatch(spinning.contextValue ?? '', /\brunnable\b/, 'only Stop Run is offered');
      assert.equal(
        spinning.collapsibleState,
        vscode.TreeItemCollapsibleState.Collapsed,
        'a running task opens to its subtasks',
      );
      const subtasks = await api.views.tasks.getChildren(spinning as unknown as TasksNode);
      assert.ok(subtasks.length >= 2, 'two to six subtasks');
      assert.ok(subtasks.every((s) => s.contextValue === 'subtask' && typeof s.description === 'string'));

      session.clock.advance(12_000);
      await rowWhen(api, GROUP, task.taskId, 'rows to grow', (r) =>
        /Extracting, [1-9][\d,]* rows?/.test(String(r.description)),
      );
      session.clock.advance(RUN_MS);
      const ended = await rowWhen(
        api,
        GROUP,
        task.taskId,
        'the run to end',
        (r) => iconOf(r) !== 'sync~spin' && !/Starting|Stopping|Queued/.test(String(r.description)),
      );
      const status = await statusAtService(task.taskId);
      assert.ok(status && /Finished|Failed/.test(status.status));
      assert.equal(iconOf(ended), status.status === 'Finished' ? 'pass' : 'error');
      assert.match(
        ended.contextValue ?? '',
        /\blot\b/,
        "Export This Run's Data is offered on the task while it is the last run",
      );
      // Not health's "tasks need attention" notice, which may name the same task.
      const isRunNotice = (m: { text: string }) => m.text.includes(task.taskName) && /(finished|failed):/.test(m.text);
      await waitFor('the notification', () => messages.some(isRunNotice));
      const notice = messages.find(isRunNotice);
      const rowsText = (status.currentTotalExtractCount ?? -1).toLocaleString('en-US');
      assert.match(notice?.text ?? '', new RegExp(`“.*” (finished|failed): ${rowsText} rows? collected`));
      const canExport = (await vscode.commands.getCommands(true)).includes('scrapedeck.data.exportRun');
      assert.deepEqual(
        notice?.buttons,
        canExport ? ['Open Analytics', 'Browse Rows', 'Export Rows'] : ['Open Analytics'],
      );

      // Export This Run's Data from the task: only this run's rows, read by its lot.
      const dir = mkdtempSync(path.join(os.tmpdir(), 'scrapedeck-run-export-'));
      const lotNo = api.runs.store.lotOf(task.taskId)?.lotNo;
      assert.match(lotNo ?? '', /^\d{19}$/);
      const before = session.sandbox.stats.byRoute['GET /data/lotno/all'] ?? 0;
      const restore = replaceUi(api, {
        showSaveDialog: () => Promise.resolve(vscode.Uri.file(path.join(dir, 'run.jsonl'))),
      });
      try {
        const reply = (await vscode.commands.executeCommand('scrapedeck.data.exportRun', ended)) as {
          outcome: string;
          rows?: number;
        };
        assert.equal(reply.outcome, 'exported');
        assert.equal(reply.rows, status.currentTotalExtractCount);
        const written = readFileSync(path.join(dir, 'run.jsonl'), 'utf8')
          .split('\n')
          .filter((l) => l !== '');
        assert.equal(written.length, status.currentTotalExtractCount);
        const all = (await session.client('ada').getData(task.taskId, { offset: 0, size: 1 })).data.total;
        assert.ok(all > written.length, "fewer than all the task's rows");
        assert.ok((session.sandbox.stats.byRoute['GET /data/lotno/all'] ?? 0) > before, 'read by its lot');
      } finally {
        restore();
        rmSync(dir, { recursive: true, force: true });
      }
    } finally {
      stop();
      watch.dispose();
    }
  });

  it('Remove Data: the row\'s count follows at once, not the old "Finished, N rows" (issue 32 item 5)', async () => {
    const task = (rows[1] as Row).task;
    const row = await rowWhen(api, GROUP, task.taskId, 'the ended run with rows', (r) =>
      /(^| · )(Finished|Failed): [1-9][\d,]* rows? last run/.test(String(r.description)),
    );
    const restore = replaceUi(api, {
      showModalWarning: (_message, _detail, action, keep) =>
        Promise.resolve([action, keep].find((i) => /^Remove Data/.test(i))),
      showInputBox: () => Promise.resolve(task.taskName),
    });
    try {
      assert.equal(await vscode.commands.executeCommand('scrapedeck.data.remove', row), 'removed');
    } finally {
      restore();
    }
    // Nothing runs, so no poll is due: the removal itself asks the task's status again.
    const after = await rowWhen(
      api,
      GROUP,
      task.taskId,
      'the count after the removal',
      (r) => /(^| · )(Finished|Failed): 0 rows last run( · |$)/.test(String(r.description)),
      REFRESH_SECONDS * 1000,
    );
    assert.match(tooltipText(after), /Rows of its last run: 0 \(Export Data writes all of the task’s rows\)/);
  });

  it('a task that never ran in the cloud reads so, and its local runs do not make the row tell two stories ("Reddit ratings")', async () => {
    const client = session.client('ada');
    let found: { group: string; taskId: string } | undefined;
    for (const g of (await client.listTaskGroups()).data) {
      const task = (await client.searchTasks(g.taskGroupId)).data.find((t) => t.taskName === 'Reddit ratings');
      if (task !== undefined) found = { group: g.taskGroupName, taskId: task.taskId };
    }
    assert.ok(found, 'the seeded task of issue 32 item 3');
    assert.deepEqual(
      (await client.getTaskStatuses([found.taskId])).data,
      [],
      'left out of the statuses: never ran in the cloud',
    );
    const row = await rowWhen(
      api,
      found.group,
      found.taskId,
      'never run, with health',
      (r) => /(^| · )Never run in the cloud \(local runs only\)$/.test(String(r.description)),
      60_000,
    );
    assert.equal(iconOf(row), 'circle-large-outline');
    assert.match(row.contextValue ?? '', /\brunnable\b/);
    const tip = tooltipText(row);
    assert.match(
      tip,
      /Never run in the cloud: the service has no cloud run of this task \(runs on your own computer are not counted here\)/,
    );
    assert.match(tip, /Failed: \d+ of \d+ runs?/);
    assert.doesNotMatch(tip, /Runs so far|Not run yet|Could not/);
  });

  it("Stop Run asks like Remove Data and Deprecate: one action button and one named way to say no (Keep Running, also Escape), then the task's name typed; declining or Enter alone sends nothing; stopping ends the run without a notice", async () => {
    const task = (rows[2] as Row).task;
    await vscode.commands.executeCommand('scrapedeck.runs.start', await taskRow(api, GROUP, task.taskId));
    await rowWhen(api, GROUP, task.taskId, 'queued', (r) => /(^| · )Queued/.test(String(r.description)));
    session.clock.advance(QUEUE_MS);
    const running = await rowWhen(api, GROUP, task.taskId, 'the spinner', (r) => iconOf(r) === 'sync~spin');
    const asked: { message: string; detail: string; items: string[] }[] = [];
    let answer: string | undefined;
    const restore = replaceUi(api, {
      showModalWarning: (message, detail, action, keep) => {
        asked.push({ message, detail, items: [action, keep] });
        return Promise.resolve(answer);
      },
    });
    const { messages, stop } = recordMessages(api);
    try {
      const declined = (await vscode.commands.executeCommand('scrapedeck.runs.stop', running)) as RunOutcome;
      assert.equal(declined.declined, true);
      assert.equal((await statusAtService(task.taskId))?.status, 'Extracting', 'nothing sent');
      assert.deepEqual(
        asked[0]?.items,
        ['Stop Run…', 'Keep Running'],
        'one action and one way to say no, named for what it keeps',
      );
      assert.match(asked[0]?.message ?? '', new RegExp(`Stop the run of “${task.taskName}”`));
      assert.match(asked[0]?.detail ?? '', /cannot be resumed/);

      // The action button only opens the second step: an empty box (Enter alone) or Escape stops nothing.
      answer = 'Stop Run…';
      const escaped = answerInputs(api, [undefined]);
      try {
        assert.equal(
          ((await vscode.commands.executeCommand('scrapedeck.runs.stop', running)) as RunOutcome).declined,
          true,
        );
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
      assert.match(String(row.description), /(^| · )Stopped: \d+ rows? last run( · |$)/);
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
    await rowWhen(api, GROUP, a.taskId, 'A queued', (r) => /(^| · )Queued/.test(String(r.description)));
    session.clock.advance(QUEUE_MS);
    await rowWhen(api, GROUP, a.taskId, 'A spinning', (r) => iconOf(r) === 'sync~spin');
    await rowWhen(api, GROUP, b.taskId, 'B spinning', (r) => iconOf(r) === 'sync~spin');
    const asked: string[] = [];
    const restore = replaceUi(api, {
      showModalWarning: (message, _detail, action, keep) => {
        asked.push(message, action, keep);
        return Promise.resolve(action);
      },
    });
    const typed = answerInputs(api, ['2']);
    try {
      const a2 = await taskRow(api, GROUP, a.taskId);
      const stopped = (await vscode.commands.executeCommand('scrapedeck.runs.stop', a2, [
        a2,
        await taskRow(api, GROUP, b.taskId),
      ])) as RunOutcome;
      assert.equal(stopped.done.length, 2);
      assert.deepEqual(asked, ['Stop 2 runs?', 'Stop 2 Runs…', 'Keep Them Running']);
      assert.equal(typed.asked[0]?.title, 'Stop 2 Runs (2/2)');
    } finally {
      typed.restore();
      restore();
    }
    await rowWhen(api, GROUP, b.taskId, 'B stopped', (r) => iconOf(r) === 'debug-stop');
  });

  it("Stop Run names the task as the service does: a caller's made-up name is not shown, an id the account does not have is left alone", async () => {
    const task = (rows[6] as Row).task;
    await vscode.commands.executeCommand('scrapedeck.runs.start', await taskRow(api, GROUP, task.taskId));
    await rowWhen(api, GROUP, task.taskId, 'queued', (r) => /(^| · )Queued/.test(String(r.description)));
    session.clock.advance(QUEUE_MS);
    await rowWhen(api, GROUP, task.taskId, 'the spinner', (r) => iconOf(r) === 'sync~spin');
    const asked: string[] = [];
    const restore = replaceUi(api, {
      showModalWarning: (message) => {
        asked.push(message);
        return Promise.resolve(undefined);
      },
    });
    try {
      const declined = (await vscode.commands.executeCommand('scrapedeck.runs.stop', {
        task: { taskId: task.taskId, taskName: 'Harmless test task' },
      })) as RunOutcome;
      assert.equal(declined.declined, true);
      assert.deepEqual(asked, [`Stop the run of “${task.taskName}”?`]);
    } finally {
      restore();
    }
    assert.equal((await statusAtService(task.taskId))?.status, 'Extracting');
    await session.client('ada').stopTask(task.taskId);
  });

  it('with notifications turned off, a run that ends says nothing', async () => {
    await vscode.workspace
      .getConfiguration('scrapedeck')
      .update('runs.notifyOnFinish', false, vscode.ConfigurationTarget.Global);
    await waitFor('the setting', () => !api.runs.settings().notifyOnFinish);
    const task = (rows[5] as Row).task;
    const { messages, stop } = recordMessages(api);
    try {
      await vscode.commands.executeCommand('scrapedeck.runs.start', await taskRow(api, GROUP, task.taskId));
      await rowWhen(api, GROUP, task.taskId, 'queued', (r) => /(^| · )Queued/.test(String(r.description)));
      session.clock.advance(QUEUE_MS);
      await rowWhen(api, GROUP, task.taskId, 'the spinner', (r) => iconOf(r) === 'sync~spin');
      session.clock.advance(RUN_MS);
      await rowWhen(api, GROUP, task.taskId, 'the end', (r) => iconOf(r) === 'pass' || iconOf(r) === 'error');
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(messages.filter((m) => m.text.includes(task.taskName)).length, 0);
    } finally {
      stop();
      await vscode.workspace
        .getConfiguration('scrapedeck')
        .update('runs.notifyOnFinish', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a Standard account shows no run state, is not offered Start Run, and a start asked anyway is refused with the plans named and the request ID offered', async () => {
    await vscode.commands.executeCommand('scrapedeck.signOut');
    assert.equal(api.runs.store.get((rows[0] as Row).task.taskId), undefined, 'nothing of ada’s runs is kept');
    await signInWithApiKey(api, session.apiKey('grace'));
    const groups = await api.views.tasks.getChildren();
    const first = groups[0];
    assert.ok(first);
    const groupName = String(typeof first.label === 'string' ? first.label : first.label?.label);
    const graceRows = (await taskRows(api, groupName)) as Row[];
    const row = graceRows[0] as Row;
    assert.equal(row.description, undefined, 'no run state: the plan has no run statuses');
    // The statuses were refused: the rows offer neither Start Run nor Stop Run (issue 48's walk: offered, then refused).
    const plain = await rowWhen(
      api,
      groupName,
      row.task.taskId,
      'no Start Run',
      (r) => !/\brunnable\b/.test(r.contextValue ?? ''),
      10_000,
    );
    assert.doesNotMatch(plain.contextValue ?? '', /\brunning\b/);
    assert.match(plain.contextValue ?? '', /\btask\b/, 'the task menu is still there');
    assert.match(tooltipText(plain), /Professional or Enterprise plan, so Start Run is not offered/);
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
