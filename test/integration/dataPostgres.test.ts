/**
 * PostgreSQL as a destination inside a real VS Code, against the sandbox and the private server
 * test-vscode.mjs started: a connection added through the command (its prompts answered through
 * the seam), tested, two pulls into it (the second takes only the rows a run added), the table
 * read back by psql row by row; and, in Restricted Mode, each command and the pull refused
 * before anything connects.
 */
import * as assert from 'node:assert/strict';

import * as vscode from 'vscode';

import type { DataRow } from '../../src/api/schemas/dataSchemas';
import type { ScrapedeckTestApi } from '../../src/extension';
import { expectedPg, freshSchema, psql, readBackPg } from '../shared/pgPull';
import { type TestServer, testServer } from '../shared/pgServer';
import { dataClient } from './dataClient';
import { connectionAnswers, pickServer, removeFirstConnection } from './pgHarness';
import { getApi, recordMessages, replaceUi, type SandboxSession, signInToSandbox, waitFor } from './viewsHarness';

const REFUSAL = 'Scrapedeck does not connect to PostgreSQL servers in Restricted Mode: trust this workspace first.';

describe('PostgreSQL destination: add, test, pull twice, Restricted Mode (real VS Code, sandbox, real server)', function () {
  this.timeout(180_000);
  let api: ScrapedeckTestApi;
  let session: SandboxSession;
  let server: TestServer;
  let schema: string;
  let task: { taskId: string; taskName: string };
  /** How many of the task's rows the service had marked exported before the first pull. */
  let exportedBefore = 0;
  const run = <T>(command: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(command, ...args);
  const { client, allRows } = dataClient(() => api);
  const total = async (taskId: string) => (await client().getData(taskId, { offset: 0, size: 1 })).data.total;
  const answers = (password: string) => connectionAnswers(server, schema, password);

  before(async () => {
    server = testServer();
    schema = freshSchema(server, 'it_pull');
    api = await getApi();
    session = await signInToSandbox(api);
    const groups = (await client().listTaskGroups()).data;
    const tasks = (await client().searchTasks(groups[0]?.taskGroupId ?? '')).data;
    // A task with rows; one whose rows were never exported if there is one (then the table must hold them all).
    let chosen: { taskId: string; taskName: string } | undefined;
    for (const t of tasks.slice(0, 20)) {
      const rows = await total(t.taskId);
      if (rows === 0) continue;
      const fresh = (await client().getNotExportedData(t.taskId, 1)).data.total;
      if (chosen === undefined || fresh === rows) {
        chosen = t;
        exportedBefore = rows - fresh;
      }
      if (fresh === rows) break;
    }
    assert.ok(chosen, 'a seeded task with rows');
    task = { taskId: chosen.taskId, taskName: chosen.taskName };
  });

  after(async () => {
    await session.dispose();
  });

  it("adds a connection through the command, tests it, pulls twice into the task's table (0 missing, 0 twice), exports into a new table, then removes it", async () => {
    const { messages, stop } = recordMessages(api);
    try {
      let restore = replaceUi(api, answers(server.password));
      const saved = await run<{ id: string } | undefined>('scrapedeck.data.addPostgresConnection');
      restore();
      assert.ok(saved?.id, 'the connection was added');
      assert.ok(
        messages.some((m) => m.text.startsWith('Added the PostgreSQL connection')),
        JSON.stringify(messages),
      );
      assert.equal(
        JSON.stringify(vscode.workspace.getConfiguration('scrapedeck')).includes(server.password),
        false,
        'no password in settings',
      );

      restore = replaceUi(api, {
        showQuickPick: <T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>) =>
          Promise.resolve(items).then((l) => l[0]),
      });
      assert.equal(await run<boolean>('scrapedeck.data.testPostgresConnection'), true);
      restore();
      assert.ok(
        messages.some((m) => m.text.includes(`works: Scrapedeck can create its tables in the schema ${schema}`)),
        JSON.stringify(messages),
      );

      const seen: string[][] = [];
      restore = replaceUi(api, { showQuickPick: (items) => pickServer(items, seen) });
      try {
        const one = await run<{ outcome: string; rows: number }>('scrapedeck.data.pullNewRows', { task });
        assert.equal(one.outcome, 'pulled', JSON.stringify(messages));
        assert.equal(seen.length, 1, 'the picker once');
        assert.ok(one.rows > 0, 'the task had rows not yet exported');

        // A run adds rows; stopped once some arrived, so the count is settled.
        const before = await total(task.taskId);
        await client().startTask(task.taskId);
        await waitFor('rows from the run', async () => (await total(task.taskId)) > before, 60_000);
        await client().stopTask(task.taskId);
        const rows = await allRows(task.taskId);
        const added = rows.length - before;

        const two = await run<{ outcome: string; rows: number }>('scrapedeck.data.pullNewRows', { task });
        assert.equal(two.outcome, 'pulled', JSON.stringify(messages));
        assert.equal(two.rows, added, 'only the rows the run added');
        assert.equal(seen.length, 1, 'the remembered connection: no picker the second time');

        // Row by row: the table holds exactly the rows not exported before the first pull.
        const expected = rows.slice(exportedBefore).map(expectedPg);
        const table = readBackPg(server, schema, task.taskId);
        const want = new Map<string, number>();
        for (const r of expected) want.set(r, (want.get(r) ?? 0) + 1);
        const got = new Map<string, number>();
        for (const r of table) got.set(r, (got.get(r) ?? 0) + 1);
        const missing = [...want].filter(([r, n]) => (got.get(r) ?? 0) < n).length;
        const twice = [...got].filter(([r, n]) => n > (want.get(r) ?? 0)).length;
        assert.deepEqual({ missing, twice, rows: table.length }, { missing: 0, twice: 0, rows: one.rows + added });
        assert.deepEqual(table, expected, 'in the order the service sent them');

        const three = await run<{ outcome: string }>('scrapedeck.data.pullNewRows', { task });
        assert.equal(three.outcome, 'nothing-new');
        assert.equal(readBackPg(server, schema, task.taskId).length, table.length, 'unchanged');
      } finally {
        restore();
      }

      // Export Data offers the connection beside the files; every row goes to a new table.
      const exportPicks: string[][] = [];
      restore = replaceUi(api, {
        showQuickPick: (items) => pickServer(items, exportPicks),
        showSaveDialog: () => Promise.reject(new Error('a save dialog for a server')),
      });
      try {
        const exported = await run<{ outcome: string; rows: number; table: string }>('scrapedeck.data.export', {
          task,
        });
        assert.equal(exported.outcome, 'exported', JSON.stringify(messages));
        assert.match(exportPicks[0]?.[0] ?? '', /A File…/, 'files come first');
        const rows = (await allRows(task.taskId)).map(expectedPg);
        const read = JSON.parse(
          psql(
            server,
            `SELECT coalesce(json_agg(t ORDER BY t."_scrapedeck_row"), '[]') FROM ${schema}."${exported.table.replace(/"/g, '""')}" t`,
          ),
        ) as Record<string, unknown>[];
        const table = read.map((r) =>
          expectedPg(Object.fromEntries(Object.entries(r).filter(([k]) => !k.startsWith('_scrapedeck_'))) as DataRow),
        );
        assert.equal(exported.rows, rows.length);
        assert.deepEqual(table, rows, 'every row, once, in order');
      } finally {
        restore();
      }

      assert.equal(await removeFirstConnection(api), true);
    } finally {
      stop();
    }
  });

  it('in Restricted Mode refuses Add, Test and Remove Connection and a pull into PostgreSQL, with one sentence, before anything connects', async () => {
    // A connection and a task that remembers it, made while the workspace is trusted.
    let restore = replaceUi(api, answers(server.password));
    const saved = await run<{ id: string } | undefined>('scrapedeck.data.addPostgresConnection');
    restore();
    assert.ok(saved?.id, 'the connection was added');
    const seen: string[][] = [];
    restore = replaceUi(api, { showQuickPick: (items) => pickServer(items, seen) });
    await run('scrapedeck.data.pullNewRows', { task });
    restore();
    const marks = () => session.sandbox.stats.byRoute['POST /data/markexported'] ?? 0;

    const prompts: string[] = [];
    const { messages, stop } = recordMessages(api);
    restore = replaceUi(api, {
      isWorkspaceTrusted: () => false,
      showInputBox: (o) => {
        prompts.push(o.prompt ?? '');
        return Promise.resolve(undefined);
      },
      showQuickPick: <T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>) =>
        Promise.resolve(items).then((list) => {
          prompts.push(...list.map((i) => i.label));
          return undefined;
        }),
      showModalWarning: (m) => {
        prompts.push(m);
        return Promise.resolve(undefined);
      },
    });
    try {
      const marksBefore = marks();
      assert.equal(await run('scrapedeck.data.addPostgresConnection'), undefined);
      assert.equal(await run('scrapedeck.data.testPostgresConnection'), undefined);
      assert.equal(await run('scrapedeck.data.removePostgresConnection'), false);
      const remembered = await run<{ outcome: string }>('scrapedeck.data.pullNewRows', { task });
      assert.equal(remembered.outcome, 'declined', 'the remembered connection is refused');
      assert.equal(prompts.length, 0, `nothing was asked: ${prompts.join(' / ')}`);
      await waitFor('four refusals', () => messages.filter((m) => m.text === REFUSAL).length === 4);
      // Choosing again: the picker offers no server.
      await run('scrapedeck.data.pullNewRows', { task }, { chooseFile: true });
      assert.equal(
        prompts.some((p) => p.startsWith('$(server)')),
        false,
        JSON.stringify(prompts),
      );
      assert.equal(marks(), marksBefore, 'nothing marked exported');
      // Export Data goes straight to its save dialog: no server is offered.
      const dialogs: string[] = [];
      const files = replaceUi(api, {
        showSaveDialog: (o) => {
          dialogs.push(o.title ?? '');
          return Promise.resolve(undefined);
        },
      });
      try {
        assert.equal((await run<{ outcome: string }>('scrapedeck.data.export', { task })).outcome, 'declined');
      } finally {
        files();
      }
      assert.equal(dialogs.length, 1, 'the save dialog');
      assert.equal(
        prompts.some((p) => p.startsWith('$(server)')),
        false,
        JSON.stringify(prompts),
      );
    } finally {
      stop();
      restore();
    }
    // Trusted again: the connection is still there to remove.
    assert.equal(await removeFirstConnection(api), true);
  });
});
