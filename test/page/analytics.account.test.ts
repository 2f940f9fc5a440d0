/**
 * The account boundary on the page (issue 16 item 1): a saved state of another account, or an
 * account change while the page is open, leaves nothing of the previous account on screen or in
 * the state the page saves; the page says why.
 */
import * as assert from 'node:assert/strict';

import type { PageState } from '../../src/analytics/protocol';
import { assertClean, runAndAnswer } from './flows';
import type { AnalyticsPage } from './harness';
import { record } from './records';
import { useStandIn } from './standIn';

const A = 'account-a';
const B = 'account-b';

describe('analytics page: account boundary', function () {
  const host = useStandIn();
  let p: AnalyticsPage;

  const query = { start: '2026-11-01', end: '2026-11-20', page: 1, pageSize: 100, timeGranularity: 'Day' as const };
  // Figures no seeded or default value shares: 987,654 collected rows of "Linus secret task".
  const records = [
    record({
      taskId: 'linus-1',
      taskName: 'Linus secret task',
      dataVolumeMetrics: { totalCollected: 987_654, deduplicatedVolume: 1 },
    }),
  ];
  const form = {
    start: '2026-11-01',
    end: '2026-11-20',
    timeGranularity: 'Day' as const,
    collectionMethod: 'All' as const,
    taskIds: ['linus-1'],
    taskLabels: ['Linus secret task'],
    memberNames: 'linus',
    pageSize: '20',
    page: 1,
  };
  const stateOfA: PageState = {
    version: 2,
    account: A,
    preset: { taskIds: ['linus-1'], label: 'Linus secret task' },
    form,
    result: {
      query,
      total: 1,
      records,
      requestIds: ['req-linus'],
      fetchedAt: '2026-11-20T10:00:00.000Z',
      resultId: 'result-1',
    },
    sort: { column: 'runCount', direction: 'desc' },
  };

  async function assertNothingOfA(page: AnalyticsPage): Promise<void> {
    const text = await page.page.locator('body').innerText();
    for (const leak of ['Linus secret task', '987,654', '987654', 'linus-1', 'req-linus'])
      assert.ok(!text.includes(leak), `"${leak}" on the page`);
    assert.equal(await page.page.locator('#results').isHidden(), true, 'no result shown');
    assert.equal(await page.page.inputValue('#f-members'), '', 'no member names of A');
    assert.equal(await page.text('#f-tasks'), 'All tasks');
    assert.match(await page.text('#subtitle'), /^All tasks · /);
    // What the page saves (VS Code's setState, the serializer's input after a reload) holds nothing of A either.
    await page.page.waitForFunction(() => {
      const st = (globalThis as unknown as { __vsState?: { result?: unknown } }).__vsState;
      return st !== undefined && st.result === undefined;
    });
    const saved = JSON.stringify(await page.vsState());
    for (const leak of ['Linus', '987654', 'linus', 'req-linus'])
      assert.ok(!saved.includes(leak), `"${leak}" in the saved state: ${saved}`);
  }

  it('restores its own saved state for the same account', async () => {
    p = await host.open({ account: A }, { vsState: stateOfA });
    await p.page.locator('#results').waitFor({ state: 'visible' });
    assert.ok((await p.page.locator('body').innerText()).includes('Linus secret task'));
    await assertClean(p);
  });

  it('drops a saved state of another account (window reload under B), keeps the dates and says why', async () => {
    p = await host.open({ account: B }, { vsState: stateOfA });
    await assertNothingOfA(p);
    assert.equal(await p.page.inputValue('#f-start'), '2026-11-01', "the dates are the user's, not the account's");
    assert.match(await p.text('#notice'), /account changed.*cleared/);
    assert.equal((await p.postedOf('fetchAll')).length, 0, 'nothing of A is fetched again');
    await assertClean(p);
  });

  it('drops a saved state of an account when signed out', async () => {
    p = await host.open({}, { vsState: stateOfA });
    await assertNothingOfA(p);
    assert.match(await p.text('#notice'), /signed out.*cleared/);
  });

  it('drops its content when the account changes while open (sign-out, then another account)', async () => {
    p = await host.open({ account: A });
    await runAndAnswer(p, records);
    assert.ok((await p.page.locator('body').innerText()).includes('Linus secret task'));
    await p.send({ type: 'signedIn', signedIn: false, cleared: true });
    await assertNothingOfA(p);
    assert.match(await p.text('#notice'), /signed out.*cleared/);
    await p.send({ type: 'signedIn', signedIn: true, account: B, cleared: true });
    assert.match(await p.text('#notice'), /account changed.*cleared/);
    assert.equal(((await p.vsState()) as PageState).account, B);
    await assertClean(p);
  });

  it('drops its own copy when the host says the account changed while it was hidden, even for the same tag', async () => {
    p = await host.open({ account: A, cleared: true }, { vsState: stateOfA });
    await assertNothingOfA(p);
  });
});
