/**
 * A new user's walk through the rough edges of issue 32, in the real workbench (the packaged .vsix,
 * the harness's sandbox): the rows under "Needs attention" with their run state, a copy dragged
 * onto an empty group counted there at once, Week buckets labelled with only the days asked for, a
 * group's analytics tab named after the group, and a data browser's tab closed when the account
 * changes. The group counts after a window reload are checked by the activation spec (A4), in the
 * window it reloads anyway. Each step takes its screenshot before it checks, so the pair
 * before/after a change can be made again: artifacts/e2e/walk-*.png.
 *
 * It shares the journey's code-server and runs before the reload spec (which uses other accounts);
 * it leaves the window as it found it: signed out, no editor open, the tree collapsed.
 */
import * as assert from 'node:assert/strict';

import type { Page } from 'playwright-core';

import { shortDay } from '../../src/analytics/model/format';
import { addDays } from '../../src/api/schemas/dates';
import type { Task as ServiceTask, TaskGroup } from '../../src/api/schemas/schemas';
import { useWorkbench } from './session';
import {
  accountNamed,
  type SandboxAccount,
  type SandboxInfo,
  sandboxRequest,
  waitUntil,
  type Workbench,
} from './support';

type Group = Pick<TaskGroup, 'taskGroupId' | 'taskGroupName'>;
type Task = Pick<ServiceTask, 'taskId' | 'taskName'>;
interface WeekRecord {
  dayKey: string;
  weekStartDate: string | null;
  weekEndDate: string | null;
}

/** The sandbox asked with the account's key (support.ts waits out a 429 through the one wait). */
const call = sandboxRequest;

/** What a week bucket's label must say: the days of it inside the query, written out here, not by the code under test. */
function expectedWeekLabel(r: WeekRecord, start: string, end: string): string {
  if (r.weekStartDate === null || r.weekEndDate === null) return r.dayKey;
  const from = r.weekStartDate > start ? r.weekStartDate : start;
  const to = r.weekEndDate < end ? r.weekEndDate : end;
  return `${r.dayKey} (${from === to ? shortDay(from) : `${shortDay(from)} – ${shortDay(to)}`})`;
}

/**
 * Waits (through the one wait, waitUntil) until `check` holds or `timeoutMs` passes, and says
 * which: steps screenshot either way, then assert.
 */
async function settled(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  return waitUntil("a step's state", async () => (await check()) || undefined, { timeoutMs }).then(
    () => true,
    () => false,
  );
}

