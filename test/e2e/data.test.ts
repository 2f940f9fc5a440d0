/**
 * A task's data as a user gets it, through the real workbench (code-server in headless chromium,
 * Scrapedeck from the packaged .vsix, the harness's sandbox): export a task's rows from the
 * context menu through VS Code's save dialog and open the file (CSV, JSON Lines, and an Excel
 * workbook read back by openpyxl), pull new rows twice into a workspace file and twice into an
 * SQLite database (a run adds rows in between; read back by Python's sqlite3), open that database
 * in the data browser (from the pull's message and with Open With…) and a 1,000,000-row CSV made
 * here with Open With…, browse them as a table, and remove them after the modal and the typed
 * name. Screenshots in artifacts/e2e/data-*.png and walk-05f…05h.
 *
 * It shares the journey's code-server and runs before it: it leaves the window as it found it
 * (signed out, no editor open, the Tasks tree collapsed).
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';

import type { Page } from 'playwright-core';

import { useWorkbench } from './session';
import { e2e, type SandboxAccount, type SandboxInfo, sandboxRequest, until, type Workbench } from './support';

interface Row {
  [field: string]: string | number | boolean | null;
}

/** The sandbox, asked with the account's key (support.ts waits out a 429). */
const call = sandboxRequest;

const jsonLines = (file: string): Row[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Row);

