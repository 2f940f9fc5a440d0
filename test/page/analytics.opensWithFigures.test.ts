/**
 * Issue 48 item 8: a panel opened for a group (or a task) shows its figures at once, without Run
 * query; the records table leaves out the week's columns for a Day or Month result, shows whole ids,
 * and names the proxy figure as the service's proxy IP usage.
 */
import * as assert from 'node:assert/strict';

import { answer, assertClean } from './flows';
import type { AnalyticsPage } from './harness';
import { record } from './records';
import { useStandIn } from './standIn';

describe('analytics page: opened for a group, its figures at once (issue 48 item 8)', function () {
  const host = useStandIn();
  let p: AnalyticsPage;

  it("a group's panel runs its query as it opens, for just the group's tasks; a Day result has no week columns; ids are whole", async function () {
    this.timeout(60_000);
    const ids = Array.from({ length: 14 }, (_, i) => `0b6c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c${String(i).padStart(2, '0')}`);
    p = await host.open(
      { preset: { taskIds: ids, label: 'Price monitoring' }, account: 'account-a' },
      { width: 1280, height: 900 },
    );
    const q = await p.waitForPosted('query', 1);
    assert.deepEqual((q.query as { taskIds?: string[] }).taskIds, ids, "the group's tasks, asked with no click");
    await answer(p, q, [record({ taskId: ids[0], taskName: 'Indeed stock levels' })]);
    // By day: the week's start and end would say "—" on every row.
    assert.equal(await p.page.locator('th[data-column="weekStartDate"]').isVisible(), false);
    assert.equal(await p.page.locator('th[data-column="weekEndDate"]').isVisible(), false);
    const row = p.page.locator('table.records tbody tr:not(.spacer)').first();
    assert.equal(await row.locator('> :nth-child(5)').isVisible(), false, 'nor its cells');
    assert.equal(await row.locator('> :nth-child(6)').isVisible(), false);
    assert.equal(await row.locator('> :nth-child(4)').isVisible(), true, 'the date bucket stays');
    // The task id is shown whole: its cell is not cut.
    const cut = await p.page
      .locator('table.records tbody tr:not(.spacer)')
      .first()
      .locator('td')
      .first()
      .evaluate((td) => td.scrollWidth > td.clientWidth);
    assert.equal(cut, false, 'the Task ID cell holds the whole id');
    assert.match(await p.text('th[data-column="proxyIpCount"]'), /Proxy IP usage/);
    await assertClean(p);
  });

  it('signed out, or opened with no task, it waits for Run query', async () => {
    p = await host.open({ preset: { taskIds: ['t-1'], label: 'Prices' } });
    await p.page.locator('#subtitle', { hasText: 'Prices' }).waitFor();
    assert.equal((await p.postedOf('query')).length, 0, 'signed out: nothing asked');
    await p.close();
    p = await host.open({ account: 'account-a' });
    await p.page.locator('#subtitle', { hasText: 'All tasks' }).waitFor();
    assert.equal((await p.postedOf('query')).length, 0, 'no preset: the form waits');
  });
});