describe('User walk: counts, run state, week labels, tab titles (real workbench, issue 32)', function () {
  this.timeout(300_000);
  let info: SandboxInfo;
  let ada: SandboxAccount;
  let fiona: SandboxAccount;
  let page: Page;
  let wb: Workbench;
  let group: Group;
  let tasks: Task[];

  /** A screenshot with the pointer parked over the empty editor area (no stray hover tooltip). */
  const shot = async (name: string): Promise<void> => {
    await page.mouse.move(900, 450);
    await wb.screenshot(name);
  };
  /** The row's text as drawn: label and description. */
  const rowText = async (text: string | RegExp): Promise<string> =>
    (await wb.row('Tasks', text).first().innerText()).replace(/\s+/g, ' ');
  const tabLabels = async (): Promise<string[]> =>
    (await page.locator('.tabs-container .tab').allInnerTexts()).map((t) => t.trim());

  useWorkbench('userWalk', {
    shots: 'walk',
    prepare: async (sandbox) => {
      info = sandbox;
      ada = accountNamed(info, 'ada');
      fiona = accountNamed(info, 'fiona');
      group = (await call<Group[]>(info, ada, 'GET', '/taskGroup'))[0] as Group;
      tasks = await call<Task[]>(info, ada, 'GET', `/task/search?taskGroupId=${encodeURIComponent(group.taskGroupId)}`);
    },
    opened: (win) => ({ page, wb } = win),
  });

  it('W1. the rows under "Needs attention" show their run state, with its icon, as in their groups', async () => {
    await wb.openScrapedeck();
    await wb.signInWithPassword(ada.username, ada.password);
    await wb.row('Tasks', 'Needs attention').first().waitFor();
    // The rows between "Needs attention" and the first group: their icons and words.
    const attentionRows = async (): Promise<{ text: string; icon: string }[]> => {
      const rows = await wb
        .view('Tasks')
        .locator('.monaco-list-row')
        .evaluateAll((els) =>
          els.map((el) => ({
            level: el.getAttribute('aria-level'),
            text: (el as unknown as { innerText: string }).innerText.replace(/\s+/g, ' '),
            icon:
              /codicon-([\w-]+)/.exec(el.querySelector('.custom-view-tree-node-item-icon')?.className ?? '')?.[1] ?? '',
          })),
        );
      const start = rows.findIndex((r) => r.text.startsWith('Needs attention'));
      const out: { text: string; icon: string }[] = [];
      for (const r of rows.slice(start + 1)) {
        if (r.level !== '2') break;
        out.push({ text: r.text, icon: r.icon });
      }
      return out;
    };
    const runWords = /Finished|Stopped|Extracting|Failed|Not run yet|Starting|Stopping/;
    const shown = await settled(async () => {
      const rows = await attentionRows();
      return rows.length > 0 && rows.every((r) => r.icon !== 'globe' && runWords.test(r.text));
    }, 30_000);
    await shot('walk-01-needs-attention');
    const rows = await attentionRows();
    assert.ok(shown, `each row shows its run state: ${JSON.stringify(rows)}`);
  });

  it('W2. a copy dragged onto the empty group "Drafts" is counted there at once', async () => {
    await wb.clearNotifications();
    // Room for the group's rows and Drafts on screen together: the health rows folded away.
    const attention = wb.row('Tasks', 'Needs attention').first();
    if ((await attention.getAttribute('aria-expanded')) === 'true') await attention.click();
    const drafts = wb.row('Tasks', /^Drafts/).first();
    await drafts.waitFor();
    await settled(async () => (await rowText(/^Drafts/)).includes('0 tasks'), 30_000);
    // As the walk did: duplicate a task, then drag the copy onto Drafts (a closed group).
    const source = tasks[tasks.length - 1] as Task;
    await wb.expand(wb.row('Tasks', group.taskGroupName).first(), wb.taskRow(source.taskName));
    await wb.contextMenu(wb.taskRow(source.taskName), 'Duplicate Task');
    const copyName = `${source.taskName} (copy)`;
    await wb.notification(`Duplicated “${source.taskName}” as “${copyName}”`).waitFor();
    const copy = wb.taskRow(copyName);
    await wb.reveal(copy);
    await copy.waitFor();
    await wb.reveal(drafts);
    await wb.dragOnto(
      copy,
      drafts,
      page.locator('.part.statusbar').filter({ hasText: `Moved “${copyName}” to “Drafts”` }),
    );
    // The row's text runs label and description together ("Drafts1 task").
    const counted = await settled(async () => /(?<!\d)1 task\b/.test(await rowText(/^Drafts/)), 10_000);
    await shot('walk-02-copy-moved-to-drafts');
    assert.ok(counted, `Drafts reads: ${await rowText(/^Drafts/)}`);
  });

  it('W4. a Week query of the last 7 days labels each bucket with only its days inside the query, in the table and every chart', async () => {
    // W2's "Duplicated …" would still be up in this step's screenshots.
    await wb.clearNotifications();
    const task = tasks[0] as Task;
    await wb.expand(wb.row('Tasks', group.taskGroupName).first(), wb.taskRow(task.taskName));
    await wb.contextMenu(wb.taskRow(task.taskName), 'Open Analytics for Task');
    const view = wb.webview();
    await view.locator('#run').waitFor();
    const end = await view.locator('#f-end').inputValue();
    const start = addDays(end, -6);
    await view.locator('#f-granularity').selectOption('Week');
    await view.locator('#f-start').fill(start);
    await view.locator('#run').click();
    const records = (
      await call<{ data: WeekRecord[] }>(info, ada, 'POST', '/taskanalytics/queries', {
        start,
        end,
        taskIds: [task.taskId],
        timeGranularity: 'Week',
        page: 1,
        pageSize: 100,
      })
    ).data;
    const want = [...new Set(records.map((r) => expectedWeekLabel(r, start, end)))].sort();
    assert.ok(want.length > 0, `Week records for ${task.taskName}`);
    const cells = async (): Promise<string[]> => {
      const column = (
        await view
          .locator('table.records thead th')
          .evaluateAll((ths) => ths.map((th) => th.getAttribute('data-column')))
      ).indexOf('dayKey');
      const texts = await view
        .locator('table.records tbody tr:not(.spacer)')
        .evaluateAll(
          (trs, i) =>
            trs.map(
              (tr) =>
                (tr as unknown as { cells: ArrayLike<{ textContent: string | null } | undefined> }).cells[
                  i
                ]?.textContent?.trim() ?? '',
            ),
          column,
        );
      return [...new Set(texts)].sort();
    };
    const ticks = async (): Promise<string[][]> =>
      view.locator('body').evaluate(() => {
        const hook = (
          globalThis as unknown as { __scrapedeckCharts: { charts(): { ticks: { x: { text: string }[] } }[] } }
        ).__scrapedeckCharts;
        return hook.charts().map((c) => c.ticks.x.map((t) => t.text));
      });
    await settled(async () => (await cells()).length === want.length, 60_000);
    await settled(async () => JSON.stringify(await cells()) === JSON.stringify(want), 5_000);
    await view.locator('.charts').scrollIntoViewIfNeeded();
    await shot('walk-04-week-labels');
    await view.locator('table.records').scrollIntoViewIfNeeded();
    await shot('walk-04b-week-labels-table');
    assert.deepEqual(await cells(), want, 'the table labels each week with the days asked for');
    // A chart draws a label on two lines (the probe joins them): compare without the brackets.
    const plain = (l: string): string => l.replace(/[()]/g, '');
    for (const chart of await ticks())
      assert.deepEqual(chart.map(plain).sort(), want.map(plain), 'every chart labels every bucket');
  });

  it("W5. a group's analytics tab is named after the group", async () => {
    await wb.runCommand('View: Close All Editors');
    await wb.openScrapedeck();
    await wb.contextMenu(wb.row('Tasks', group.taskGroupName).first(), 'Open Analytics for All Tasks in Group');
    await wb.webview().locator('#run').waitFor();
    // The page names the query on screen once it has its state: give it that moment.
    await settled(async () => (await wb.webview().locator('#subtitle').innerText()).trim() !== '', 15_000);
    // The host names the tab once the page has said what it shows: wait for that name, not for time.
    await settled(
      async () => (await tabLabels()).some((l) => l.split('\n')[0]?.trim() === `Analytics: ${group.taskGroupName}`),
      15_000,
    );
    await shot('walk-05-group-analytics-tab');
    const labels = await tabLabels();
    assert.ok(
      labels.some((l) => l.split('\n')[0]?.trim() === `Analytics: ${group.taskGroupName}`),
      `tabs: ${labels.join(' | ')}`,
    );
  });

  it("W5b. Browse Data shows a task's rows in a grid: sorted by a click on a header, searched, a column profiled", async () => {
    await wb.runCommand('View: Close All Editors');
    await wb.openScrapedeck();
    const task = tasks[0] as Task;
    const total = (
      await call<{ total: number }>(
        info,
        ada,
        'GET',
        `/data/all?taskId=${encodeURIComponent(task.taskId)}&offset=0&size=1`,
      )
    ).total;
    assert.ok(total > 0, `${task.taskName} has rows`);
    await wb.expand(wb.row('Tasks', group.taskGroupName).first(), wb.taskRow(task.taskName));
    await wb.contextMenu(wb.taskRow(task.taskName), 'Browse Data');
    const view = wb.webview();
    await view.locator('#cell-0-0').waitFor({ timeout: 30_000 });
    await view.locator('.count', { hasText: `${total.toLocaleString('en-US')} rows` }).waitFor({ timeout: 60_000 });
    await wb.clearNotifications();
    await shot('walk-05b-browse-rows');
    const head = view.locator('[role=columnheader]').nth(1);
    await head.locator('button').click();
    await view.locator('[role=columnheader][aria-sort=ascending]').waitFor();
    await shot('walk-05c-browse-sorted');
    // The sorted window's rows arrive after the header says so: search for the first cell once it is drawn.
    const term = await waitUntil(
      'the first cell of the sorted rows',
      async () => (await view.locator('#cell-0-0').innerText()).trim() || undefined,
    );
    await view.getByLabel('Search all columns').fill(term);
    await view.locator('.count', { hasText: 'match' }).waitFor({ timeout: 30_000 });
    await shot('walk-05d-browse-searched');
    await view.locator('#cell-0-0').click();
    await view.getByRole('button', { name: 'Profile column' }).click();
    await view.locator('.side h2', { hasText: 'Profile of' }).waitFor({ timeout: 30_000 });
    await shot('walk-05e-browse-profile');
    assert.match(await view.locator('.side').innerText(), /Distinct values/);
  });

  it("W6. after switching account, no tab names the previous account's task", async () => {
    await wb.runCommand('View: Close All Editors');
    await wb.openScrapedeck();
    let withRows: Task | undefined;
    for (const t of tasks) {
      if (
        (
          await call<{ total: number }>(
            info,
            ada,
            'GET',
            `/data/all?taskId=${encodeURIComponent(t.taskId)}&offset=0&size=1`,
          )
        ).total > 0
      ) {
        withRows = t;
        break;
      }
    }
    assert.ok(withRows, 'a task of the first group has rows');
    await wb.expand(wb.row('Tasks', group.taskGroupName).first(), wb.taskRow(withRows.taskName));
    await wb.contextMenu(wb.taskRow(withRows.taskName), 'Browse Data');
    // The browser's tab is named after the task.
    const previewTab = page
      .locator('.tabs-container .tab')
      .filter({ hasText: `Data of “${withRows.taskName}”` })
      .first();
    await previewTab.waitFor();
    await wb.clearNotifications();
    const switchAccount = () => wb.runCommand('Scrapedeck: Switch Account…');
    await switchAccount();
    // The browser's webview may take the focus as it finishes loading, closing the picker: open it again then.
    await wb.pickItem('Sign In with API Key', { reopen: switchAccount });
    await wb.answerInput('Sign In to Scrapedeck with an API Key (1/2)', fiona.apiKey);
    await wb.answerInput('Sign In to Scrapedeck with an API Key (2/2)', 'Fiona (Free)');
    await wb.notification('Signed in to Scrapedeck with Fiona (Free)').waitFor();
    const gone = await settled(async () => (await previewTab.count()) === 0, 15_000);
    // The Tasks view done with the switch too (fiona's plan lists no tasks), so the picture is of one moment.
    await wb
      .view('Tasks')
      .locator('.welcome-view-content')
      .filter({ hasText: 'Standard, Professional or Enterprise plan' })
      .waitFor({ timeout: 30_000 })
      .catch(() => undefined);
    await shot('walk-06-tabs-after-switch');
    assert.ok(gone, `tabs: ${(await tabLabels()).join(' | ')}`);
  });
});
