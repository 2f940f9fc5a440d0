/**
 * The analytics task choice as a user meets it in the real workbench (issue 21 items 1 and 5):
 * "Open Analytics for All Tasks in Group" shows the group's task names as chips, five of them and
 * "+N more", with the Run button on the first screen of a 1400x900 window; the toggle keeps focus;
 * closing the task picker (a VS Code quick pick) with Esc puts focus back on "Choose tasks…".
 * Screenshots in artifacts/e2e/picker-*.png.
 *
 * It shares the journey's code-server and leaves the window as found (signed out, no editor open,
 * the Tasks tree collapsed).
 */
import * as assert from 'node:assert/strict';

import type { Page } from 'playwright-core';

import { isAsFound, useWorkbench } from './session';
import { type SandboxAccount, type SandboxInfo, sandboxRequest, until, type Workbench } from './support';

interface Named {
  taskId: string;
  taskName: string;
}

/** The sandbox, asked with the account's key (support.ts waits out a 429). */
const get = <T>(info: SandboxInfo, account: SandboxAccount, pathAndQuery: string): Promise<T> =>
  sandboxRequest<T>(info, account, 'GET', pathAndQuery);

describe('Analytics task choice: named chips, "+N more", focus back on the trigger (real workbench)', function () {
  this.timeout(240_000);
  let info: SandboxInfo;
  let account: SandboxAccount;
  let page: Page;
  let wb: Workbench;
  let group: { taskGroupId: string; taskGroupName: string };
  let tasks: Named[];

  const prepare = async (sandbox: SandboxInfo): Promise<void> => {
    info = sandbox;
    account = info.accounts[0] as SandboxAccount;
    group = (
      await get<{ taskGroupId: string; taskGroupName: string }[]>(info, account, '/taskGroup')
    )[0] as typeof group;
    tasks = await get<Named[]>(info, account, `/task/search?taskGroupId=${encodeURIComponent(group.taskGroupId)}`);
    assert.ok(tasks.length > 5, 'the first group has more tasks than chips shown');
  };
  useWorkbench('taskChoice', {
    shots: 'picker',
    prepare,
    opened: async (win) => {
      ({ page, wb } = win);
      // Start as the steps expect whatever an earlier spec left: no editor open, signed out (a window
      // passed on is so already; a freshly loaded one may restore editors).
      if (!(await isAsFound(wb))) await wb.leaveAsFound();
    },
  });

  it('P1. Open Analytics for a group: its task names as chips, "+N more", and Run on the first screen', async () => {
    await wb.openScrapedeck();
    await wb.signInWithPassword(account.username, account.password);

    await wb.contextMenu(wb.row('Tasks', group.taskGroupName).first(), 'Open Analytics for All Tasks in Group');
    await wb.moveAway();
    const view = wb.webview();
    const chips = view.locator('#f-tasks li');
    await chips.first().waitFor();
    assert.deepEqual(
      await view.locator('#f-tasks li:visible').allInnerTexts(),
      tasks.slice(0, 5).map((t) => t.taskName),
      'names, not ids',
    );
    assert.equal(await chips.first().getAttribute('title'), `Task ID ${tasks[0]?.taskId ?? ''}`);
    const more = view.locator('#f-tasks-more');
    assert.equal(await more.innerText(), `+${tasks.length - 5} more`);
    const run = await view.locator('#run').boundingBox();
    assert.ok(
      run && run.y >= 0 && run.y + run.height <= 900,
      `Run on the first screen of the 1400x900 window: ${JSON.stringify(run)}`,
    );
    await wb.screenshot('picker-01-group-chips');
  });

  it('P2. keyboard: "+N more" expands and collapses with focus on it; Esc in the task picker returns focus to "Choose tasks…"', async () => {
    const view = wb.webview();
    const more = view.locator('#f-tasks-more');
    const focused = (selector: string) =>
      view.locator(selector).evaluate((el) => el === (el.ownerDocument as { activeElement: unknown }).activeElement);
    await more.focus();
    await page.keyboard.press('Enter');
    assert.equal(await more.getAttribute('aria-expanded'), 'true');
    assert.equal(await view.locator('#f-tasks li:visible').count(), tasks.length);
    assert.ok(await focused('#f-tasks-more'), 'focus stays on the toggle');
    await wb.screenshot('picker-02-expanded');
    await page.keyboard.press('Enter');
    assert.equal(await more.getAttribute('aria-expanded'), 'false');
    assert.ok(await focused('#f-tasks-more'), 'focus stays on the toggle after collapsing');

    await page.keyboard.press('Tab'); // "Choose tasks…" comes right after the toggle
    assert.ok(await focused('#f-choose-tasks'));
    await page.keyboard.press('Enter');
    const picker = wb.quickInput();
    await picker.locator('.quick-input-list .monaco-list-row').first().waitFor();
    await wb.screenshot('picker-03-quick-pick');
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'hidden' });
    // The quick pick gave focus back to the panel, and the page to the button that opened it.
    await until('focus back on "Choose tasks…"', () => focused('#f-choose-tasks'), 10_000);
    assert.equal(await view.locator('#f-tasks li').count(), tasks.length, 'Esc changed nothing');
    await wb.screenshot('picker-04-focus-back');
  });
});
