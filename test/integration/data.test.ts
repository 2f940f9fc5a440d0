/**
 * A task's data inside a real VS Code against a sandbox started here: export in each format,
 * pull new rows twice into a workspace file (the second pull appends only the rows a run added
 * since), preview, and remove with and without the typed name. Only prompts are answered by the
 * test (save dialog, quick pick, input box, modal); files are read back from disk, and the
 * sandbox's counters prove what was sent.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import * as vscode from 'vscode';

import type { DataRow } from '../../src/api/schemas/dataSchemas';
import type { ScrapedeckTestApi } from '../../src/extension';
import { neutraliseFormula } from '../../src/platform/csvCell';
import { dataClient, type TaskArg } from './dataClient';
import {
  getApi,
  recordMessages,
  replaceUi,
  type SandboxSession,
  signInToSandbox,
  signInWithApiKey,
  waitFor,
  workspaceFolder,
} from './viewsHarness';

const pythonCsv = (file: string): string[][] =>
  JSON.parse(
    execFileSync(
      'python3',
      [
        '-c',
        'import csv,json,sys\nprint(json.dumps(list(csv.reader(open(sys.argv[1], encoding="utf-8-sig", newline="")))))',
        file,
      ],
      { encoding: 'utf8', maxBuffer: 64 << 20 },
    ),
  ) as string[][];
const jsonLines = (file: string): DataRow[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as DataRow);

describe('Task data: export, pull, preview, remove (real VS Code, sandbox)', function () {
  this.timeout(120_000);
  let api: ScrapedeckTestApi;
  let session: SandboxSession;
  let ws: vscode.Uri;
  let tasks: { taskId: string; taskName: string }[];
  const calls = (route: string) => session.sandbox.stats.byRoute[route] ?? 0;
  const { client, allRows } = dataClient(() => api);
  /** Indexes (in the first group) of tasks with rows, and of tasks with rows not yet exported. */
  let withRows: number[] = [];
  const withNew: number[] = [];
  /** A real node of the Tasks view, as the context menu passes it. */
  const node = async (index: number | undefined): Promise<TaskArg> => {
    assert.ok(index !== undefined, 'a seeded task fits');
    const groups = await api.views.tasks.getChildren();
    const children = await api.views.tasks.getChildren(groups[0]);
    const found = children.filter((c): c is typeof c & TaskArg => 'task' in c)[index];
    assert.ok(found, `task ${index} of the first group`);
    assert.equal(found.task.taskId, tasks[index]?.taskId, "the tree lists the tasks in the service's order");
    return found;
  };
  const run = <T>(command: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(command, ...args);

  before(async () => {
    api = await getApi();
    session = await signInToSandbox(api);
    ws = workspaceFolder();
    const groups = (await client().listTaskGroups()).data;
    tasks = (await client().searchTasks(groups[0]?.taskGroupId ?? '')).data;
    // Asking for not-exported rows hands them out but marks nothing: they come back to the pull.
    for (const [i, t] of tasks.slice(0, 20).entries()) {
      if ((await client().getData(t.taskId, { offset: 0, size: 1 })).data.total > 0) withRows.push(i);
      if ((await client().getNotExportedData(t.taskId, 1)).data.total > 0) withNew.push(i);
    }
    assert.ok(
      withRows.length >= 4 && withNew.length >= 1,
      `seeded tasks with rows: ${withRows.length}, with new rows: ${withNew.length}`,
    );
    withRows = withRows.filter((i) => i !== withNew[0]);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await session.dispose();
  });

  /** Runs Export Data… with the save dialog answered by `file` (in the workspace folder). */
  const exportTo = async (
    arg: TaskArg,
    file: string | undefined,
    extra: Partial<Parameters<typeof replaceUi>[1]> = {},
  ) => {
    const dialogs: vscode.SaveDialogOptions[] = [];
    const restore = replaceUi(api, {
      showSaveDialog: (o) => {
        dialogs.push(o);
        return Promise.resolve(file === undefined ? undefined : vscode.Uri.joinPath(ws, file));
      },
      ...extra,
    });
    try {
      return {
        reply: await run<{ outcome: string; rows?: number; file?: vscode.Uri }>('scrapedeck.data.export', arg),
        dialogs,
      };
    } finally {
      restore();
    }
  };

  it("exports CSV: UTF-8 with BOM that Python reads back as the task's rows, with Open and Reveal in Explorer", async () => {
    const arg = await node(withRows[0]);
    const rows = await allRows(arg.task.taskId);
    assert.ok(rows.length > 0, 'the task has rows');
    const { messages, stop } = recordMessages(api);
    try {
      const { reply, dialogs } = await exportTo(arg, 'export-one.csv');
      assert.equal(reply.outcome, 'exported');
      assert.equal(reply.rows, rows.length);
      assert.match(dialogs[0]?.title ?? '', new RegExp(arg.task.taskName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      assert.ok(dialogs[0]?.defaultUri?.path.endsWith('.csv'), 'CSV is offered');
      const file = path.join(ws.fsPath, 'export-one.csv');
      assert.deepEqual([...readFileSync(file).subarray(0, 3)], [0xef, 0xbb, 0xbf]);
      const [header, ...lines] = pythonCsv(file);
      const names = Object.keys(rows[0] ?? {});
      assert.deepEqual(header, names.map(neutraliseFormula), "the task's field names");
      assert.equal(lines.length, rows.length);
      lines.forEach((line, i) =>
        assert.deepEqual(
          line,
          names.map((n) => {
            const v = rows[i]?.[n];
            return v === null || v === undefined ? '' : typeof v === 'string' ? neutraliseFormula(v) : String(v);
          }),
          `row ${i}`,
        ),
      );
      await waitFor('the done message', () => messages.some((m) => m.text.startsWith('Exported')));
      const done = messages.find((m) => m.text.startsWith('Exported'));
      assert.match(
        done?.text ?? '',
        new RegExp(`rows of “${arg.task.taskName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}” to export-one\\.csv`),
      );
      assert.deepEqual(done?.buttons, ['Open', 'Reveal in Explorer', 'Open in Data Browser']);
      assert.deepEqual(
        readdirSync(ws.fsPath).filter((f) => f.includes('scrapedeck-tmp')),
        [],
        'no temporary file left',
      );
    } finally {
      stop();
    }
  });

  it('exports JSON Lines and JSON equal to the rows; a name without a known ending asks for the format', async () => {
    const arg = await node(withRows[1]);
    const rows = await allRows(arg.task.taskId);
    assert.equal((await exportTo(arg, 'export-two.jsonl')).reply.outcome, 'exported');
    assert.deepEqual(jsonLines(path.join(ws.fsPath, 'export-two.jsonl')), rows);
    assert.equal((await exportTo(arg, 'export-two.json')).reply.outcome, 'exported');
    assert.deepEqual(JSON.parse(readFileSync(path.join(ws.fsPath, 'export-two.json'), 'utf8')), rows);
    const picks: string[][] = [];
    const txt = await exportTo(arg, 'export-two.txt', {
      showQuickPick: <T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>) =>
        Promise.resolve(items).then((list) => {
          picks.push(list.map((i) => i.label));
          return list.find((i) => i.label === 'JSON Lines');
        }),
    });
    assert.equal(txt.reply.outcome, 'exported');
    assert.deepEqual(picks, [['CSV', 'JSON Lines', 'JSON', 'Excel (.xlsx)', 'SQLite']]);
    assert.deepEqual(jsonLines(path.join(ws.fsPath, 'export-two.txt')), rows);
  });

  it('a dismissed save dialog exports nothing and sends nothing', async () => {
    const before = calls('GET /data/all');
    assert.equal((await exportTo(await node(withRows[1]), undefined)).reply.outcome, 'declined');
    assert.equal(calls('GET /data/all'), before);
  });

  it('pulls new rows twice into a workspace file: the second pull appends only the rows a run added, without asking for the file again', async () => {
    const arg = await node(withNew[0]);
    const { taskId } = arg.task;
    const picks: string[][] = [];
    const inputs: vscode.InputBoxOptions[] = [];
    const restore = replaceUi(api, {
      showQuickPick: <T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>) =>
        Promise.resolve(items).then((list) => {
          picks.push(list.map((i) => i.label));
          return list[0]; // "New File…"
        }),
      showInputBox: (o) => {
        inputs.push(o);
        return Promise.resolve('pulled/new-rows.jsonl');
      },
    });
    const { messages, stop } = recordMessages(api);
    try {
      const marksBefore = calls('POST /data/markexported');
      const one = await run<{ outcome: string; rows: number; file: vscode.Uri }>('scrapedeck.data.pullNewRows', arg);
      assert.equal(one.outcome, 'pulled');
      assert.ok(one.rows > 0, "the last run's rows were not exported yet");
      assert.equal(picks.length, 1);
      assert.match(picks[0]?.[0] ?? '', /New File…/);
      assert.equal(
        inputs[0]?.validateInput?.('../outside.jsonl') !== undefined,
        true,
        'a path leaving the workspace is refused as typed',
      );
      assert.equal(
        inputs[0]?.validateInput?.('rows.txt') !== undefined,
        true,
        'a name without .jsonl or .csv is refused',
      );
      const file = path.join(ws.fsPath, 'pulled', 'new-rows.jsonl');
      assert.equal(jsonLines(file).length, one.rows);
      assert.ok(calls('POST /data/markexported') > marksBefore, 'marked after writing');

      // A run adds rows; stop it once some have arrived, so the count is settled.
      const before = (await client().getData(taskId, { offset: 0, size: 1 })).data.total;
      await client().startTask(taskId);
      await waitFor(
        'rows from the run',
        async () => (await client().getData(taskId, { offset: 0, size: 1 })).data.total > before,
        60_000,
      );
      await client().stopTask(taskId);
      const after = await allRows(taskId);
      const added = after.length - before;

      const two = await run<{ outcome: string; rows: number }>('scrapedeck.data.pullNewRows', arg);
      assert.equal(two.outcome, 'pulled');
      assert.equal(two.rows, added, 'only the rows the run added');
      assert.equal(picks.length, 1, 'the remembered file: no picker the second time');
      const lines = jsonLines(file);
      assert.equal(lines.length, one.rows + added);
      assert.deepEqual(lines.slice(one.rows), after.slice(before), 'the new rows, in order, appended');
      // The first pull made the file ("Wrote"), the second added to it ("Appended").
      await waitFor(
        'the pulled messages',
        () => messages.filter((m) => /^(Wrote|Appended) /.test(m.text)).length === 2,
      );
      assert.deepEqual(
        messages.filter((m) => /^(Wrote|Appended) /.test(m.text)).map((m) => m.text.split(' ')[0]),
        ['Wrote', 'Appended'],
      );
      assert.deepEqual(messages.filter((m) => m.text.startsWith('Appended'))[0]?.buttons, [
        'Open',
        'Open in Data Browser',
        'Change File…',
      ]);

      const three = await run<{ outcome: string }>('scrapedeck.data.pullNewRows', arg);
      assert.equal(three.outcome, 'nothing-new');
      assert.equal(jsonLines(file).length, one.rows + added, 'unchanged');
    } finally {
      stop();
      restore();
    }
  });

  it('Keep in Sync…: its picker says it sets up where every run’s new rows go (not titled as Pull New Rows); dismissed, declined', async () => {
    const arg = await node(withRows[0]);
    const asked: (vscode.QuickPickOptions | undefined)[] = [];
    const restore = replaceUi(api, {
      showQuickPick: (_items: unknown, options?: vscode.QuickPickOptions) => {
        asked.push(options);
        return Promise.resolve(undefined);
      },
    });
    try {
      assert.equal(await run<string>('scrapedeck.data.keepInSync', arg), 'declined');
    } finally {
      restore();
    }
    assert.equal(asked.length, 1, 'one picker');
    assert.equal(asked[0]?.title, `Keep “${arg.task.taskName}” in Sync with…`);
    assert.match(asked[0]?.placeHolder ?? '', /Each time a run ends, its new rows are pulled here/);
    assert.doesNotMatch(`${asked[0]?.title} ${asked[0]?.placeHolder}`, /Pull the New Rows of/);
  });

  it("Browse Data: the first page shows at once with the task's own column names, in a browser tab, the rest streaming in", async () => {
    // The task with the most rows in the first group.
    const totals = await Promise.all(
      tasks
        .slice(0, 6)
        .map(async (t) => ({ t, total: (await client().getData(t.taskId, { offset: 0, size: 1 })).data.total })),
    );
    const pick = totals.sort((a, b) => b.total - a.total)[0];
    assert.ok(pick && pick.total > 0);
    const reply = await run<{ outcome: string; title: string; rows: number; total: number; columns: string[] }>(
      'scrapedeck.data.browse',
      { task: pick.t },
    );
    assert.equal(reply.outcome, 'shown');
    assert.equal(reply.rows, Math.min(1000, pick.total));
    assert.equal(reply.total, pick.total);
    const first = (await client().getData(pick.t.taskId, { offset: 0, size: 1000 })).data.data;
    assert.deepEqual(reply.columns, [...new Set(first.flatMap((r) => Object.keys(r)))]);
    await waitFor(
      'the browser tab',
      () => vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.label === reply.title)),
      30_000,
    );
  });

  it("Remove Data…: nothing is sent without the modal's button, or with a wrong name; removed with the typed name", async () => {
    const arg = await node(withRows[2]);
    const { taskId, taskName } = arg.task;
    assert.ok((await client().getData(taskId, { offset: 0, size: 1 })).data.total > 0);
    const removes = () => calls('POST /data/remove');
    const before = removes();
    const ask = async (modal: string | undefined, typed: string | undefined) => {
      const seen: { modal?: { message: string; detail: string; buttons: string[] }; input?: vscode.InputBoxOptions } =
        {};
      const restore = replaceUi(api, {
        showModalWarning: (message, detail, action, keep) => {
          seen.modal = { message, detail, buttons: [action, keep] };
          return Promise.resolve(modal);
        },
        showInputBox: (o) => {
          seen.input = o;
          return Promise.resolve(typed);
        },
      });
      try {
        return { outcome: await run<string>('scrapedeck.data.remove', arg), seen };
      } finally {
        restore();
      }
    };

    const declined = await ask(undefined, taskName);
    assert.equal(declined.outcome, 'declined');
    assert.equal(declined.seen.modal?.message, `Remove all data of “${taskName}”?`);
    assert.deepEqual(declined.seen.modal?.buttons, ['Remove Data…', 'Keep the Data']);
    assert.equal(declined.seen.input, undefined, 'no name asked after Keep the Data');

    const wrong = await ask('Remove Data…', `${taskName}x`);
    assert.equal(wrong.outcome, 'mismatch');
    assert.notEqual(wrong.seen.input?.validateInput?.('nope'), undefined);
    assert.equal(wrong.seen.input?.validateInput?.(taskName), undefined);
    const escaped = await ask('Remove Data…', undefined);
    assert.equal(escaped.outcome, 'declined');
    assert.equal(removes(), before, 'nothing sent');
    assert.ok((await client().getData(taskId, { offset: 0, size: 1 })).data.total > 0, 'the rows are still there');

    const removed = await ask('Remove Data…', taskName);
    assert.equal(removed.outcome, 'removed');
    assert.equal(removes(), before + 1);
    assert.equal((await client().getData(taskId, { offset: 0, size: 1 })).data.total, 0);
    // An export of the emptied task says so and writes nothing.
    const empty = await exportTo(arg, 'emptied.csv');
    assert.equal(empty.reply.outcome, 'empty');
    assert.equal(existsSync(path.join(ws.fsPath, 'emptied.csv')), false);
    // Nor does a pull offer files: none could be said to fit a task with no rows (issue 32 item 8).
    const picker = replaceUi(api, { showQuickPick: () => Promise.reject(new Error('no file should be offered')) });
    const { messages, stop } = recordMessages(api);
    try {
      const pull = await run<{ outcome: string; file?: unknown }>('scrapedeck.data.pullNewRows', arg, {
        chooseFile: true,
      });
      assert.deepEqual([pull.outcome, pull.file], ['nothing-new', undefined]);
      assert.ok(
        messages.some((m) =>
          m.text.startsWith(`“${taskName}” holds no data at the service, so there is nothing to pull.`),
        ),
        JSON.stringify(messages),
      );
    } finally {
      stop();
      picker();
    }
  });

  it('Remove Data… names the task as the service does (not as the caller passed it); an id the account does not have is refused unasked', async () => {
    const arg = await node(withRows[2]);
    const asked: string[] = [];
    const { messages, stop } = recordMessages(api);
    const restore = replaceUi(api, {
      showModalWarning: (message) => {
        asked.push(message);
        return Promise.resolve(undefined);
      },
    });
    try {
      assert.equal(
        await run<string>('scrapedeck.data.remove', { taskId: arg.task.taskId, taskName: 'Harmless test task' }),
        'declined',
      );
      assert.deepEqual(asked, [`Remove all data of “${arg.task.taskName}”?`]);
      assert.equal(
        await run<string>('scrapedeck.data.remove', { taskId: 'no-such-task-0000', taskName: 'Ghost task' }),
        'unknown-task',
      );
      assert.equal(asked.length, 1, 'nothing asked for an id the account does not have');
      assert.ok(
        messages.some(
          (m) => m.text === 'This account has no task with the id no-such-task-0000, so nothing was removed.',
        ),
        JSON.stringify(messages),
      );
    } finally {
      restore();
      stop();
    }
  });

  it('a refusal names the task and offers the request ID (a task the account does not have); nothing is written', async () => {
    const task = { taskId: 'no-such-task-0000', taskName: 'Ghost task' };
    const { messages, stop } = recordMessages(api);
    const restore = replaceUi(api, {
      showQuickPick: <T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>) =>
        Promise.resolve(items).then((list) => list[0]),
      showInputBox: () => Promise.resolve('refused/rows.jsonl'),
    });
    try {
      assert.equal((await exportTo({ task }, 'refused.csv')).reply.outcome, 'failed');
      assert.equal((await run<{ outcome: string }>('scrapedeck.data.pullNewRows', { task })).outcome, 'failed');
      assert.equal((await run<{ outcome: string }>('scrapedeck.data.browse', { task })).outcome, 'failed');
      await waitFor('three error messages', () => messages.filter((m) => m.level === 'error').length >= 3);
      for (const m of messages.filter((x) => x.level === 'error')) {
        assert.ok(m.text.includes('“Ghost task”'), `names the task: ${m.text}`);
        assert.deepEqual(m.buttons, ['Copy Request ID', 'Show Log'], 'offers the request ID');
      }
      assert.match(
        messages.find((m) => m.level === 'error' && m.text.startsWith('Could not pull'))?.text ?? '',
        /no row is lost or written twice/,
      );
      assert.equal(existsSync(path.join(ws.fsPath, 'refused.csv')), false);
      assert.equal(
        existsSync(path.join(ws.fsPath, 'refused', 'rows.jsonl')),
        false,
        'no file for a pull the service refused',
      );
      assert.ok(
        api.logLines.some((l) => /Ghost task.*request ID/.test(l)),
        'the log has the request ID too',
      );
    } finally {
      restore();
      stop();
    }
  });

  it("signed out: browsers of the service's rows are closed (their tabs name the old account's tasks), and the commands ask to sign in", async () => {
    const arg = await node(withRows[0]);
    const reply = await run<{ outcome: string; title: string }>('scrapedeck.data.browse', arg);
    assert.equal(reply.outcome, 'shown');
    const browserTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.label === reply.title);
    await waitFor('the browser tab', () => browserTabs().length > 0, 30_000);
    await run('scrapedeck.signOut');
    await waitFor("the tab naming the old account's task to close", () => browserTabs().length === 0, 30_000);
    const { messages, stop } = recordMessages(api);
    try {
      assert.equal((await run<{ outcome: string }>('scrapedeck.data.export', arg)).outcome, 'signed-out');
      assert.match(messages[0]?.text ?? '', /Sign in to Scrapedeck to export the data of “/);
    } finally {
      stop();
    }
    await signInWithApiKey(api, session.account('ada').apiKey);
  });
});
