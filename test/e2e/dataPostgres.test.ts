/**
 * PostgreSQL as a user gets it, through the real workbench (code-server in headless chromium,
 * Scrapedeck from the packaged .vsix, the harness's sandbox, the private PostgreSQL server
 * test-e2e.mjs started): add a connection through its prompts, pull a task's new rows twice into
 * it (a run adds rows in between; only those come the second time), set another task to keep in
 * sync, start a run from its row, and when the run ends its rows arrive without anything asked:
 * each checked with a query by psql. Screenshots in artifacts/e2e/pg-*.png.
 *
 * It shares the journey's code-server and leaves the window as it found it (signed out, no editor,
 * no sync and no connection left).
 */
import * as assert from 'node:assert/strict';

import type { Page } from 'playwright-core';

import { expectedPg, freshSchema, psql, readBackPg } from '../shared/pgPull';
import { type TestServer, testServer } from '../shared/pgServer';
import { openWindow, passOn, type SpecWindow } from './session';
import {
  e2e,
  type E2eContext,
  type SandboxAccount,
  type SandboxInfo,
  sandboxInfo,
  sandboxRequest,
  until,
  type Workbench,
} from './support';

type Row = Record<string, string | number | boolean | null>;

describe('PostgreSQL end to end: add a connection, pull twice, keep a task in sync (real workbench, real server)', function () {
  this.timeout(300_000);
  let ctx: E2eContext;
  let info: SandboxInfo;
  let account: SandboxAccount;
  let server: TestServer;
  let schema: string;
  let win: SpecWindow | undefined;
  let page: Page;
  let wb: Workbench;
  let group: { taskGroupId: string; taskGroupName: string };
  let pulled: { taskId: string; taskName: string };
  let synced: { taskId: string; taskName: string };

  const call = <T>(method: 'GET' | 'POST', pathAndQuery: string, body?: unknown): Promise<T> =>
    sandboxRequest<T>(info, account, method, pathAndQuery, body);
  const total = async (taskId: string) =>
    (await call<{ total: number }>('GET', `/data/all?taskId=${encodeURIComponent(taskId)}&offset=0&size=1`)).total;
  const allRows = async (taskId: string): Promise<Row[]> => {
    const rows: Row[] = [];
    for (let offset = 0; ;) {
      const p = await call<{ offset: number; restTotal: number; data: Row[] }>(
        'GET',
        `/data/all?taskId=${encodeURIComponent(taskId)}&offset=${offset}&size=1000`,
      );
      rows.push(...p.data);
      if (p.restTotal === 0) return rows;
      offset = p.offset;
    }
  };
  /** The task's rows in its table, by a query. */
  const counted = (taskId: string): number => {
    const table = psql(
      server,
      `SELECT table_name FROM ${schema}."_scrapedeck_tables" WHERE task_id = '${taskId.replace(/'/g, "''")}'`,
    );
    return table === '' ? 0 : Number(psql(server, `SELECT count(*) FROM ${schema}."${table.replace(/"/g, '""')}"`));
  };
  /** Rows not marked exported yet (the seeded tasks had some marked before these steps). */
  const notExported = async (taskId: string) =>
    (await call<{ total: number }>('GET', `/data/notexported?taskId=${encodeURIComponent(taskId)}&size=1`)).total;
  const shot = async (name: string) => {
    await page.mouse.move(900, 450);
    await wb.screenshot(name);
  };
  const pickServer = async () => {
    const item = wb
      .quickInput()
      .locator('.quick-input-list .monaco-list-row')
      .filter({ hasText: `${server.user}@${server.host}:${server.port}` })
      .first();
    await item.waitFor();
    return item;
  };

  before(async () => {
    ctx = e2e();
    info = sandboxInfo();
    account = info.accounts[0] as SandboxAccount;
    server = testServer();
    schema = freshSchema(server, 'e2e_pg');
    group = (await call<{ taskGroupId: string; taskGroupName: string }[]>('GET', '/taskGroup'))[0] as typeof group;
    const tasks = await call<{ taskId: string; taskName: string }[]>(
      'GET',
      `/task/search?taskGroupId=${encodeURIComponent(group.taskGroupId)}`,
    );
    // Tasks with rows not exported yet, from the end of the group (the other specs take the first ones).
    // The one kept in sync waits for its run's end: a task with the watched runs' short clock
    // (test-e2e.mjs) when one fits; the one pulled stops its run itself.
    const watched = new Set(ctx.runClock.watched.tasks);
    const fresh: typeof tasks = [];
    for (const t of [...tasks].reverse()) {
      if (
        (await call<{ total: number }>('GET', `/data/notexported?taskId=${encodeURIComponent(t.taskId)}&size=1`))
          .total > 0
      )
        fresh.push(t);
      if (fresh.length >= 2 && fresh.some((f) => watched.has(f.taskName))) break;
      if (fresh.length >= 6) break;
    }
    synced = (fresh.find((t) => watched.has(t.taskName)) ?? fresh[1]) as typeof synced;
    pulled = fresh.find((t) => t !== synced) as typeof pulled;
    assert.ok(pulled && synced, 'two tasks with rows not exported yet');
    win = await openWindow(ctx, 'data-pg');
    ({ page, wb } = win);
  });

  afterEach(async function () {
    await wb?.screenshotIfFailed('pg', this.currentTest);
  });

  after(async () => {
    await passOn(win);
  });

  it('P1. signs in and adds a PostgreSQL connection through its prompts (the password in secret storage)', async () => {
    await wb.openScrapedeck();
    await wb.signInWithPassword(account.username, account.password);
    await wb.expand(wb.row('Tasks', group.taskGroupName).first(), wb.taskRow(pulled.taskName));
    await wb.runCommand('Scrapedeck: Add PostgreSQL Connection…');
    // Every prompt has the same title: each is told by its own words under the box.
    const box = wb.quickInput().locator('.quick-input-box input');
    const answer = async (prompt: RegExp, value: string, screenshot?: string) => {
      const message = wb.quickInput().locator('.quick-input-message').filter({ hasText: prompt });
      await message.waitFor();
      await box.fill(value);
      if (screenshot !== undefined) await shot(screenshot);
      await box.press('Enter');
      await message.waitFor({ state: 'hidden' });
    };
    await answer(/^Host name or address/, server.host);
    await answer(/^Port/, String(server.port));
    await answer(/^Database/, server.database);
    await answer(/^User/, server.user);
    await answer(/^Schema/, schema);
    await wb.pickItem('disable: not encrypted (a server on this machine or a trusted network)', { typed: 'disable' });
    await answer(/^Password of /, server.password, 'pg-01-password-prompt');
    await wb.notification(/Added the PostgreSQL connection/).waitFor();
    await shot('pg-02-connection-added');
  });

  it('P2. Pull New Rows twice into PostgreSQL: the second pull writes only what a run added (checked by a query)', async () => {
    await wb.clearNotifications();
    const fresh = await notExported(pulled.taskId);
    const exportedBefore = (await total(pulled.taskId)) - fresh;
    await wb.contextMenu(wb.taskRow(pulled.taskName), 'Pull New Rows');
    const item = await pickServer();
    await shot('pg-03-pull-choose-server');
    await item.click();
    await wb.notification(/Wrote [\d,]+ new rows? of /).waitFor();
    const once = counted(pulled.taskId);
    assert.equal(once, fresh, 'every row of the task not exported before');
    await shot('pg-04-pulled-once');
    await wb.clearNotifications();

    const before = await total(pulled.taskId);
    await call('POST', '/cloudextraction/start', { taskId: pulled.taskId });
    await until('rows from the run', async () => (await total(pulled.taskId)) > before);
    await call('POST', '/cloudextraction/stop', { taskId: pulled.taskId });
    const after = await allRows(pulled.taskId);
    await wb.contextMenu(wb.taskRow(pulled.taskName), 'Pull New Rows');
    await wb.notification(new RegExp(`Wrote ${(after.length - before).toLocaleString('en')} new rows? of `)).waitFor();
    await shot('pg-05-pulled-twice');
    assert.deepEqual(
      readBackPg(server, schema, pulled.taskId),
      after.slice(exportedBefore).map(expectedPg),
      'every row once, in order',
    );
  });

  it('P3. Keep in Sync…: the row says where; a run started there ends and its rows arrive by themselves (checked by a query)', async () => {
    await wb.clearNotifications();
    const row = wb.taskRow(synced.taskName);
    await wb.openContextMenu(row, 'Keep in Sync…');
    await shot('pg-06-keep-in-sync-menu');
    await page.keyboard.press('Escape');
    await wb.contextMenu(row, 'Keep in Sync…');
    await (await pickServer()).click();
    await wb.notification(/is kept in sync with PostgreSQL/).waitFor();
    await until('the row to say where it syncs', async () =>
      /syncs to PostgreSQL/.test((await wb.taskRow(synced.taskName).getAttribute('aria-label')) ?? ''),
    );
    await shot('pg-07-row-syncs-to');
    await wb.clearNotifications();
    assert.equal(counted(synced.taskId), 0, 'nothing pulled before a run ends');

    const before = await total(synced.taskId);
    const exportedBefore = before - (await notExported(synced.taskId));
    await wb.inlineAction(wb.taskRow(synced.taskName), 'Start Run');
    // The sandbox's run: 3 s queued, 6 s extracting for a watched task (test-e2e.mjs); then its end is seen and synced.
    await until(
      'the run to end and its rows to arrive',
      async () => {
        const rows = await total(synced.taskId);
        return (
          rows > before && counted(synced.taskId) === rows - exportedBefore && (await notExported(synced.taskId)) === 0
        );
      },
      120_000,
    );
    await shot('pg-08-synced-after-run');
    assert.deepEqual(
      readBackPg(server, schema, synced.taskId),
      (await allRows(synced.taskId)).slice(exportedBefore).map(expectedPg),
      'every row not exported before, once, in order',
    );
    assert.equal(
      await page
        .locator('.notifications-toasts .notification-toast')
        .filter({ hasText: /in sync/ })
        .count(),
      0,
      'no message about the sync',
    );

    await wb.contextMenu(wb.taskRow(synced.taskName), 'Stop Keeping in Sync');
    await until(
      'the row to say nothing of a sync',
      async () => !/syncs to/.test((await wb.taskRow(synced.taskName).getAttribute('aria-label')) ?? ''),
    );
  });

  it('P4. Remove PostgreSQL Connection…: after a modal that says the tables stay, Export offers files alone again', async () => {
    // Connections belong to the user, not to this window: the specs after this one must not meet it.
    await wb.runCommand('Scrapedeck: Remove PostgreSQL Connection…');
    await (await pickServer()).click();
    await wb.dialogButton('Remove').waitFor();
    await shot('pg-09-remove-connection');
    await wb.dialogButton('Remove').click();
    await page.locator('.monaco-dialog-box').waitFor({ state: 'hidden' });
    await wb.runCommand('Scrapedeck: Remove PostgreSQL Connection…');
    await wb.notification(/PostgreSQL connection/).waitFor();
    await wb.clearNotifications();
  });
});
