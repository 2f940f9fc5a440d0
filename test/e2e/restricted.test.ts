/**
 * Scrapedeck with workspace trust on (a folder in Restricted Mode) and its walkthrough, in a real
 * workbench. Scrapedeck declares `untrustedWorkspaces: supported`: it reads no workspace file, and
 * the settings that decide where credentials go are application settings. A folder that ships a
 * symbolic link under the name a pull would use gets nothing written through it (issue 27 item 1).
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { lstatSync, lutimesSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import type { Page } from 'playwright-core';

import { useWorkbench } from './session';
import { type E2eContext, type Workbench } from './support';

describe('Scrapedeck in Restricted Mode, and its walkthrough (real workbench, workspace trust on)', function () {
  this.timeout(180_000);
  let ctx: E2eContext;
  let page: Page;
  let wb: Workbench;

  useWorkbench('restricted', {
    url: (context) => context.restricted.workbenchUrl,
    opened: (win, context) => {
      ctx = context;
      ({ page, wb } = win);
    },
    keep: false, // signed in to its own sandbox, the walkthrough open
  });

  it('R1. the folder is in Restricted Mode, and Scrapedeck still activates and signs in to the sandbox', async () => {
    await page.locator('.statusbar-item').filter({ hasText: 'Restricted Mode' }).first().waitFor();
    await wb.openScrapedeck();
    const tryIt = wb
      .view('Tasks')
      .locator('.welcome-view-content .monaco-button')
      .filter({ hasText: 'Try the Sandbox' });
    await tryIt.click();
    await wb.notification(/Scrapedeck sandbox/).waitFor();
    const groups = wb.view('Tasks').locator('.monaco-list-row');
    await groups.first().waitFor();
    assert.ok((await groups.count()) > 0, 'task groups are listed in Restricted Mode');
    await wb.screenshot('r1-restricted-mode');
  });

  it('R1b. a pull target the untrusted folder ships as a symbolic link to a file outside is refused; nothing is written there', async () => {
    // What a cloned repository could ship: `rows.jsonl -> ~/.bashrc`.
    const outside = path.join(ctx.restricted.run.dir, 'bashrc-outside');
    const profile = 'export PATH=$HOME/bin:$PATH\n';
    writeFileSync(outside, profile);
    symlinkSync(outside, path.join(ctx.restricted.run.ws, 'shipped rows.jsonl'));
    // A task of a listed group, not of "Needs attention", which is drawn afresh (and closed) as health arrives.
    const group = wb.row('Tasks', 'Price monitoring').first();
    const task = wb.taskRow('eBay product details');
    await wb.expand(group, task);
    await wb.contextMenu(task, 'Pull New Rows');
    const pick = wb.quickInput().locator('.quick-input-list .monaco-list-row').filter({ hasText: 'New File…' }).first();
    await pick.waitFor();
    await pick.click();
    // Restricted Mode: a name the folder already holds is refused as it is typed (issue 44 item 5).
    const box = wb.quickInput();
    await box
      .locator('.quick-input-title')
      .filter({ hasText: /New File for the Rows of/ })
      .waitFor();
    await box.locator('.quick-input-box input').fill('shipped rows.jsonl');
    await box
      .locator('.quick-input-message')
      .filter({ hasText: /Restricted Mode: type the name of a new file/ })
      .waitFor();
    await box.locator('.quick-input-box input').press('Enter');
    await wb.screenshot('r1b-restricted-symlink-refused');
    assert.equal(
      await box
        .locator('.quick-input-title')
        .filter({ hasText: /New File for the Rows of/ })
        .count(),
      1,
      'Enter does not take a name that is there',
    );
    assert.equal(readFileSync(outside, 'utf8'), profile, 'the file outside the folder is as it was');
    await page.keyboard.press('Escape');
  });

  it('R1c. a folder shipping rows.sqlite with a trigger, a planted pull record and a <db>.lock link: Pull New Rows offers a new file; nothing shipped changes, nothing outside is touched', async () => {
    const ws = ctx.restricted.run.ws;
    // What a hostile repository ships: a database with a trigger that drops every row written to a
    // task's table, a CSV with a record claiming an interrupted batch inside its quoted cells, and
    // the database's lock folder as a link to a folder outside holding an `owner` file.
    const db = path.join(ws, 'rows.sqlite');
    execFileSync('python3', [
      '-c',
      `import sqlite3,sys
c=sqlite3.connect(sys.argv[1])
c.execute('CREATE TABLE "_scrapedeck_pending"(task_id TEXT, rows INTEGER, hash TEXT)')
c.execute('CREATE TABLE "eBay product details"(x TEXT)')
c.execute('CREATE TRIGGER drop_rows AFTER INSERT ON "_scrapedeck_pending" BEGIN DELETE FROM "eBay product details"; END')
c.commit()`,
      db,
    ]);
    const csv = path.join(ws, 'rows.csv');
    writeFileSync(
      csv,
      `"Title","Price"\r\n${Array.from({ length: 14 }, (_, i) => `"row ${i}, mine","${i}"\r\n`).join('')}`,
    );
    writeFileSync(
      path.join(ws, '.rows.csv.scrapedeck-pull'),
      JSON.stringify({ version: 1, taskId: 'any', taskName: 'x', offset: 40, rows: 5, hash: 'a'.repeat(64) }),
    );
    const lockTarget = path.join(ctx.restricted.run.dir, 'outside-lock');
    mkdirSync(lockTarget, { recursive: true });
    writeFileSync(path.join(lockTarget, 'owner'), '1\n');
    symlinkSync(lockTarget, `${db}.lock`);
    const old = Date.now() / 1000 - 3600;
    lutimesSync(`${db}.lock`, old, old);
    const shipped = ['rows.sqlite', 'rows.csv', '.rows.csv.scrapedeck-pull'].map((n) => ({
      n,
      bytes: readFileSync(path.join(ws, n)),
    }));
    const before = readdirSync(ws).sort();

    const task = wb.taskRow('eBay product details');
    await wb.contextMenu(task, 'Pull New Rows');
    const rows = wb.quickInput().locator('.quick-input-list .monaco-list-row');
    await rows.filter({ hasText: 'New File…' }).first().waitFor();
    await wb.screenshot('r1c-restricted-only-new-files');
    const offered = (await rows.allInnerTexts()).join('\n');
    for (const name of ['rows.sqlite', 'rows.csv', 'shipped rows.jsonl'])
      assert.ok(!offered.includes(name), `${name} is not offered:\n${offered}`);
    assert.match(offered, /only a new file/);
    await rows.filter({ hasText: 'New File…' }).first().click();
    await wb.answerInput(/New File for the Rows of/, 'pulled rows.jsonl');
    await wb
      .notification(/new rows of “eBay product details” to pulled rows\.jsonl|No new rows for “eBay product details”/)
      .waitFor();
    await wb.screenshot('r1c-restricted-pulled-new-file');

    for (const { n, bytes } of shipped)
      assert.deepEqual(readFileSync(path.join(ws, n)), bytes, `${n} is as it was shipped`);
    assert.ok(lstatSync(`${db}.lock`).isSymbolicLink(), 'the lock link is left as it is');
    assert.deepEqual(readdirSync(lockTarget), ['owner'], 'nothing outside is touched');
    assert.equal(readFileSync(path.join(lockTarget, 'owner'), 'utf8'), '1\n');
    const added = readdirSync(ws).filter((n) => !before.includes(n));
    assert.ok(
      added.every((n) => n === 'pulled rows.jsonl'),
      `only the new file is added: ${added.join(', ')}`,
    );
    await page.keyboard.press('Escape');
  });

  /** "Welcome: Open Walkthrough…" > Get Started with Scrapedeck: its steps, as the editor shows them. */
  async function openWalkthrough() {
    // Not wb.runCommand: this command answers with a quick pick of its own, in the same widget.
    await page.keyboard.press('F1');
    // Chosen with the keyboard, not clicks: a row's hover (its description) can cover the next row
    // the mouse would click, when the list is drawn again under the pointer.
    await wb.pickItem('Welcome: Open Walkthrough', { typed: '>Welcome: Open Walkthrough' });
    await wb
      .quickInput()
      .locator('.quick-input-list .monaco-list-row')
      .filter({ hasText: 'Get Started with Scrapedeck' })
      .first()
      .waitFor();
    await wb.pickItem('Get Started with Scrapedeck');
    const steps = page.locator('.gettingStartedSlideDetails .getting-started-step');
    await steps.first().waitFor();
    await wb.quickInput().waitFor({ state: 'hidden' });
    return steps;
  }
  const checked = '.codicon-pass-filled, .codicon-getting-started-step-checked';

  it('R2. the walkthrough is listed, and its steps complete on the real events', async () => {
    let steps = await openWalkthrough();
    const titles = (await steps.locator('.step-title').allInnerTexts()).map((t) => t.trim());
    assert.deepEqual(titles, [
      'Sign in, or try the sandbox',
      'Browse your task groups and tasks',
      'Chart how your tasks perform',
      'Track and deprecate a data app',
    ]);
    await wb.screenshot('r2-walkthrough');

    // onView: the Tasks view coming into sight completes "Browse your task groups and tasks".
    await wb.showExplorer();
    await wb.openScrapedeck();
    await wb.view('Tasks').locator('.monaco-list-row').first().waitFor();

    // onCommand: opening analytics completes "Chart how your tasks perform".
    await wb.runCommand('Scrapedeck: Open Task Analytics');
    await page
      .locator('.tabs-container .tab')
      .filter({ hasText: /Analytics/ })
      .first()
      .waitFor();
    // Signing in (again) completes the first step (onCommand / onContext:scrapedeck.signedIn).
    await wb.runCommand('Scrapedeck: Sign Out');
    await wb.runCommand('Scrapedeck: Try the Sandbox');
    await wb.notification(/You are in the Scrapedeck sandbox/).waitFor();
    steps = await openWalkthrough();
    await steps.filter({ hasText: 'Chart how your tasks perform' }).first().locator(checked).waitFor();
    await steps.filter({ hasText: 'Sign in, or try the sandbox' }).first().locator(checked).waitFor();
    await steps.filter({ hasText: 'Browse your task groups and tasks' }).first().locator(checked).waitFor();
    assert.equal(
      await steps.filter({ hasText: 'Track and deprecate a data app' }).first().locator(checked).count(),
      0,
      'a step with no event yet stays open',
    );
    await wb.screenshot('r3-walkthrough-progress');

    // onCommand: starting "Add Data App…" completes the last step, even when the box is dismissed.
    await wb.runCommand('Scrapedeck: Add Data App');
    await wb.quickInput().locator('.quick-input-title').filter({ hasText: 'Add Data App' }).waitFor();
    await page.keyboard.press('Escape');
    steps = await openWalkthrough();
    await steps.filter({ hasText: 'Track and deprecate a data app' }).first().locator(checked).waitFor();
    assert.equal(await steps.locator(checked).count(), 4, 'every step is complete');
    await wb.screenshot('r4-walkthrough-done');
  });
});
