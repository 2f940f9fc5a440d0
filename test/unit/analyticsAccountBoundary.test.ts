/** What of a saved analytics page state survives an account change (analytics/protocol/accountBoundary.ts). */
import * as assert from 'node:assert/strict';

import {
  forAccount,
  forgetAccount,
  holdsAccountData,
  type PageState,
  pageStateSchema,
} from '../../src/analytics/protocol';

const form = {
  start: '2026-11-01',
  end: '2026-11-20',
  timeGranularity: 'Day' as const,
  collectionMethod: 'Local' as const,
  taskIds: ['t1'],
  taskLabels: ['Prices'],
  memberNames: 'ann',
  pageSize: '50',
  page: 3,
};
const state: PageState = {
  version: 2,
  account: 'a',
  preset: { taskIds: ['t1'], label: 'Prices' },
  form,
  result: {
    query: { start: '2026-11-01', end: '2026-11-20' },
    total: 0,
    records: [],
    requestIds: ['r'],
    fetchedAt: 'now',
    resultId: 'result-1',
  },
  sort: { column: 'runCount', direction: 'desc' },
};

describe('analytics account boundary', () => {
  it('keeps a state of the same account as it is', () => {
    assert.deepEqual(forAccount(state, 'a'), { state, cleared: false });
  });

  it("drops results, preset, tasks and members of another account (or signed out), keeps the user's dates, method, page size and sort", () => {
    for (const account of ['b', undefined]) {
      const { state: kept, cleared } = forAccount(state, account);
      assert.equal(cleared, true);
      assert.deepEqual(kept, {
        version: 2,
        ...(account === undefined ? {} : { account }),
        sort: state.sort,
        form: { ...form, taskIds: [], taskLabels: [], memberNames: '', page: 1 },
      });
      assert.equal(holdsAccountData(kept), false);
      assert.ok(pageStateSchema.safeParse(kept).success);
    }
  });

  it("an untagged state (saved before the tag existed) counts as another account's", () => {
    const { account: _a, ...untagged } = state;
    assert.equal(forAccount(untagged, 'a').cleared, true);
    assert.equal(forAccount(untagged, 'a').state.result, undefined);
  });

  it('a state with nothing of an account is retagged without saying it was cleared', () => {
    const bare: PageState = { version: 2, account: 'a', sort: state.sort };
    assert.deepEqual(forAccount(bare, 'b'), { state: { version: 2, account: 'b', sort: state.sort }, cleared: false });
    assert.deepEqual(forgetAccount(bare, undefined), { version: 2, sort: state.sort });
  });

  it('refuses an over-long account tag', () => {
    assert.equal(pageStateSchema.safeParse({ version: 2, account: 'x'.repeat(65) }).success, false);
  });
});
