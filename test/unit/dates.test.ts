import * as assert from 'node:assert/strict';

import { checkAnalyticsQuery } from '../../src/api/schemas/analyticsQuery';
import {
  addDays,
  addMonthsClamped,
  checkDateRange,
  daysBetween,
  defaultRange,
  eachDay,
  earliestStart,
  isDay,
  isoWeek,
  monthKey,
  parseDay,
  todayUtc,
} from '../../src/api/schemas/dates';

describe('dates: UTC calendar-day rules', () => {
  it('todayUtc is the UTC day whatever the offset of the instant', () => {
    assert.equal(todayUtc(new Date('2026-11-22T23:30:00-05:00')), '2026-11-23');
    assert.equal(todayUtc(new Date('2026-11-23T00:30:00+09:00')), '2026-11-22');
    assert.equal(todayUtc(new Date('2026-12-31T23:59:59.999Z')), '2026-12-31');
    assert.equal(todayUtc(new Date('2027-01-01T00:00:00Z')), '2027-01-01');
  });

  it('todayUtc ignores the process time zone', () => {
    const saved = process.env.TZ;
    try {
      for (const tz of ['America/New_York', 'Pacific/Kiritimati', 'Asia/Kolkata']) {
        process.env.TZ = tz;
        assert.equal(todayUtc(new Date('2026-11-22T23:30:00-05:00')), '2026-11-23', tz);
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it('parses only real yyyy-MM-dd days', () => {
    for (const ok of ['2026-01-01', '2024-02-29', '2026-12-31']) assert.ok(isDay(ok), ok);
    for (const bad of [
      '2026-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-1-01',
      '26-01-01',
      '2026/01/01',
      '2026-01-01T00:00',
      '',
      '2026-04-31',
    ]) {
      assert.equal(parseDay(bad), null, bad);
    }
  });

  it('earliest start is three calendar months back, clamped to the month end', () => {
    assert.equal(earliestStart('2026-05-31'), '2026-02-28');
    assert.equal(earliestStart('2028-05-31'), '2028-02-29', 'leap year');
    assert.equal(earliestStart('2026-11-22'), '2026-08-22');
    assert.equal(earliestStart('2026-03-31'), '2025-12-31', 'across the year');
    assert.equal(earliestStart('2026-01-15'), '2025-10-15');
    assert.equal(addMonthsClamped('2024-02-29', 12), '2025-02-28');
    assert.equal(addMonthsClamped('2026-01-31', 1), '2026-02-28');
  });

  it('checkDateRange: end after today, start after end, start too early, bad formats, each naming its field', () => {
    const today = '2026-05-31';
    assert.deepEqual(checkDateRange('2026-02-28', today, today), []);
    assert.deepEqual(checkDateRange(today, today, today), []);
    assert.deepEqual(
      checkDateRange('2026-02-27', today, today).map((i) => i.field),
      ['start'],
    );
    assert.deepEqual(
      checkDateRange('2026-05-01', '2026-06-01', today).map((i) => i.field),
      ['end'],
    );
    assert.match(checkDateRange('2026-05-01', '2026-06-01', today)[0]?.message ?? '', /after today/);
    assert.deepEqual(
      checkDateRange('2026-05-10', '2026-05-09', today).map((i) => i.field),
      ['start'],
    );
    assert.match(checkDateRange('2026-05-10', '2026-05-09', today)[0]?.message ?? '', /after end/);
    assert.deepEqual(
      checkDateRange('x', 'y', today).map((i) => i.field),
      ['start', 'end'],
    );
    // Leap day as today.
    assert.deepEqual(checkDateRange('2027-11-29', '2028-02-29', '2028-02-29'), []);
    assert.equal(checkDateRange('2027-11-28', '2028-02-29', '2028-02-29').length, 1);
  });

  it('checkAnalyticsQuery combines the schema and the date rules', () => {
    const today = '2026-11-22';
    assert.ok(checkAnalyticsQuery({ start: '2026-11-01', end: today }, today).ok);
    const bad = checkAnalyticsQuery({ start: '2026-11-01', end: today, pageSize: 500 }, today);
    assert.ok(!bad.ok && bad.issues[0]?.field === 'pageSize');
    const future = checkAnalyticsQuery({ start: '2026-11-01', end: '2026-11-23' }, today);
    assert.ok(!future.ok && future.issues[0]?.field === 'end');
  });

  it('ISO week labels, including around year boundaries', () => {
    assert.deepEqual(isoWeek('2027-01-01'), {
      key: '2026-W53',
      weekStartDate: '2026-12-28',
      weekEndDate: '2027-01-03',
    });
    assert.equal(isoWeek('2027-01-04').key, '2027-W01');
    assert.equal(isoWeek('2025-12-29').key, '2026-W01', 'a Monday in December can open the next ISO year');
    assert.equal(isoWeek('2026-01-01').key, '2026-W01');
    assert.equal(isoWeek('2021-01-03').key, '2020-W53');
    assert.equal(isoWeek('2026-11-22').key, '2026-W47');
    assert.deepEqual(isoWeek('2026-11-16'), {
      key: '2026-W47',
      weekStartDate: '2026-11-16',
      weekEndDate: '2026-11-22',
    });
    assert.equal(isoWeek('2024-02-29').key, '2024-W09');
  });

  it('month keys and day arithmetic', () => {
    assert.equal(monthKey('2026-11-22'), '2026-11');
    assert.equal(addDays('2024-02-28', 1), '2024-02-29');
    assert.equal(addDays('2026-03-01', -1), '2026-02-28');
    assert.equal(daysBetween('2026-12-31', '2027-01-01'), 1);
    assert.deepEqual(eachDay('2024-02-28', '2024-03-01'), ['2024-02-28', '2024-02-29', '2024-03-01']);
    assert.deepEqual(eachDay('2026-01-02', '2026-01-01'), []);
    assert.deepEqual(defaultRange('2026-03-03'), { start: '2026-02-25', end: '2026-03-03' });
    assert.throws(() => addDays('nope', 1), RangeError);
  });
});