describe('Task data end to end: export, pull twice, browse, remove (real workbench)', function () {
  this.timeout(300_000);
  let info: SandboxInfo;
  let account: SandboxAccount;
  let page: Page;
  let wb: Workbench;
  let group: { taskGroupId: string; taskGroupName: string };
  /** Distinct tasks of the first group: one to export and preview, one to pull, one to remove. */
  let exported: { taskId: string; taskName: string };
  let pulled: { taskId: string; taskName: string };
  let pulledDb: { taskId: string; taskName: string };
  let removed: { taskId: string; taskName: string };

  const total = async (taskId: string) =>
    (
      await call<{ total: number }>(
        info,
        account,
        'GET',
        `/data/all?taskId=${encodeURIComponent(taskId)}&offset=0&size=1`,
      )
    ).total;
  const allRows = async (taskId: string): Promise<Row[]> => {
    const rows: Row[] = [];
    for (let offset = 0; ;) {
      const page = await call<{ offset: number; restTotal: number; data: Row[] }>(
        info,
        account,
        'GET',
        `/data/all?taskId=${encodeURIComponent(taskId)}&offset=${offset}&size=1000`,
      );
      rows.push(...page.data);
      if (page.restTotal === 0) return rows;
      offset = page.offset;
    }
  };
  /** A screenshot with the pointer parked over the empty editor area (no stray hover tooltip). */
  const shot = async (name: string) => {
    await page.mouse.move(900, 450);
    await wb.screenshot(name);
  };
  /**
   * Clicks a button of the notification that says `text`: on its toast, or, if the toast has
   * hidden itself already (a loaded machine is slow), in the notification centre.
   */
  const notificationButton = async (text: RegExp, button: string) => {
    const toast = page.locator('.notifications-toasts .notification-toast').filter({ hasText: text }).first();
    if (await toast.isVisible()) {
      const clicked = await toast
        .getByRole('button', { name: button, exact: true })
        .click({ timeout: 5_000 })
        .then(
          () => true,
          () => false,
        );
      if (clicked) return;
    }
    await wb.runCommand('Notifications: Show Notifications');
    // Exact: "Open" must not find "Open in Data Browser".
    await page
      .locator('.notifications-center .notification-list-item')
      .filter({ hasText: text })
      .first()
      .getByRole('button', { name: button, exact: true })
      .click();
  };

  const prepare = async (sandbox: SandboxInfo): Promise<void> => {
    info = sandbox;
    account = info.accounts[0] as SandboxAccount;
    group = (
      await call<{ taskGroupId: string; taskGroupName: string }[]>(info, account, 'GET', '/taskGroup')
    )[0] as typeof group;
    const tasks = await call<{ taskId: string; taskName: string }[]>(
      info,
      account,
      'GET',
      `/task/search?taskGroupId=${encodeURIComponent(group.taskGroupId)}`,
    );
    // The journey charts the first task: these steps use others. Asking for not-exported rows
    // hands them out without marking them, so the pull still gets them.
    const withRows: typeof tasks = [];
    const fresh: typeof tasks = [];
    for (const t of tasks.slice(1)) {
      if (
        fresh.length < 2 &&
        (
          await call<{ total: number }>(
            info,
            account,
            'GET',
            `/data/notexported?taskId=${encodeURIComponent(t.taskId)}&size=1`,
          )
        ).total > 0
      )
        fresh.push(t);
      else if ((await total(t.taskId)) > 0) withRows.push(t);
      if (fresh.length >= 2 && withRows.length >= 2) break;
    }
    [pulled, pulledDb] = fresh as [typeof pulled, typeof pulledDb];
    [exported, removed] = withRows as [typeof exported, typeof removed];
    assert.ok(pulled && pulledDb && exported && removed, 'the first group has tasks with rows');
  };
  useWorkbench('data', { prepare, opened: (win) => ({ page, wb } = win) });

  it('D1. signs in and opens a task group', async () => {
    await wb.signInAndOpenGroup(account, group.taskGroupName, wb.taskRow(exported.taskName));
  });

  it('D2. Export Data… through the save dialog: a CSV with every row, then Open and Reveal in Explorer', async () => {
    const row = wb.taskRow(exported.taskName);
    await wb.openContextMenu(row, 'Export Data…');
    await shot('data-01-context-menu');
    await page.keyboard.press('Escape');
    await wb.contextMenu(row, 'Export Data…');
    const input = wb.quickInput().locator('.quick-input-box input');
    await input.waitFor();
    await until('the offered file name', async () => (await input.inputValue()).endsWith('.csv'));
    const offered = await input.inputValue();
    const file = path.join(e2e().run.ws, 'data-export.csv');
    await input.fill(`${offered.slice(0, offered.lastIndexOf('/') + 1)}data-export.csv`);
    await shot('data-02-save-dialog');
    await input.press('Enter');

    const rows = await allRows(exported.taskId);
    const done = wb.notification(/Exported [\d,]+ rows of /);
    await done.waitFor();
    assert.match(await done.innerText(), new RegExp(`Exported ${rows.length.toLocaleString('en')} rows of “`));
    await page
      .locator('.notifications-toasts .notification-toast')
      .filter({ hasText: 'Exporting the data of' })
      .waitFor({ state: 'hidden' });
    await done.hover(); // a focused toast shows its buttons
    await wb.screenshot('data-03-exported');
    // What a spreadsheet reads: the header, then one line per row.
    const table = JSON.parse(
      execFileSync(
        'python3',
        [
          '-c',
          'import csv,json,sys\nprint(json.dumps(list(csv.reader(open(sys.argv[1], encoding="utf-8-sig", newline="")))))',
          file,
        ],
        { encoding: 'utf8' },
      ),
    ) as string[][];
    assert.equal(table.length, rows.length + 1);
    assert.deepEqual(
      table[0],
      Object.keys(rows[0] ?? {}).map((k) => (/^[=+\-@\t\r\n\0]/.test(k) ? `'${k}` : k)),
    );

    await notificationButton(/Exported [\d,]+ rows of /, 'Open');
    await page.locator('.tabs-container .tab').filter({ hasText: 'data-export.csv' }).first().waitFor();
    await page
      .locator('.editor-instance .view-lines')
      .filter({ hasText: Object.keys(rows[0] ?? {})[0] ?? '' })
      .first()
      .waitFor();
    await shot('data-04-opened');
    // A second export, as JSON Lines this time (the name's ending decides), revealed in the Explorer.
    await wb.clearNotifications();
    await wb.contextMenu(wb.taskRow(exported.taskName), 'Export Data…');
    await input.waitFor();
    await until('the offered file name', async () => (await input.inputValue()).endsWith('.csv'));
    await input.fill(`${offered.slice(0, offered.lastIndexOf('/') + 1)}data-export.jsonl`);
    await input.press('Enter');
    const again = wb.notification(/Exported [\d,]+ rows of /);
    await again.waitFor();
    assert.deepEqual(jsonLines(path.join(e2e().run.ws, 'data-export.jsonl')), rows);
    await notificationButton(/Exported [\d,]+ rows of /, 'Reveal in Explorer');
    await page
      .locator('.explorer-folders-view .monaco-list-row.selected, .explorer-folders-view .monaco-list-row.focused')
      .filter({ hasText: 'data-export.jsonl' })
      .first()
      .waitFor();
    await shot('data-05-revealed');

    // And as an Excel workbook: what openpyxl reads back is the header and every row, as sent.
    await wb.clearNotifications();
    await wb.openScrapedeck(); // Reveal in Explorer showed the Explorer
    await wb.contextMenu(wb.taskRow(exported.taskName), 'Export Data…');
    await input.waitFor();
    await until('the offered file name', async () => (await input.inputValue()).endsWith('.csv'));
    await input.fill(`${offered.slice(0, offered.lastIndexOf('/') + 1)}data-export.xlsx`);
    await input.press('Enter');
    const xlsx = wb.notification(/Exported [\d,]+ rows of /);
    await xlsx.waitFor();
    await xlsx.hover();
    await shot('data-05b-exported-xlsx');
    const sheet = JSON.parse(
      execFileSync(
        '/usr/bin/python3',
        [
          '-c',
          'import json,sys,openpyxl\nwb=openpyxl.load_workbook(sys.argv[1])\nprint(json.dumps([[c.value for c in r] for ws in wb.worksheets for r in ws.iter_rows()]))',
          path.join(e2e().run.ws, 'data-export.xlsx'),
        ],
        { encoding: 'utf8' },
      ),
    ) as unknown[][];
    const names = Object.keys(rows[0] ?? {});
    assert.deepEqual(sheet[0], names, "the header is the task's fields");
    assert.deepEqual(
      sheet.slice(1),
      rows.map((r) => names.map((n) => r[n] ?? null)),
      'every row, text as text',
    );
  });

  it('D3. Pull New Rows twice into a workspace file: the second pull appends only what a run added', async () => {
    await wb.runCommand('View: Close All Editors');
    await wb.clearNotifications();
    await wb.openScrapedeck();
    await wb.contextMenu(wb.taskRow(pulled.taskName), 'Pull New Rows');
    const pick = wb.quickInput().locator('.quick-input-list .monaco-list-row').filter({ hasText: 'New File…' }).first();
    await pick.waitFor();
    await shot('data-06-pull-choose-file');
    await pick.click();
    await wb.answerInput(/New File for the Rows of/, 'pulled/new-rows.jsonl');
    const first = wb.notification(/Wrote [\d,]+ new rows? of /);
    await first.waitFor();
    const file = path.join(e2e().run.ws, 'pulled', 'new-rows.jsonl');
    const once = jsonLines(file).length;
    assert.ok(once > 0);
    await shot('data-07-pulled-once');
    await wb.clearNotifications();

    // A run adds rows; it is stopped once some have arrived, so the count is settled.
    const before = await total(pulled.taskId);
    await call(info, account, 'POST', '/cloudextraction/start', { taskId: pulled.taskId });
    await until('rows from the run', async () => (await total(pulled.taskId)) > before);
    await call(info, account, 'POST', '/cloudextraction/stop', { taskId: pulled.taskId });
    const after = await allRows(pulled.taskId);

    await wb.contextMenu(wb.taskRow(pulled.taskName), 'Pull New Rows');
    const second = wb.notification(
      new RegExp(`Appended ${(after.length - before).toLocaleString('en')} new rows? of `),
    );
    await second.waitFor();
    const lines = jsonLines(file);
    assert.equal(
      lines.length,
      once + after.length - before,
      'only the new rows were appended (no file asked the second time)',
    );
    assert.deepEqual(lines.slice(once), after.slice(before));
    await notificationButton(
      new RegExp(`Appended ${(after.length - before).toLocaleString('en')} new rows? of `),
      'Open',
    );
    await page.locator('.tabs-container .tab').filter({ hasText: 'new-rows.jsonl' }).first().waitFor();
    await page.locator('.editor-instance .view-lines').first().waitFor();
    await page
      .locator('.notifications-toasts .notification-toast')
      .filter({ hasText: 'Pulling the new rows of' })
      .waitFor({ state: 'hidden' });
    await shot('data-08-pulled-twice-opened');
  });

  it("D3b. Pull New Rows twice into an SQLite database: the task's table gets only the new rows the second time", async () => {
    await wb.runCommand('View: Close All Editors');
    await wb.clearNotifications();
    await wb.openScrapedeck();
    await wb.contextMenu(wb.taskRow(pulledDb.taskName), 'Pull New Rows');
    const pick = wb.quickInput().locator('.quick-input-list .monaco-list-row').filter({ hasText: 'New File…' }).first();
    await pick.waitFor();
    await shot('data-08b-pull-choose-file-fit');
    await pick.click();
    await wb.answerInput(/New File for the Rows of/, 'pulled/rows.sqlite');
    const first = wb.notification(/Wrote [\d,]+ new rows? of /);
    await first.waitFor();
    await first.hover();
    await shot('data-08c-pulled-into-sqlite');
    const file = path.join(e2e().run.ws, 'pulled', 'rows.sqlite');
    const read = () =>
      JSON.parse(
        execFileSync(
          '/usr/bin/python3',
          [
            '-c',
            'import json,sqlite3,sys\ndb=sqlite3.connect(sys.argv[1])\nt=db.execute("SELECT table_name FROM _scrapedeck_tables WHERE task_id=?",(sys.argv[2],)).fetchone()[0]\ncur=db.execute(\'SELECT * FROM "%s" ORDER BY rowid\' % t.replace(\'"\',\'""\'))\nc=[d[0] for d in cur.description]\nprint(json.dumps([dict(zip(c,r)) for r in cur]))',
            file,
            pulledDb.taskId,
          ],
          { encoding: 'utf8' },
        ),
      ) as Row[];
    const once = read().length;
    assert.ok(once > 0);
    await wb.clearNotifications();

    const before = await total(pulledDb.taskId);
    await call(info, account, 'POST', '/cloudextraction/start', { taskId: pulledDb.taskId });
    await until('rows from the run', async () => (await total(pulledDb.taskId)) > before);
    await call(info, account, 'POST', '/cloudextraction/stop', { taskId: pulledDb.taskId });
    const after = await allRows(pulledDb.taskId);

    await wb.contextMenu(wb.taskRow(pulledDb.taskName), 'Pull New Rows');
    const second = wb.notification(
      new RegExp(`Appended ${(after.length - before).toLocaleString('en')} new rows? of `),
    );
    await second.waitFor();
    await page
      .locator('.notifications-toasts .notification-toast')
      .filter({ hasText: 'Pulling the new rows of' })
      .waitFor({ state: 'hidden' });
    await second.hover();
    assert.ok(
      (await second.locator('.monaco-button').filter({ hasText: 'Reveal in Explorer' }).count()) > 0,
      'a database is revealed, not opened as text',
    );
    await shot('data-08d-pulled-into-sqlite-twice');
    const table = read();
    assert.equal(table.length, once + after.length - before, 'only the new rows the second time');
    assert.deepEqual(table.slice(once), after.slice(before), 'in order, as sent');
  });

  it("D3c. the pulled database opens in the data browser from the pull's message and with Open With…, as does a 1,000,000-row CSV", async () => {
    const file = path.join(e2e().run.ws, 'pulled', 'rows.sqlite');
    const count = Number(
      execFileSync(
        '/usr/bin/python3',
        [
          '-c',
          'import sqlite3,sys\ndb=sqlite3.connect(sys.argv[1])\nt=db.execute("SELECT table_name FROM _scrapedeck_tables WHERE task_id=?",(sys.argv[2],)).fetchone()[0]\nprint(db.execute(\'SELECT count(*) FROM "%s"\' % t.replace(\'"\',\'""\')).fetchone()[0])',
          file,
          pulledDb.taskId,
        ],
        { encoding: 'utf8' },
      ).trim(),
    );
    const before = readFileSync(file);
    await wb.runCommand('View: Close All Editors');
    // D3b's second pull said "Appended … new rows" (the file was there) with Open in Data Browser.
    await notificationButton(/Appended [\d,]+ new rows? of /, 'Open in Data Browser');
    const view = wb.webview();
    await view.locator('#cell-0-0').waitFor({ timeout: 30_000 });
    await view.locator('.count', { hasText: `${count.toLocaleString('en-US')} rows` }).waitFor({ timeout: 30_000 });
    await wb.clearNotifications();
    await shot('walk-05f-sqlite-open-in-browser');

    /** Explorer → the file's context menu → Open With… → Scrapedeck Data Browser. */
    const openWith = async (name: string, folder?: string): Promise<void> => {
      await wb.runCommand('View: Close All Editors');
      await wb.runCommand('View: Show Explorer');
      const row = (text: string) =>
        page.locator('.explorer-folders-view .monaco-list-row').filter({ hasText: text }).first();
      if (folder !== undefined && !(await row(name).isVisible())) await row(folder).click();
      await row(name).click({ button: 'right' });
      const item = page
        .locator('.context-view .monaco-menu .action-item a.action-menu-item')
        .filter({ hasText: 'Open With' })
        .first();
      await item.hover();
      await item.press('Enter');
      await wb.pickItem('Scrapedeck Data Browser');
    };
    await openWith('rows.sqlite', 'pulled');
    await view.locator('#cell-0-0').waitFor({ timeout: 30_000 });
    await view.locator('.count', { hasText: `${count.toLocaleString('en-US')} rows` }).waitFor({ timeout: 30_000 });
    await view.locator('[role=columnheader]').nth(1).locator('button').click();
    await view.locator('[role=columnheader][aria-sort=ascending]').waitFor({ timeout: 30_000 });
    await shot('walk-05g-sqlite-open-with');
    assert.ok(readFileSync(file).equals(before), 'the database was only read');
    assert.equal(
      existsSync(`${file}-journal`) || existsSync(`${file}-wal`) || existsSync(`${file}.lock`),
      false,
      'nothing was made beside it',
    );

    const csv = path.join(e2e().run.ws, 'million.csv');
    const out = createWriteStream(csv);
    out.write('id,name,price,url\n');
    for (let i = 0; i < 1_000_000; i += 10_000) {
      let chunk = '';
      for (let j = i; j < i + 10_000; j++)
        chunk += `${j},item ${j % 977},${(j % 1000) / 4},https://shop.example/items/${j}\n`;
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
    try {
      await openWith('million.csv');
      await view.locator('#cell-0-0').waitFor({ timeout: 30_000 });
      await view.locator('.count', { hasText: '1,000,000 rows' }).waitFor({ timeout: 120_000 });
      await shot('walk-05h-csv-million-open-with');
      await wb.runCommand('View: Close All Editors');
    } finally {
      rmSync(csv, { force: true });
    }
    await wb.openScrapedeck();
  });

  it("D4. Browse Data shows the task's rows in the data browser, under the task's own column names, as text", async () => {
    await wb.runCommand('View: Close All Editors');
    await wb.clearNotifications();
    await wb.openScrapedeck();
    await wb.contextMenu(wb.taskRow(exported.taskName), 'Browse Data');
    const view = wb.webview();
    await view.locator('#cell-0-0').waitFor({ timeout: 30_000 });
    const rows = await allRows(exported.taskId);
    await view
      .locator('.count', { hasText: `${rows.length.toLocaleString('en-US')} rows` })
      .waitFor({ timeout: 60_000 });
    const names = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    // The first header is the row number; the rest are the columns drawn in view, in the task's order.
    const drawn = (await view.locator('[role=columnheader]').allInnerTexts())
      .slice(1)
      .map((h) => h.trim())
      .filter((h) => h !== '');
    assert.ok(drawn.length > 0, 'column headers are drawn');
    assert.deepEqual(drawn, names.slice(0, drawn.length));
    // Values are text: a URL or address in the data is not made a link (the seeded rows have one).
    assert.equal(await view.locator('[role=grid] a').count(), 0, 'no link in the grid');
    await shot('data-09-browse');
  });

  it('D5. Remove Data… asks in a modal, then for the typed name (Enter alone does nothing), then removes', async () => {
    await wb.runCommand('View: Close All Editors');
    await wb.openScrapedeck();
    assert.ok((await total(removed.taskId)) > 0);
    await wb.contextMenu(wb.taskRow(removed.taskName), 'Remove Data…');
    await wb.dialogButton('Remove Data…').waitFor();
    await shot('data-10-remove-modal');
    assert.deepEqual(await wb.dialogButtonLabels(), ['Keep the Data', 'Remove Data…'], 'one way to say no');
    await wb.dialogButton('Keep the Data').click();
    assert.ok((await total(removed.taskId)) > 0, 'Keep the Data sends nothing');

    await wb.contextMenu(wb.taskRow(removed.taskName), 'Remove Data…');
    await wb.dialogButton('Remove Data…').click();
    const box = wb.quickInput();
    await box.locator('.quick-input-title').filter({ hasText: 'Remove All Data of' }).waitFor();
    const input = box.locator('.quick-input-box input');
    await input.press('Enter'); // empty: refused, the box stays
    await box.locator('.quick-input-message').filter({ hasText: 'exactly' }).waitFor();
    await shot('data-11-remove-type-name');
    assert.ok(await input.isVisible(), 'Enter alone did not confirm');
    assert.ok((await total(removed.taskId)) > 0);
    await input.fill(removed.taskName);
    await input.press('Enter');
    await wb.notification(`Removed all data of “${removed.taskName}”.`).waitFor();
    await until('the rows to be gone', async () => (await total(removed.taskId)) === 0);
    await shot('data-12-removed');
    assert.equal(existsSync(path.join(e2e().run.ws, 'data-export.csv')), true, 'the export made earlier is untouched');
  });
});
