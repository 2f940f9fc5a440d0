/**
 * Runs as a user sees them, in the journey's workbench (code-server, the packaged .vsix, the
 * harness's sandbox): sign in, open a group, Start Run inline -> the row spins and says
 * Extracting -> Stop Run… asks in a modal -> the row shows the run stopped; then Edit URL or Text List
 * opens the task's list as a document named after the task and loop, an edited list is saved and
 * read back from the sandbox; then a run started from the tree and left alone is seen queued,
 * running and finished, and its finish notification exports that run's rows alone. Screenshots in
 * artifacts/e2e/runs-*.png.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import type { Page } from 'playwright-core';

import { useWorkbench } from './session';
import {
  e2e,
  type SandboxAccount,
  type SandboxInfo,
  sandboxRequest,
  until,
  waitUntil,
  type Workbench,
} from './support';

interface Loop {
  actionId: string;
  loopType: string;
  loopItems: string[] | null;
}

/** The sandbox, asked with the account's key (support.ts waits out a 429). */
const sandboxCall = sandboxRequest;

describe('Runs and URL lists (real workbench, packaged extension)', function () {
  this.timeout(240_000);
  let page: Page;
  let wb: Workbench;
  let info: SandboxInfo;
  let account: SandboxAccount;
  let group: { taskGroupId: string; taskGroupName: string };
  let tasks: { taskId: string; taskName: string }[];
  /** The sandbox's status of each task, asked behind the UI. */
  const statusesNow = <S extends { taskId: string }>() =>
    sandboxCall<S[]>(info, account, 'POST', '/cloudextraction/statuses/v2', { taskIds: tasks.map((t) => t.taskId) });
  /** The task R1 started and stopped. */
  let firstRunTask: string | undefined;

  useWorkbench('runs', {
    prepare: (sandbox) => {
      info = sandbox;
      account = info.accounts[0] as SandboxAccount;
    },
    opened: (win) => ({ page, wb } = win),
  });

  before(async () => {
    const groups = await sandboxCall<{ taskGroupId: string; taskGroupName: string }[]>(
      info,
      account,
      'GET',
      '/taskGroup',
    );
    // The seed's group with tasks of one and of several URL lists (as the integration tests use).
    group = (groups.find((g) => g.taskGroupName === 'Lead generation') ?? groups[0]) as typeof group;
    tasks = await sandboxCall<{ taskId: string; taskName: string }[]>(
      info,
      account,
      'GET',
      `/task/search?taskGroupId=${encodeURIComponent(group.taskGroupId)}`,
    );
  });

  /** The names under "Needs attention" once health has arrived: the rows between it and the first group. */
  const attentionTaskNames = async (): Promise<Set<string>> => {
    await wb.row('Tasks', 'Needs attention').first().waitFor();
    await wb.reveal(wb.row('Tasks', 'Needs attention').first());
    const labels = await wb
      .view('Tasks')
      .locator('.monaco-list-row')
      .evaluateAll((rows) =>
        rows
          .map((r) => ({
            index: Number(r.getAttribute('data-index')),
            level: r.getAttribute('aria-level'),
            label: r.getAttribute('aria-label') ?? '',
          }))
          .sort((a, b) => a.index - b.index),
      );
    const names = new Set<string>();
    for (const r of labels.slice(labels.findIndex((l) => l.label.startsWith('Needs attention')) + 1)) {
      if (r.level !== '2') break;
      names.add(r.label.replace(/^Task /, '').split(', in group ')[0] ?? '');
    }
    return names;
  };

  it('R1. signs in, starts a run inline: the row spins and says Extracting; Stop Run… asks, and the run stops', async () => {
    await wb.openScrapedeck();
    const signIn = wb
      .view('Tasks')
      .locator('.welcome-view-content .monaco-button')
      .filter({ hasText: 'Sign In with Username and Password' });
    // Signed out (the welcome buttons) or signed in (rows): wait until the view shows which.
    await signIn.or(wb.view('Tasks').locator('.monaco-list-row').first()).first().waitFor();
    if (await signIn.isVisible().catch(() => false)) {
      await signIn.click();
      await wb.answerInput('Sign In to Scrapedeck (1/2)', account.username);
      await wb.answerInput('Sign In to Scrapedeck (2/2)', account.password);
    }
    // A task that is not running now (the seed has some running ones).
    const statuses = await statusesNow<{ taskId: string; status: string }>();
    // One not under "Needs attention" too, so the view has one row for it: a task listed twice
    // would leave the row meant ambiguous when only one of the two is drawn.
    const attention = await attentionTaskNames();
    // And one whose runs take the long clock (test-e2e.mjs): this run is stopped before it ends.
    const watched = new Set(e2e().runClock.watched.tasks);
    const idle = tasks.find(
      (t) =>
        statuses.find((s) => s.taskId === t.taskId)?.status !== 'Extracting' &&
        !attention.has(t.taskName) &&
        !watched.has(t.taskName),
    );
    assert.ok(idle, 'a task that is not running and does not need attention');
    firstRunTask = idle.taskName;
    const row = wb.taskRow(idle.taskName);
    await wb.expand(wb.row('Tasks', group.taskGroupName).first(), row);
    await wb.inlineAction(row, 'Start Run');
    await row.locator('.codicon-sync.codicon-modifier-spin').first().waitFor();
    await row
      .locator('.label-description')
      .filter({ hasText: /Extracting/ })
      .waitFor();
    await wb.screenshot('runs-1-extracting');

    await wb.inlineAction(row, 'Stop Run…');
    await wb.dialogButton('Stop Run…').waitFor();
    await wb.screenshot('runs-2-stop-asks');
    // One action and one way to say no, named for what it keeps: no second "Cancel".
    assert.deepEqual(await wb.dialogButtonLabels(), ['Keep Running', 'Stop Run…']);
    await wb.page.keyboard.press('Escape');
    await wb.dialogButton('Stop Run…').waitFor({ state: 'detached' });
    assert.match(await row.locator('.label-description').innerText(), /Extracting/, 'Escape keeps it running');
    await wb.inlineAction(row, 'Stop Run…');
    await wb.dialogButton('Stop Run…').click();
    // Like Remove Data and Deprecate: the button leads to the name typed out (Enter alone stops nothing).
    await wb.answerInput(`Stop the Run of “${idle.taskName}” (2/2)`, idle.taskName);
    await row
      .locator('.label-description')
      .filter({ hasText: /Stopped/ })
      .waitFor();
    await wb.screenshot('runs-3-stopped');
    const after = await sandboxCall<{ taskId: string; status: string }[]>(
      info,
      account,
      'POST',
      '/cloudextraction/statuses/v2',
      { taskIds: [idle.taskId] },
    );
    assert.equal(after[0]?.status, 'Stopped');
  });

  it('R2. Edit URL or Text List opens the list as a document named after the task and loop; a saved edit is read back from the sandbox', async () => {
    const actions = await sandboxCall<{ taskId: string; actions: Loop[] }[]>(
      info,
      account,
      'POST',
      '/task/getActions',
      { taskIds: tasks.map((t) => t.taskId), actionTypes: ['LoopAction'] },
    );
    const withOne = actions.find(
      (a) =>
        a.actions.filter((l) => l.loopItems !== null).length === 1 && a.actions.some((l) => l.loopType === 'URLList'),
    );
    assert.ok(withOne, 'a task with one URL list');
    const task = tasks.find((t) => t.taskId === withOne.taskId) as { taskId: string; taskName: string };
    const loop = withOne.actions.find((l) => l.loopItems !== null) as Loop;
    const row = wb.row('Tasks', task.taskName).last();
    await wb.contextMenu(row, 'Edit URL or Text List');
    const tab = page.locator('.tabs-container .tab').filter({ hasText: task.taskName }).first();
    await tab.waitFor();
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor
      .locator('.view-lines')
      .filter({ hasText: (loop.loopItems ?? [])[0] ?? '' })
      .waitFor();
    await wb.screenshot('runs-4-url-list');

    // A line to fix: Ctrl+S says so in one sentence (the document's name, not its address) and sends nothing.
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('https://shop.example.com/e2e/ok\nshop.example.com/no-scheme\n');
    await page.keyboard.press('Control+S');
    await wb
      .notification(/was not saved: 1 line needs fixing first \(it is underlined\); nothing was sent\./)
      .waitFor();
    await wb.screenshot('runs-4b-url-list-line-to-fix');
    await wb.clearNotifications();
    // Closing the tab and choosing Save goes through VS Code's own save, whose message quotes the
    // document's whole address: it is the list's name and nothing more (no ids, no query).
    await page.keyboard.press('Control+W');
    await page
      .locator('.monaco-dialog-box .dialog-buttons .monaco-button')
      .filter({ hasText: /^Save$/ })
      .click();
    const refused = wb.notification(/was not saved: 1 line needs fixing first/);
    await refused.waitFor();
    const said = await refused.innerText();
    for (const id of [task.taskId, loop.actionId, 'taskId=', '?'])
      assert.ok(!said.includes(id), `the message holds no ${id}: ${said}`);
    await wb.screenshot('runs-4c-url-list-close-save-refused');
    await tab.waitFor(); // still open, still holding what was typed
    await wb.clearNotifications();

    const mine = ['https://shop.example.com/e2e/1', 'https://shop.example.com/e2e/2'];
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(`${mine.join('\n')}\n`);
    await page.keyboard.press('Control+S');
    // Saved: the tab is no longer marked dirty (it was for a moment, after the typing).
    await page.locator('.tabs-container .tab.dirty').filter({ hasText: task.taskName }).waitFor({ state: 'detached' });
    let items: string[] | null = null;
    await until('the saved list in the sandbox', async () => {
      const now = await sandboxCall<{ taskId: string; actions: Loop[] }[]>(info, account, 'POST', '/task/getActions', {
        taskIds: [task.taskId],
        actionTypes: ['LoopAction'],
      });
      items = now[0]?.actions.find((l) => l.actionId === loop.actionId)?.loopItems ?? null;
      return JSON.stringify(items) === JSON.stringify(mine);
    }).catch(() => undefined); // the assertion below says what the sandbox has instead
    assert.deepEqual(items, mine);
    await wb.screenshot('runs-5-url-list-saved');
    await page.keyboard.press('Control+W');
  });

  it("R3. a run started from the tree and left alone: queued, running, finished; its notice exports this run's rows alone", async () => {
    await wb.clearNotifications();
    const statuses = await statusesNow<{ taskId: string; status: string; executedTimes: number }>();
    const attention = await attentionTaskNames();
    // A task that ran before (so "this run" is fewer rows than the task has) and is idle now, of
    // those with the watched runs' clock (test-e2e.mjs): only they wait as queued before they run.
    const watched = new Set(e2e().runClock.watched.tasks);
    const task = tasks.find((t) => {
      const s = statuses.find((x) => x.taskId === t.taskId);
      return (
        s !== undefined &&
        s.executedTimes > 0 &&
        !/Extracting|Waiting/.test(s.status) &&
        !attention.has(t.taskName) &&
        t.taskName !== firstRunTask &&
        watched.has(t.taskName)
      );
    });
    assert.ok(task, `an idle task that ran before, of the watched ones: ${[...watched].join(', ')}`);
    const row = wb.taskRow(task.taskName);
    await wb.reveal(row);
    await wb.inlineAction(row, 'Start Run');

    // Queued for a cloud node first: the sandbox answers Waiting for its first seconds.
    await row
      .locator('.label-description')
      .filter({ hasText: /^Queued/ })
      .waitFor();
    await row.locator('.codicon-watch').first().waitFor();
    await wb.moveAway();
    await wb.screenshot('runs-6-queued');
    await row
      .locator('.label-description')
      .filter({ hasText: /^Extracting, [1-9][\d,]* rows?/ })
      .waitFor();
    await row.locator('.codicon-sync.codicon-modifier-spin').first().waitFor();
    await wb.screenshot('runs-7-running');
    await row
      .locator('.label-description')
      .filter({ hasText: /(^| · )(Finished|Failed): [\d,]+ rows? last run/ })
      .waitFor({ timeout: 90_000 });
    const ended = (
      await sandboxCall<{ status: string; currentTotalExtractCount: number }[]>(
        info,
        account,
        'POST',
        '/cloudextraction/statuses/v2',
        { taskIds: [task.taskId] },
      )
    )[0];
    assert.ok(ended && /Finished|Failed/.test(ended.status), JSON.stringify(ended));
    const rowsText = ended.currentTotalExtractCount.toLocaleString('en-US');
    const notice = page
      .locator('.notifications-toasts .notification-toast, .notifications-center .notification-list-item')
      .filter({
        hasText: `“${task.taskName}” ${ended.status === 'Finished' ? 'finished' : 'failed'}: ${rowsText} rows`,
      })
      .first();
    await notice.waitFor();
    await notice.hover();
    await wb.screenshot('runs-8-finished-notice');

    // The task offers it too, while this run is its last.
    await wb.openContextMenu(row, "Export This Run's Data…");
    await wb.screenshot('runs-9-context-menu');
    await page.keyboard.press('Escape');

    // The notice's button (Export Rows: this run's rows): the save dialog offers a file named after the task and the run.
    const button = notice.locator('.monaco-button').filter({ hasText: 'Export Rows' });
    if (
      !(await button.click({ timeout: 5_000 }).then(
        () => true,
        () => false,
      ))
    ) {
      await wb.runCommand('Notifications: Show Notifications');
      await page
        .locator('.notifications-center .notification-list-item')
        .filter({ hasText: task.taskName })
        .first()
        .locator('.monaco-button')
        .filter({ hasText: 'Export Rows' })
        .click();
    }
    const input = wb.quickInput().locator('.quick-input-box input');
    await input.waitFor();
    // The box fills in the offered name a moment after it opens; the assertion says what it offered instead.
    const offered = await waitUntil(
      'the save box to offer a file named after the run',
      async () => {
        const value = await input.inputValue();
        return / run \d{19}\.csv$/.test(value) ? value : undefined;
      },
      { timeoutMs: 30_000 },
    ).catch(() => input.inputValue());
    assert.match(offered, / run \d{19}\.csv$/, 'the file is named after the run');
    await input.fill(`${offered.slice(0, offered.lastIndexOf('/') + 1)}this-run.jsonl`);
    await wb.screenshot('runs-10-save-this-run');
    await input.press('Enter');
    const done = wb.notification(new RegExp(`Exported ${rowsText} rows? of “`));
    await done.waitFor();
    await done.hover();
    await wb.screenshot('runs-11-exported');
    const lines = readFileSync(path.join(e2e().run.ws, 'this-run.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    assert.equal(lines.length, ended.currentTotalExtractCount, "this run's rows");
    const all = await sandboxCall<{ total: number }>(
      info,
      account,
      'GET',
      `/data/all?taskId=${encodeURIComponent(task.taskId)}&offset=0&size=1`,
    );
    assert.ok(all.total > lines.length, `fewer than the task's ${all.total} rows`);
  });

  it('R4. a task that only runs locally reads "Never run in the cloud (local runs only)" beside its health, not two stories', async () => {
    await wb.clearNotifications();
    const groups = await sandboxCall<{ taskGroupId: string; taskGroupName: string }[]>(
      info,
      account,
      'GET',
      '/taskGroup',
    );
    let found: { group: string; taskId: string } | undefined;
    for (const g of groups) {
      const list = await sandboxCall<{ taskId: string; taskName: string }[]>(
        info,
        account,
        'GET',
        `/task/search?taskGroupId=${encodeURIComponent(g.taskGroupId)}`,
      );
      const reddit = list.find((t) => t.taskName === 'Reddit ratings');
      if (reddit !== undefined) found = { group: g.taskGroupName, taskId: reddit.taskId };
    }
    assert.ok(found, 'the seeded task that runs only on computers');
    const left = await sandboxCall<unknown[]>(info, account, 'POST', '/cloudextraction/statuses/v2', {
      taskIds: [found.taskId],
    });
    assert.deepEqual(left, [], 'left out of the statuses: it never ran in the cloud');
    const row = wb.taskRow('Reddit ratings');
    await wb.expand(wb.row('Tasks', found.group).first(), row);
    await row
      .locator('.label-description')
      .filter({ hasText: /(^| · )Never run in the cloud \(local runs only\)( · |$)/ })
      .waitFor();
    await row.locator('.codicon-circle-large-outline').first().waitFor();
    // Its tooltip tells one story too: never in the cloud, and what health counted (local runs).
    const hover = await wb.tooltip(row, 'Never run in the cloud');
    const text = (await hover.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /runs on your own computer are not counted here/, text);
    assert.match(text, /Failed: \d+ of \d+ runs?/, text);
    assert.doesNotMatch(text, /Runs so far|Not run yet/, text);
    await wb.screenshot('runs-12-never-run-local-only');
    await wb.moveAway();
  });
});
