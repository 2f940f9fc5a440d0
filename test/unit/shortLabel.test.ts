import * as assert from 'node:assert/strict';

import { bucketLines, shortBucketLabel, useShortLabels } from '../../src/analytics/model/shortLabel';

describe('short chart date labels', () => {
  it('drops the year of a day and keeps the week number of a week', () => {
    assert.equal(shortBucketLabel('2026-11-16'), '11-16');
    assert.equal(shortBucketLabel('2026-W47 (11-16 – 11-22)'), 'W47');
    assert.equal(shortBucketLabel('2026-W47'), 'W47');
  });
  it('keeps the month of a month that carries its days', () => {
    assert.equal(shortBucketLabel('2026-11 (Nov 20 – Nov 26)'), '2026-11');
  });
  it("puts a bucket's days under its key on a chart axis, half as wide (two weeks side by side both fit)", () => {
    assert.deepEqual(bucketLines('2026-W47 (Nov 20 – Nov 22)'), ['2026-W47', 'Nov 20 – Nov 22']);
    assert.deepEqual(bucketLines('2026-11 (Nov 20)'), ['2026-11', 'Nov 20']);
    for (const l of ['2026-11-16', '2026-11', 'Unknown', '']) assert.equal(bucketLines(l), l);
  });
  it('leaves anything else as it is', () => {
    for (const l of ['', 'Unknown', '2026-11', '26-11-16', '2026-W4']) assert.equal(shortBucketLabel(l), l);
  });
  it('goes short only on narrow charts with more than a few buckets', () => {
    assert.equal(useShortLabels(440, 46), true);
    assert.equal(useShortLabels(440, 4), false);
    assert.equal(useShortLabels(1300, 46), false);
  });
});
