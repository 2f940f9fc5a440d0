/**
 * The panel's title and the page's header always describe the query on screen (issue 21 item 2):
 * the form's query until a result is in, then the result's, and again whatever replaces it.
 */
import * as assert from 'node:assert/strict';

import { assertClean, runAndAnswer } from './flows';
import type { AnalyticsPage } from './harness';
import { record } from './records';
import { useStandIn } from './standIn';

describe('analytics page: title and header say the query on screen', function () {
  const host = useStandIn();
  let p: AnalyticsPage;

  const lastTitle = async (page: AnalyticsPage): Promise<string> => {
    const titles = await page.postedOf('title');
    return String(titles[titles.length - 1]?.title ?? '');
  };

  it('follows the preset, the picked tasks, the dates and granularity, and the result shown', async function () {
    this.timeout(60_000);
    p = await host.open({ preset: { taskIds: ['t-1'], label: 'Prices' } });
    await p.page.waitForFunction(() =>
      (globalThis as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'title'),
    );
    assert.equal(await lastTitle(p), 'Analytics: Prices');
    assert.equal(await p.text('#subtitle'), 'Prices · Nov 16 – Nov 22, 2026 · by day');

    await runAndAnswer(p, [record({ taskId: 't-1', taskName: 'Prices' })]);
    assert.equal(await lastTitle(p), 'Analytics: Prices');

    // Clearing the tasks changes what the form would run, but a result is on screen: it still describes the result.
    await p.page.fill('#f-start', '2026-11-01');
    assert.equal(await p.text('#subtitle'), 'Prices · Nov 16 – Nov 22, 2026 · by day');

    // Running the new query: the result on screen, and so the title, change.
    await p.page.click('#f-clear-tasks');
    await runAndAnswer(p, [record()]);
    await p.page.locator('#subtitle', { hasText: 'All tasks · Nov 1 – Nov 22, 2026 · by day' }).waitFor();
    assert.equal(await lastTitle(p), 'Analytics: All tasks');
    await assertClean(p);
  });

  it("a group's panel is named after the group while it asks for just the group's tasks (issue 32)", async () => {
    const ids = Array.from({ length: 14 }, (_, i) => `g-${i}`);
    p = await host.open({ preset: { taskIds: ids, label: 'Price monitoring' } });
    await p.page.locator('#subtitle', { hasText: 'Price monitoring · Nov 16 – Nov 22, 2026 · by day' }).waitFor();
    assert.equal(await lastTitle(p), 'Analytics: Price monitoring');
    await runAndAnswer(p, [record({ taskId: 'g-0', taskName: 'Indeed stock levels' })]);
    assert.equal(await lastTitle(p), 'Analytics: Price monitoring', "the result of the group's query keeps the name");
    // Other tasks than the group's: named by their tasks again.
    await p.page.click('#f-clear-tasks');
    await runAndAnswer(p, [record()]);
    await p.page.locator('#subtitle', { hasText: 'All tasks ·' }).waitFor();
    assert.equal(await lastTitle(p), 'Analytics: All tasks');
    await assertClean(p);
  });

  it('names many tasks by the first and a count', async () => {
    p = await host.open({
      state: {
        version: 2,
        form: {
          start: '2026-11-01',
          end: '2026-11-30',
          timeGranularity: 'Week',
          collectionMethod: 'All',
          taskIds: ['a', 'b', 'c'],
          taskLabels: ['Alpha', 'Beta', 'Gamma'],
          memberNames: '',
          pageSize: '20',
          page: 1,
        },
      },
    });
    await p.page.locator('#subtitle', { hasText: 'Alpha +2 more · Nov 1 – Nov 30, 2026 · by week' }).waitFor();
    assert.equal(await lastTitle(p), 'Analytics: Alpha +2 more');
  });
});
