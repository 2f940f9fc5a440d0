/**
 * Keep in Sync inside a real VS Code, against a sandbox on the test's clock and the private
 * PostgreSQL server test-vscode.mjs started: a task set to keep in sync with a connection (through
 * the real commands, the prompts answered through the seam) shows it on its row; a run started
 * here ends and its rows arrive in the task's table without anything asked or shown, checked by
 * psql row by row; in Restricted Mode the command says so and an ended run pulls nothing; Stop
 * Keeping in Sync takes it off the row.
 */
import * as assert from 'node:assert/strict';

import * as vscode from 'vscode';

import type { DataRow } from '../../src/api/schemas/dataSchemas';
import type { ScrapedeckTestApi } from '../../src/extension';
import { expectedPg, freshSchema, readBackPg, stampsOf } from '../shared/pgPull';
import { type TestServer, testServer } from '../shared/pgServer';
import { connectionAnswers, pickServer, removeFirstConnection } from './pgHarness';
import { QUEUE_MS, type Row, rowWhen, type RunsSession, startRunsSession, taskRow, taskRows } from './runsHarness';
import { getApi, recordMessages, replaceUi, signInWithApiKey, waitFor } from './viewsHarness';

const GROUP = 'Price monitoring';
const RUN_MS = 31_000;

describe('Keep in Sync: a run ends and its rows arrive in PostgreSQL (real VS Code, sandbox, real server)', function () {
  this.timeout(180_000);
  let api: ScrapedeckTestApi;
  let session: RunsSession;
  let server: TestServer;
  let schema: string;
  const run = <T>(command: string, ...args: unknown[]) => vscode.commands.executeCommand<T>(command, ...args);

  before(async () => {
    server = testServer();
    schema = freshSchema(server, 'it_sync');
    api = await getApi();
    if (api.account.account !== undefined) await run('scrapedeck.signOut');
    session = await startRunsSession(api);
    await signInWithApiKey(api, session.apiKey('ada'));
  });

  after(async () => {
    await session.dispose();
  });

  it('keeps a task in sync: its row says where, a run ends, every row arrives once without a message; Restricted Mode pulls nothing; stopped, the row says nothing', async () => {
    const ada = session.client('ada');
    const task = ((await taskRows(api, GROUP))[0] as Row).task;
    const { messages, stop } = recordMessages(api);
    let restore = replaceUi(api, connectionAnswers(server, schema, server.password));
    const saved = await run<{ id: string } | undefined>('scrapedeck.data.addPostgresConnection');
    restore();
    assert.ok(saved?.id, 'the connection was added');
    try {
      const seen: string[][] = [];
      restore = replaceUi(api, { showQuickPick: (items) => pickServer(items, seen) });
      assert.equal(await run<string>('scrapedeck.data.keepInSync', { task }), 'following');
      restore();
      assert.equal(seen.length, 1, 'the destinations Pull New Rows offers');
      const row = await rowWhen(
        api,
        GROUP,
        task.taskId,
        'the sync part',
        (r) => /(^| · )syncs to PostgreSQL$/.test(String(r.description)),
        5_000,
      );
      assert.match(row.contextValue ?? '', /\bsyncing\b/, 'Stop Keeping in Sync is offered');

      // Restricted Mode: the command says so; an ended run pulls nothing.
      const notExported = () => session.sandbox.stats.byRoute['GET /data/notexported'] ?? 0;
      const asked = notExported();
      restore = replaceUi(api, { isWorkspaceTrusted: () => false });
      try {
        assert.equal(await run<string>('scrapedeck.data.keepInSync', { task }), 'restricted');
        await waitFor('the refusal', () =>
          messages.some((m) => m.text.startsWith('Keep in Sync is off in Restricted Mode')),
        );
        api.sync.follower.runsEnded([task.taskId]);
        await api.sync.follower.idle();
        assert.equal(notExported(), asked, 'nothing asked of the service');
      } finally {
        restore();
      }

      // A run started here ends: its rows (and the task's earlier ones not exported yet) arrive without asking.
      const notExportedBefore = (await ada.getNotExportedData(task.taskId, 1)).data.total;
      const exportedBefore = (await ada.getData(task.taskId, { offset: 0, size: 1 })).data.total - notExportedBefore;
      const shown = messages.length;
      const startedAt = new Date();
      await run('scrapedeck.runs.start', await taskRow(api, GROUP, task.taskId));
      session.clock.advance(QUEUE_MS);
      await rowWhen(api, GROUP, task.taskId, 'the spinner', (r) => String(r.description).includes('Extracting'));
      session.clock.advance(12_000);
      session.clock.advance(RUN_MS);
      const all = async (): Promise<DataRow[]> => {
        const rows: DataRow[] = [];
        for await (const page of ada.readData(task.taskId)) rows.push(...page.rows);
        return rows;
      };
      // The task's table exists once the sync's first batch is in.
      const inTable = (): number => {
        try {
          return readBackPg(server, schema, task.taskId).length;
        } catch {
          return 0;
        }
      };
      await waitFor('the sync to start', () => api.sync.follower.isPulling(task.taskId) || inTable() > 0, 60_000);
      await api.sync.follower.idle();
      const rows = await all();
      const table = readBackPg(server, schema, task.taskId);
      assert.equal(table.length, rows.length - exportedBefore, 'every row of the task not exported before, once');
      assert.deepEqual(table, rows.slice(exportedBefore).map(expectedPg), 'in the order the service sent them');
      assert.equal((await ada.getNotExportedData(task.taskId, 1)).data.total, 0, 'all marked exported');
      // The run's lot is known here, but the rows a pull gets are not tied to a run by the service
      // (earlier runs' rows not exported yet come with them): no row is stamped with it.
      assert.ok(api.runs.store.lotOf(task.taskId)?.lotNo, 'the run started here answered its lot');
      assert.ok(notExportedBefore > 0, 'rows of earlier runs were waiting');
      assert.equal(
        stampsOf(server, schema, task.taskId, startedAt),
        `${table.length} rows, 0 with a lot, ${table.length} with the time of their pull`,
      );
      const after = messages.slice(shown).filter((m) => m.text.includes('in sync') || m.level === 'error');
      assert.deepEqual(after, [], 'a sync that works shows no message');

      // Stop Keeping in Sync: the row says nothing of it, and the follow is gone.
      assert.equal(await run<string>('scrapedeck.data.stopSync', { task }), 'stopped');
      const plain = await rowWhen(
        api,
        GROUP,
        task.taskId,
        'no sync part',
        (r) => !String(r.description ?? '').includes('syncs to'),
        5_000,
      );
      assert.doesNotMatch(plain.contextValue ?? '', /\bsyncing\b/);
      assert.equal(await run<string>('scrapedeck.data.stopSync', { task }), 'not-following');
    } finally {
      stop();
      await removeFirstConnection(api);
    }
  });
});
