/**
 * Issue 29 and the file items of 27 and 32 inside a real VS Code against a sandbox: Export Data…
 * to .xlsx and SQLite (read back by openpyxl and Python's sqlite3), Pull New Rows into an SQLite
 * file twice, an interrupted pull completed exactly once and said once, a symbolic link as the
 * pull target refused with the reason (nothing outside written), and the first pull's file picker
 * putting the files whose columns fit first. Only prompts are answered by the test.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import * as vscode from 'vscode';

import type { DataRow } from '../../src/api/schemas/dataSchemas';
import { FilePullSink } from '../../src/data/pull/fileSink';
import type { ScrapedeckTestApi } from '../../src/extension';
import { neutraliseFormula } from '../../src/platform/csvCell';
import { DEFAULT_QUEUE_SECONDS, DEFAULT_RUN_SECONDS } from '../../src/sandbox/state/runBook';
import { PYTHON, readBack } from '../shared/pullDestination';
import { dataClient, type TaskArg } from './dataClient';
import {
  getApi,
  recordMessages,
  replaceUi,
  type SandboxSession,
  signInToSandbox,
  waitFor,
  workspaceFolder,
} from './viewsHarness';

type Reply = { outcome: string; rows?: number; recovered?: number; file?: vscode.Uri };

const OPENPYXL =
  'import json,sys,openpyxl\nwb=openpyxl.load_workbook(sys.argv[1])\nprint(json.dumps([[c.value for c in r] for ws in wb.worksheets for r in ws.iter_rows()]))';
const SQLITE =
  'import json,sqlite3,sys\ndb=sqlite3.connect(sys.argv[1])\nt=[r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type=\'table\' AND name NOT LIKE \'\\\\_scrapedeck%\' ESCAPE \'\\\\\'")]\ncur=db.execute(\'SELECT * FROM "%s" ORDER BY rowid\' % t[0].replace(\'"\',\'""\'))\nprint(json.dumps({"tables":t,"columns":[d[0] for d in cur.description],"rows":[list(r) for r in cur]}))';

describe('Task data in every format, exactly once, no links (real VS Code, sandbox)', function () {
  this.timeout(180_000);
  let api: ScrapedeckTestApi;
  let session: SandboxSession;
  let ws: vscode.Uri;
  /** Tasks with rows not exported yet (their latest run's), each used by one test only. */
  const withNew: TaskArg[] = [];
  /** How far the sandbox's clock is ahead of the real one: a run is moved on by moving it. */
  let sandboxAhead = 0;
  const run = <T>(command: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(command, ...args);
  const { client, allRows } = dataClient(() => api);
  const take = (list: TaskArg[]): TaskArg => {
    const t = list.shift();
    assert.ok(t, 'a seeded task fits');
    return t;
  };

  before(async () => {
    api = await getApi();
    session = await signInToSandbox(api, { now: () => Date.now() + sandboxAhead });
    ws = workspaceFolder();
    for (const g of (await client().listTaskGroups()).data.slice(0, 3)) {
      for (const task of (await client().searchTasks(g.taskGroupId)).data) {
        // Asking for one not-exported row hands it out but marks nothing: the pull gets it again.
        if ((await client().getNotExportedData(task.taskId, 1)).data.total > 0) withNew.push({ task });
      }
    }
    assert.ok(withNew.length >= 5, `seeded tasks with new rows: ${withNew.length}`);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await session.dispose();
  });

  const exportTo = async (arg: TaskArg, file: string): Promise<Reply> => {
    const restore = replaceUi(api, { showSaveDialog: () => Promise.resolve(vscode.Uri.joinPath(ws, file)) });
    try {
      return await run<Reply>('scrapedeck.data.export', arg);
    } finally {
      restore();
    }
  };
  /** The first pull: "New File…" and the typed path; the picker's items are kept. */
  const pullNew = async (arg: TaskArg, typed: string, picks: vscode.QuickPickItem[][] = []): Promise<Reply> => {
    const restore = replaceUi(api, {
      showQuickPick: <T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>) =>
        Promise.resolve(items).then((list) => {
          picks.push([...list]);
          return list[0];
        }),
      showInputBox: () => Promise.resolve(typed),
    });
    try {
      return await run<Reply>('scrapedeck.data.pullNewRows', arg, { chooseFile: true });
    } finally {
      restore();
    }
  };

  it("Export Data… to .xlsx and to SQLite: openpyxl and Python's sqlite3 read back the task's rows", async () => {
    const arg = take(withNew);
    const rows = await allRows(arg.task.taskId);
    const names = Object.keys(rows[0] ?? {});
    const { messages, stop } = recordMessages(api);
    try {
      const xlsx = await exportTo(arg, 'export.xlsx');
      assert.deepEqual([xlsx.outcome, xlsx.rows], ['exported', rows.length]);
      const table = JSON.parse(
        execFileSync(PYTHON, ['-c', OPENPYXL, path.join(ws.fsPath, 'export.xlsx')], { encoding: 'utf8' }),
      ) as unknown[][];
      assert.deepEqual(table[0], names, "the header is the task's fields");
      assert.deepEqual(
        table.slice(1),
        rows.map((r) => names.map((n) => r[n] ?? null)),
        'every value as sent: text stays text, nothing neutralised',
      );
      const db = await exportTo(arg, 'export.sqlite');
      assert.equal(db.outcome, 'exported');
      const got = JSON.parse(
        execFileSync(PYTHON, ['-c', SQLITE, path.join(ws.fsPath, 'export.sqlite')], { encoding: 'utf8' }),
      ) as { tables: string[]; columns: string[]; rows: unknown[][] };
      assert.deepEqual(
        got.tables,
        [
          arg.task.taskName
            .replace(/[\p{Cc}]+/gu, ' ')
            .trim()
            .slice(0, 100),
        ],
        'one table, named from the task',
      );
      assert.deepEqual(got.columns, names);
      assert.deepEqual(
        got.rows,
        rows.map((r) => names.map((n) => r[n] ?? null)),
      );
      await waitFor('both done messages', () => messages.filter((m) => m.text.startsWith('Exported')).length === 2);
      const [x, s] = messages.filter((m) => m.text.startsWith('Exported'));
      assert.deepEqual(x?.buttons, ['Open', 'Reveal in Explorer']);
      assert.match(s?.text ?? '', /The rows are in its table “/);
      assert.deepEqual(
        s?.buttons,
        ['Reveal in Explorer', 'Open in Data Browser'],
        'a database is revealed or browsed, not opened as text',
      );
    } finally {
      stop();
    }
  });

  it("Pull New Rows into an SQLite file twice: the second pull adds only the rows a run added, to the task's table", async () => {
    const arg = take(withNew);
    const { taskId } = arg.task;
    const one = await pullNew(arg, 'pulled/rows.sqlite');
    assert.equal(one.outcome, 'pulled');
    const file = path.join(ws.fsPath, 'pulled', 'rows.sqlite');
    const before = (await client().getData(taskId, { offset: 0, size: 1 })).data.total;
    await client().startTask(taskId);
    // The run queues, then extracts over its 30 s (the sandbox's defaults): two thirds of the way
    // in, on the sandbox's clock, it has added rows, however slowly this machine runs.
    sandboxAhead += (DEFAULT_QUEUE_SECONDS + (2 * DEFAULT_RUN_SECONDS) / 3) * 1000;
    await waitFor(
      'rows from the run',
      async () => (await client().getData(taskId, { offset: 0, size: 1 })).data.total > before,
    );
    await client().stopTask(taskId);
    const all = await allRows(taskId);
    const two = await run<Reply>('scrapedeck.data.pullNewRows', arg);
    assert.deepEqual([two.outcome, two.rows], ['pulled', all.length - before]);
    const got = readBack(file, 'sqlite', taskId).map((r) => JSON.parse(r) as DataRow);
    assert.equal(got.length, (one.rows ?? 0) + (two.rows ?? 0));
    assert.deepEqual(got.slice(one.rows), all.slice(before), "the run's rows, in order, once");
  });

  it('an interrupted pull (a batch written, not marked) is completed exactly once by the next pull, which says so once', async () => {
    const arg = take(withNew);
    const file = path.join(ws.fsPath, 'interrupted.jsonl');
    // What a host stopped between the write and the mark leaves: the batch in the file, recorded, unmarked.
    const handed = (await client().getNotExportedData(arg.task.taskId, 1000)).data.data;
    const sink = await FilePullSink.open(file, 'jsonl', {
      ...arg.task,
      root: ws.fsPath,
      records: api.data.pullRecords() ?? assert.fail('signed in'),
    });
    await sink.write([...handed]); // a copy: the sink empties the array it is handed
    const { messages, stop } = recordMessages(api);
    const restore = replaceUi(api, {
      showQuickPick: <T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>) =>
        Promise.resolve(items).then((list) => list.find((i) => i.label.endsWith('interrupted.jsonl'))),
    });
    try {
      const reply = await run<Reply>('scrapedeck.data.pullNewRows', arg, { chooseFile: true });
      assert.equal(reply.recovered, handed.length, 'the batch was found in the file and marked, not written again');
      const lines = readBack(file, 'jsonl');
      assert.deepEqual(
        lines,
        handed.map((r) => JSON.stringify(r)),
        'every row once',
      );
      await waitFor('the message', () => messages.length > 0);
      assert.match(
        messages[0]?.text ?? '',
        new RegExp(
          `An interrupted pull was completed: ${handed.length.toLocaleString('en')} of its rows were already in interrupted\\.jsonl and were not written again\\.`,
        ),
      );
      const again = await run<Reply>('scrapedeck.data.pullNewRows', arg);
      assert.equal(again.outcome, 'nothing-new');
      await waitFor('the second message', () => messages.length > 1);
      assert.doesNotMatch(messages[1]?.text ?? '', /An interrupted pull/, 'said once');
    } finally {
      restore();
      stop();
    }
  });

  it('a symbolic link as the pull target is refused, says why, and nothing outside the workspace is written', async () => {
    const arg = take(withNew);
    const outside = mkdtempSync(path.join(tmpdir(), 'scrapedeck-outside-'));
    const profile = path.join(outside, '.bashrc');
    writeFileSync(profile, 'export PATH=$HOME/bin:$PATH\n');
    symlinkSync(profile, path.join(ws.fsPath, 'linked.jsonl'));
    const marks = session.sandbox.stats.byRoute['POST /data/markexported'] ?? 0;
    const { messages, stop } = recordMessages(api);
    try {
      const reply = await pullNew(arg, 'linked.jsonl');
      assert.equal(reply.outcome, 'unusable');
      await waitFor('the refusal', () => messages.some((m) => m.level === 'error'));
      const refusal = messages.find((m) => m.level === 'error');
      assert.match(
        refusal?.text ?? '',
        /linked\.jsonl is a symbolic link, and Scrapedeck never writes through a link\. Nothing was pulled or changed\./,
      );
      assert.deepEqual(refusal?.buttons, ['Choose Another File…']);
      assert.equal(readFileSync(profile, 'utf8'), 'export PATH=$HOME/bin:$PATH\n', 'the file outside is as it was');
      assert.equal(session.sandbox.stats.byRoute['POST /data/markexported'] ?? 0, marks, 'nothing marked');
    } finally {
      stop();
      rmSync(path.join(ws.fsPath, 'linked.jsonl'), { force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it("the first pull offers the files whose columns fit first, and says how another task's file differs (asking before appending to it)", async () => {
    const arg = take(withNew);
    const fields = Object.keys((await client().getData(arg.task.taskId, { offset: 0, size: 1 })).data.data[0] ?? {});
    writeFileSync(path.join(ws.fsPath, 'fits.csv'), `\uFEFF${fields.map((f) => neutraliseFormula(f)).join(',')}\r\n`);
    writeFileSync(path.join(ws.fsPath, 'Booking ratings.csv'), '\uFEFFHotel,Rating\r\nx,9\r\n');
    const picks: vscode.QuickPickItem[][] = [];
    const modals: string[] = [];
    const defaults: (string | undefined)[] = [];
    const restore = replaceUi(api, {
      showQuickPick: <T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>) =>
        Promise.resolve(items).then((list) => {
          picks.push([...list]);
          return list.find((i) => i.label.endsWith('Booking ratings.csv'));
        }),
      showModalWarning: (message, _detail, _action, _keep, primary) => {
        modals.push(message);
        defaults.push(primary);
        return Promise.resolve(undefined);
      },
    });
    try {
      const reply = await run<Reply>('scrapedeck.data.pullNewRows', arg, { chooseFile: true });
      assert.equal(reply.outcome, 'declined', 'the modal was dismissed: nothing pulled');
      const items = picks[0] ?? [];
      const at = (name: string) => items.findIndex((i) => i.label.endsWith(name));
      const separator = items.findIndex((i) => i.kind === vscode.QuickPickItemKind.Separator);
      assert.ok(
        at('fits.csv') > 0 && at('fits.csv') < separator && separator < at('Booking ratings.csv'),
        items.map((i) => i.label).join(' | '),
      );
      assert.equal(items[at('fits.csv')]?.description, 'same columns as this task: append to this file');
      assert.match(items[at('Booking ratings.csv')]?.description ?? '', /^other columns: lacks “/);
      assert.match(modals[0] ?? '', /The columns of Booking ratings\.csv are not the fields of “/);
      assert.deepEqual(defaults, ['keep'], 'one Enter does not mix two tasks’ rows: Don’t Append is the default');
      assert.equal(
        readFileSync(path.join(ws.fsPath, 'Booking ratings.csv'), 'utf8'),
        '\uFEFFHotel,Rating\r\nx,9\r\n',
        'untouched',
      );
    } finally {
      restore();
    }
  });
});
