/**
 * The task choice (issue 21, items 1 and 5): chips named by the host (ids in the tooltip, an id
 * where the host has no name), "+N more" beyond five chips so a group of 60 keeps the Run button
 * on the first screen at 1400x900, and focus that stays where the user acted, keyboard only.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { assertClean, TODAY } from './flows';
import { type AnalyticsPage, repoRoot } from './harness';
import { useStandIn } from './standIn';

type Doc = { document: { activeElement: { id: string; blur(): void } | null } };

const ids = Array.from({ length: 60 }, (_, i) => `task-${String(i + 1).padStart(2, '0')}`);
/** The host names all but tasks 3 and 60 (not in its cache). */
const names = ids
  .filter((id) => id !== 'task-03' && id !== 'task-60')
  .map((taskId) => ({ taskId, taskName: `Price watch ${taskId.slice(5)}` }));

describe('analytics page: task choice', function () {
  const host = useStandIn();
  let p: AnalyticsPage;
  const out = join(repoRoot(), 'artifacts', 'page');
  before(() => {
    mkdirSync(out, { recursive: true });
  });

  const openGroup = (): Promise<AnalyticsPage> =>
    host.open({ preset: { taskIds: ids, label: 'Price watchers' }, taskNames: names }, { width: 1400, height: 900 });

  async function active(): Promise<string | undefined> {
    return p.page.evaluate(() => (globalThis as unknown as Doc).document.activeElement?.id);
  }

  /** Tab from the page's start until `id` has focus (at most 60 stops), as a keyboard user would. */
  async function tabTo(id: string): Promise<void> {
    for (let i = 0; i < 60; i++) {
      if ((await active()) === id) return;
      await p.page.keyboard.press('Tab');
    }
    assert.fail(`Tab never reached #${id}`);
  }

  /** What a quick pick does to the webview: it takes focus away, so the page's document has none. */
  async function focusLeavesPage(): Promise<void> {
    await p.page.evaluate(() => (globalThis as unknown as Doc).document.activeElement?.blur());
  }

  it('a group of 60: named chips, ids in tooltips, "+55 more", and Run on the first screen at 1400x900', async () => {
    p = await openGroup();
    const chips = p.page.locator('#f-tasks li');
    assert.equal(await chips.count(), 60);
    assert.deepEqual(
      await p.page.locator('#f-tasks li:visible').allInnerTexts(),
      ['Price watch 01', 'Price watch 02', 'task-03', 'Price watch 04', 'Price watch 05'],
      'names from the host; an unnamed task shows its id',
    );
    assert.equal(await chips.nth(0).getAttribute('title'), 'Task ID task-01');
    assert.equal(await chips.nth(2).getAttribute('title'), 'Task ID task-03');
    const more = p.page.locator('#f-tasks-more');
    assert.equal(await more.innerText(), '+55 more');
    assert.equal(await more.getAttribute('aria-expanded'), 'false');
    assert.equal(await more.getAttribute('aria-controls'), 'f-tasks');

    const run = await p.page.locator('#run').boundingBox();
    assert.ok(run, 'the Run button is rendered');
    const scrollY = await p.page.evaluate(() => (globalThis as unknown as { scrollY: number }).scrollY);
    assert.equal(scrollY, 0, 'nothing scrolled');
    assert.ok(
      run.y >= 0 && run.y + run.height <= 900 && run.x + run.width <= 1400,
      `Run inside the 1400x900 viewport: ${JSON.stringify(run)}`,
    );
    await p.page.screenshot({ path: join(out, 'task-choice-60-collapsed.png') });

    await more.click();
    assert.equal(await more.getAttribute('aria-expanded'), 'true');
    assert.equal(await p.page.locator('#f-tasks li:visible').count(), 60);
    assert.equal(await chips.nth(59).innerText(), 'task-60');
    assert.equal(await more.innerText(), 'Show fewer');
    await p.page.screenshot({ path: join(out, 'task-choice-60-expanded.png'), fullPage: true });
    await more.click();
    assert.equal(await more.getAttribute('aria-expanded'), 'false');
    assert.equal(await p.page.locator('#f-tasks li:visible').count(), 5);
    await assertClean(p);
  });

  it('keyboard only: "+55 more" expands and collapses with focus kept on it', async () => {
    p = await openGroup();
    await tabTo('f-tasks-more');
    await p.page.keyboard.press('Enter');
    assert.equal(await p.page.getAttribute('#f-tasks-more', 'aria-expanded'), 'true');
    assert.equal(await active(), 'f-tasks-more', 'focus stays on the toggle after expanding');
    await p.page.keyboard.press('Space');
    assert.equal(await p.page.getAttribute('#f-tasks-more', 'aria-expanded'), 'false');
    assert.equal(await active(), 'f-tasks-more', 'focus stays on the toggle after collapsing');
    await assertClean(p);
  });

  it('keyboard only: closing the task picker returns focus to "Choose tasks…", picked or dismissed', async () => {
    p = await openGroup();
    await tabTo('f-choose-tasks');
    await p.page.keyboard.press('Enter');
    const first = await p.waitForPosted('pickTasks');
    assert.equal((first.selected as string[]).length, 60);
    await focusLeavesPage();
    await p.send({ type: 'error', id: first.id, error: { kind: 'cancelled', message: 'Cancelled.' } });
    assert.equal(await active(), 'f-choose-tasks', 'Esc in the picker: back on the trigger');
    assert.equal(await p.page.locator('#f-tasks li').count(), 60, 'a dismissed pick changes nothing');

    await p.page.keyboard.press('Enter');
    const second = await p.waitForPosted('pickTasks', 2);
    await focusLeavesPage();
    await p.send({ type: 'tasksPicked', id: second.id, taskIds: ['t-a', 't-b'], taskLabels: ['Alpha', 'Beta'] });
    assert.equal(await active(), 'f-choose-tasks', 'a pick: back on the trigger');
    assert.deepEqual(await p.page.locator('#f-tasks li').allInnerTexts(), ['Alpha', 'Beta']);
    assert.ok(await p.page.locator('#f-tasks-more').isHidden(), 'no toggle for two chips');

    await tabTo('f-clear-tasks');
    await p.page.keyboard.press('Enter');
    assert.equal(await p.text('#f-tasks'), 'All tasks');
    assert.equal(
      await active(),
      'f-choose-tasks',
      '"Use all tasks" hides itself: focus goes to the trigger, not the body',
    );
    await assertClean(p);
  });

  it("labels come from the host: a saved label is replaced, a late name fills an id, another account's names are ignored", async () => {
    const form = {
      start: '2026-11-16',
      end: TODAY,
      timeGranularity: 'Day',
      collectionMethod: 'All',
      memberNames: '',
      pageSize: '20',
      page: 1,
      taskIds: ['t-1', 't-2', 't-3'],
      taskLabels: ['Saved by the page', 'Old name', 'Kept from before'],
    };
    p = await host.open({
      account: 'acct-a',
      state: { version: 2, account: 'acct-a', form },
      taskNames: [{ taskId: 't-2', taskName: 'Stock levels' }],
    });
    assert.deepEqual(
      await p.page.locator('#f-tasks li').allInnerTexts(),
      ['t-1', 'Stock levels', 't-3'],
      'only the host names tasks',
    );
    await p.send({ type: 'taskNames', account: 'acct-b', names: [{ taskId: 't-1', taskName: 'Other account' }] });
    assert.deepEqual(await p.page.locator('#f-tasks li').allInnerTexts(), ['t-1', 'Stock levels', 't-3']);
    await p.send({
      type: 'taskNames',
      account: 'acct-a',
      names: [
        { taskId: 't-1', taskName: 'Prices' },
        { taskId: 't-9', taskName: 'Not chosen' },
      ],
    });
    assert.deepEqual(await p.page.locator('#f-tasks li').allInnerTexts(), ['Prices', 'Stock levels', 't-3']);
    // The state is saved off the render path: wait for it, then check what was kept.
    await p.page.waitForFunction(() => {
      const state = (globalThis as unknown as { __vsState?: { form?: { taskLabels?: string[] } } }).__vsState;
      return state?.form?.taskLabels?.[0] === 'Prices';
    });
    const saved = (await p.vsState()) as { form?: { taskLabels?: string[] } };
    assert.deepEqual(saved.form?.taskLabels, ['Prices', 'Stock levels', '']);
    await assertClean(p);
  });
});
