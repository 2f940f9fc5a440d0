/**
 * The analytics panel's account boundary as a user meets it (issue 16 item 1), in the real
 * workbench: linus (the sandbox's heavy account) signs in with his API key, opens Task Analytics
 * for all tasks and runs the week's query (the panel fetches every page); he signs out; fiona
 * (Free plan) signs in with hers; then a window reload restores the panel. After each step none of
 * linus's task names or figures may be anywhere in the page's text or its form, and the panel says
 * why its results went. Screenshots in artifacts/e2e/boundary-*.png.
 *
 * It shares the journey's code-server and runs last: run first, the activation spec's fresh window
 * after it did not list Scrapedeck's commands within a minute. It leaves the window as it found it
 * (signed out, no editor open).
 */
import * as assert from 'node:assert/strict';

import type { FrameLocator } from 'playwright-core';

import { useWorkbench } from './session';
import { accountNamed, type SandboxAccount, type SandboxInfo, sandboxRequest, until, type Workbench } from './support';

/** The sandbox, asked with the account's key (support.ts waits out a 429). */
const get = <T>(info: SandboxInfo, account: SandboxAccount, pathAndQuery: string): Promise<T> =>
  sandboxRequest<T>(info, account, 'GET', pathAndQuery);

/** Everything a user could read in the page: its text, and the values in its form fields. */
async function pageText(view: FrameLocator): Promise<string> {
  const text = await view.locator('body').innerText();
  const values = await view
    .locator('input, textarea, select')
    .evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
  return `${text}\n${values.join('\n')}`;
}

describe('Analytics account boundary end to end: linus, sign out, fiona, reload (real workbench)', function () {
  this.timeout(300_000);
  let info: SandboxInfo;
  let linus: SandboxAccount;
  let fiona: SandboxAccount;
  let wb: Workbench;
  /** linus's task names that the page showed; none may show after he is gone. */
  let marks: string[] = [];

  const leaks = async (): Promise<string[]> => {
    const text = await pageText(wb.webview());
    return marks.filter((m) => text.includes(m));
  };
  useWorkbench('windowReload', {
    shots: 'boundary',
    prepare: (sandbox) => {
      info = sandbox;
      linus = accountNamed(info, 'linus');
      fiona = accountNamed(info, 'fiona');
      assert.equal(fiona.plan, 'Free');
    },
    opened: (win) => ({ wb } = win),
  });

  it('B1. linus runs the all-tasks query: the page shows his tasks', async () => {
    await wb.signInWithApiKey(linus.apiKey, 'Linus');
    const groups = await get<{ taskGroupId: string }[]>(info, linus, '/taskGroup');
    const names = new Set<string>();
    for (const g of groups) {
      for (const t of await get<{ taskName: string }[]>(
        info,
        linus,
        `/task/search?taskGroupId=${encodeURIComponent(g.taskGroupId)}`,
      ))
        names.add(t.taskName);
    }
    await wb.runCommand('Scrapedeck: Open Task Analytics');
    const view = wb.webview();
    await view.locator('#run').waitFor();
    if (await view.locator('#f-clear-tasks').isVisible()) await view.locator('#f-clear-tasks').click();
    await view.locator('#run').click();
    // His rows are on the page: the names it shows are the marks that must go later.
    await until("linus's task names in the page", async () => {
      const text = await pageText(view);
      marks = [...names].filter((n) => n.length > 3 && text.includes(n));
      return marks.length >= 3;
    });
    await wb.screenshot('boundary-1-linus');
  });

  it('B2. signing out clears the panel and says why', async () => {
    await wb.clearNotifications();
    await wb.runCommand('Scrapedeck: Sign Out');
    await wb.notification('Signed out of Scrapedeck').waitFor();
    const view = wb.webview();
    await view
      .getByText("the previous account's results and task choice were cleared", { exact: false })
      .first()
      .waitFor();
    await until('no name of linus in the page', async () => (await leaks()).length === 0);
    await wb.screenshot('boundary-2-signed-out');
  });

  it('B3. fiona (Free) signs in: still nothing of linus', async () => {
    await wb.signInWithApiKey(fiona.apiKey, 'Fiona');
    await wb.runCommand('Scrapedeck: Open Task Analytics'); // the open panel comes to the front
    await wb.webview().locator('#run').waitFor();
    assert.deepEqual(await leaks(), []);
    await wb.screenshot('boundary-3-fiona');
  });

  it('B4. after a window reload the restored panel holds nothing of linus', async () => {
    await wb.reload();
    const view = wb.webview();
    await view.locator('#run').waitFor({ timeout: 120_000 });
    // The restored page has had its state (and the host its init) by the time the form is filled.
    await until('the restored form', async () => (await view.locator('#f-end').inputValue()) !== '');
    assert.deepEqual(await leaks(), [], "none of linus's task names in the restored page");
    const chips = await view.locator('#f-tasks').innerText();
    assert.match(chips, /All tasks/, 'no task preset of linus survives the reload');
    // The reloaded window is fiona's: the Tasks view states what her plan allows.
    await wb.openScrapedeck();
    await wb
      .view('Tasks')
      .locator('.welcome-view-content')
      .filter({ hasText: 'Standard, Professional or Enterprise plan' })
      .waitFor();
    await wb.screenshot('boundary-4-reloaded');
  });
});
