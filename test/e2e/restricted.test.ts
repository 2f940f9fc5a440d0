/**
 * Scrapedeck with workspace trust on (a folder in Restricted Mode) and its walkthrough, in a real
 * workbench. Scrapedeck declares `untrustedWorkspaces: supported`: it reads no workspace file, and
 * the settings that decide where credentials go are application settings. A folder that ships a
 * symbolic link under the name a pull would use gets nothing written through it (issue 27 item 1).
 */
import * as assert from 'node:assert/strict';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { e2e, type E2eContext, type Workbench } from './support';
import { openWindow, passOn, type SpecWindow } from './session';

describe('Scrapedeck in Restricted Mode, and its walkthrough (real workbench, workspace trust on)', function () {
  this.timeout(180_000);
  let ctx: E2eContext;
  let win: SpecWindow | undefined;
  let page: Page;
  let wb: Workbench;

  before(async () => {
    ctx = e2e();
    win = await openWindow(ctx, 'restricted', { url: ctx.restricted.workbenchUrl });
    ({ page, wb } = win);
  });

  afterEach(async function () {
    await wb?.screenshotIfFailed('restricted', this.currentTest);
  });

  after(async () => {
    await passOn(win, { keep: false }); // signed in to its own sandbox, the walkthrough open
  });

  it('R1. the folder is in Restricted Mode, and Scrapedeck still activates and signs in to the sandbox', async () => {
    await page.locator('.statusbar-item').filter({ hasText: 'Restricted Mode' }).first().waitFor();
    await wb.openScrapedeck();
    const tryIt = wb.view('Tasks').locator('.welcome-view-content .monaco-button').filter({ hasText: 'Try the Sandbox' });
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
    await wb.answerInput(/New File for the Rows of/, 'shipped rows.jsonl');
    const refusal = wb.notification(/shipped rows\.jsonl is a symbolic link, and Scrapedeck never writes through a link/);
    await refusal.waitFor();
    await refusal.hover();
    await wb.screenshot('r1b-restricted-symlink-refused');
    assert.equal(readFileSync(outside, 'utf8'), profile, 'the file outside the folder is as it was');
    await page.keyboard.press('Escape');
  });

  /** "Welcome: Open Walkthrough…" > Get Started with Scrapedeck: its steps, as the editor shows them. */
  async function openWalkthrough() {
    // Not wb.runCommand: this command answers with a quick pick of its own, in the same widget.
    await page.keyboard.press('F1');
    // Chosen with the keyboard, not clicks: a row's hover (its description) can cover the next row
    // the mouse would click, when the list is drawn again under the pointer.
    await wb.pickItem('Welcome: Open Walkthrough', { typed: '>Welcome: Open Walkthrough' });
    await wb.quickInput().locator('.quick-input-list .monaco-list-row').filter({ hasText: 'Get Started with Scrapedeck' }).first().waitFor();
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
    assert.deepEqual(titles, ['Sign in, or try the sandbox', 'Browse your task groups and tasks', 'Chart how your tasks perform', 'Track and deprecate a data app']);
    await wb.screenshot('r2-walkthrough');

    // onView: the Tasks view coming into sight completes "Browse your task groups and tasks".
    await wb.runCommand('View: Show Explorer');
    await page.locator('.part.sidebar .title-label').filter({ hasText: /explorer/i }).first().waitFor();
    await wb.openScrapedeck();
    await wb.view('Tasks').locator('.monaco-list-row').first().waitFor();

    // onCommand: opening analytics completes "Chart how your tasks perform".
    await wb.runCommand('Scrapedeck: Open Task Analytics');
    await page.locator('.tabs-container .tab').filter({ hasText: /Analytics/ }).first().waitFor();
    // Signing in (again) completes the first step (onCommand / onContext:scrapedeck.signedIn).
    await wb.runCommand('Scrapedeck: Sign Out');
    await wb.runCommand('Scrapedeck: Try the Sandbox');
    await wb.notification(/You are in the Scrapedeck sandbox/).waitFor();
    steps = await openWalkthrough();
    await steps.filter({ hasText: 'Chart how your tasks perform' }).first().locator(checked).waitFor();
    await steps.filter({ hasText: 'Sign in, or try the sandbox' }).first().locator(checked).waitFor();
    await steps.filter({ hasText: 'Browse your task groups and tasks' }).first().locator(checked).waitFor();
    assert.equal(await steps.filter({ hasText: 'Track and deprecate a data app' }).first().locator(checked).count(), 0, 'a step with no event yet stays open');
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
