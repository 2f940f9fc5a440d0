/** The words of the panel's title and header (analytics/model/describeQuery.ts) and the tab text the host sets. */
import * as assert from 'node:assert/strict';

import { oneLine } from '../../src/analytics/host/tabTitle';
import { describeQuery } from '../../src/analytics/model/describeQuery';
import { pageMessageSchema } from '../../src/analytics/protocol';

const names: Record<string, string> = { a: 'Alpha', b: 'Beta' };
const labelOf = (id: string): string | undefined => names[id];

describe('analytics title and header', () => {
  it('names all tasks, one task, or the first and a count; ids where no name is known', () => {
    assert.deepEqual(describeQuery({ start: '2026-11-01', end: '2026-11-20' }, labelOf), {
      title: 'Analytics: All tasks',
      subtitle: 'All tasks · Nov 1 – Nov 20, 2026 · by day',
    });
    assert.equal(
      describeQuery({ start: '2026-11-01', end: '2026-11-20', taskIds: ['a'] }, labelOf).title,
      'Analytics: Alpha',
    );
    assert.equal(
      describeQuery({ start: '2026-11-01', end: '2026-11-20', taskIds: ['a', 'b', 'x'] }, labelOf).title,
      'Analytics: Alpha +2 more',
    );
    assert.equal(
      describeQuery({ start: '2026-11-01', end: '2026-11-20', taskIds: ['x'] }, labelOf).title,
      'Analytics: x',
    );
  });

  it("names a set of tasks by the set's name when it has one (a group), not by its first task and a count", () => {
    const group = describeQuery(
      { start: '2026-11-01', end: '2026-11-20', taskIds: ['a', 'b', 'x'] },
      labelOf,
      'Price monitoring',
    );
    assert.deepEqual(group, {
      title: 'Analytics: Price monitoring',
      subtitle: 'Price monitoring · Nov 1 – Nov 20, 2026 · by day',
    });
    assert.equal(
      describeQuery({ start: '2026-11-01', end: '2026-11-20' }, labelOf, 'Price monitoring').title,
      'Analytics: All tasks',
      'no tasks is all tasks, whatever the name',
    );
  });

  it('says the dates and granularity, with both years when they differ', () => {
    assert.equal(
      describeQuery({ start: '2025-12-29', end: '2026-01-04', timeGranularity: 'Week' }, labelOf).subtitle,
      'All tasks · Dec 29, 2025 – Jan 4, 2026 · by week',
    );
    assert.equal(
      describeQuery({ start: '2026-11-20', end: '2026-11-20', timeGranularity: 'Month' }, labelOf).subtitle,
      'All tasks · Nov 20, 2026 · by month',
    );
  });

  it('the tab text is one line without control characters, and never empty', () => {
    assert.equal(oneLine('Analytics:\r\n\u001b[31mPrices\u2028 '), 'Analytics: [31mPrices');
    assert.equal(oneLine('\n\t'), 'Task Analytics');
    assert.equal(pageMessageSchema.safeParse({ type: 'title', title: 't'.repeat(301) }).success, false);
  });
});
