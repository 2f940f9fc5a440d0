/**
 * The form model (src/analytics/model/formModel.ts) in plain Node: the same rules the page shows
 * inline, through the shared checkAnalyticsQuery + checkDateRange.
 */
import * as assert from 'node:assert/strict';

import { checkForm, defaultForm, draftQuery, type FormValues, parseMembers } from '../../src/analytics/model/formModel';

const TODAY = '2026-11-22';
const form = (patch: Partial<FormValues> = {}): FormValues => ({ ...defaultForm(TODAY), ...patch });

describe('analytics form model', () => {
  it('defaults to the last 7 UTC days ending today, Day, All, page size 20', () => {
    assert.deepEqual(defaultForm(TODAY), {
      start: '2026-11-16',
      end: TODAY,
      timeGranularity: 'Day',
      collectionMethod: 'All',
      taskIds: [],
      taskLabels: [],
      memberNames: '',
      pageSize: '20',
      page: 1,
    });
  });

  it('takes a preset task with its label', () => {
    const f = defaultForm(TODAY, { taskIds: ['t-1'], label: 'Prices' });
    assert.deepEqual([f.taskIds, f.taskLabels], [['t-1'], ['Prices']]);
  });

  it('builds the query, omitting "all tasks" and "only me"', () => {
    const check = checkForm(form(), TODAY);
    assert.ok(check.ok);
    assert.deepEqual(check.query, {
      start: '2026-11-16',
      end: TODAY,
      page: 1,
      pageSize: 20,
      collectionMethod: 'All',
      timeGranularity: 'Day',
    });
    assert.ok(!('taskIds' in draftQuery(form())) && !('memberNames' in draftQuery(form())));
  });

  it('splits members on commas and new lines, trimming blanks and repeats', () => {
    assert.deepEqual(parseMembers(' ann, bob\n\ncarl ,ann,\r\n'), ['ann', 'bob', 'carl']);
    const check = checkForm(form({ memberNames: 'ann,bob', taskIds: ['t1'] }), TODAY);
    assert.ok(check.ok);
    assert.deepEqual([check.query.memberNames, check.query.taskIds], [['ann', 'bob'], ['t1']]);
  });

  const cases: [string, Partial<FormValues>, string, RegExp][] = [
    ['end after today', { end: '2026-11-23' }, 'end', /not be after today \(2026-11-22, UTC\)/],
    ['start after end', { start: '2026-11-21', end: '2026-11-20' }, 'start', /not be after end \(2026-11-20\)/],
    [
      'start before the three-month limit',
      { start: '2026-08-21' },
      'start',
      /within the last three months \(not before 2026-08-22\)/,
    ],
    ['an impossible date', { start: '2026-02-30' }, 'start', /yyyy-MM-dd/],
    ['page size 0', { pageSize: '0' }, 'pageSize', /whole number from 1 to 100/],
    ['page size 101', { pageSize: '101' }, 'pageSize', /whole number from 1 to 100/],
    ['page size 2.5', { pageSize: '2.5' }, 'pageSize', /whole number from 1 to 100/],
    ['an empty page size', { pageSize: '' }, 'pageSize', /whole number from 1 to 100/],
    [
      '101 members',
      { memberNames: Array.from({ length: 101 }, (_, i) => `m${i}`).join(',') },
      'memberNames',
      /At most 100 members \(you entered 101\)/,
    ],
    ['101 tasks', { taskIds: Array.from({ length: 101 }, (_, i) => `t${i}`) }, 'taskIds', /At most 100 tasks/],
  ];
  for (const [what, patch, field, message] of cases) {
    it(`refuses ${what}, on the ${field} field`, () => {
      const check = checkForm(form(patch), TODAY);
      assert.equal(check.ok, false);
      if (check.ok) return;
      const messages = check.issues[field as keyof typeof check.issues] ?? [];
      assert.ok(
        messages.some((m) => message.test(m)),
        `${field}: ${JSON.stringify(check.issues)}`,
      );
    });
  }

  it('reports every broken rule at once (page size and dates together)', () => {
    const check = checkForm(form({ pageSize: '0', end: '2026-11-30' }), TODAY);
    assert.equal(check.ok, false);
    if (check.ok) return;
    assert.ok(check.issues.pageSize?.length);
    assert.ok(check.issues.end?.length);
  });

  it('accepts the edges: start on the earliest day, end today, page size 1 and 100, 100 members', () => {
    for (const patch of [
      { start: '2026-08-22' },
      { pageSize: '1' },
      { pageSize: '100' },
      { memberNames: Array.from({ length: 100 }, (_, i) => `m${i}`).join('\n') },
    ]) {
      assert.ok(checkForm(form(patch), TODAY).ok, JSON.stringify(patch).slice(0, 60));
    }
  });
});
