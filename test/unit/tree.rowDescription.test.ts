/**
 * A task row's description puts the most useful first, so a narrow sidebar cuts the least useful:
 * at rest why the task needs attention leads; while it runs, the run's state leads (the walk of
 * issue 48 found "2.1× slower" pushing "Extracting, 97 rows" out of sight).
 */
import * as assert from 'node:assert/strict';

import { type DescriptionPart, rowDescription } from '../../src/tasks/rowDescription';

const parts = (entries: [DescriptionPart, string][]): Map<DescriptionPart, string> => new Map(entries);

describe("tree: a task row's description", () => {
  const all = parts([
    ['sync', 'syncs to shop.sqlite'],
    ['health', 'no runs in 7 days'],
    ['run', 'Extracting, 97 rows'],
    ['attention', '2.1× slower'],
  ]);

  it('at rest: why it needs attention, then its run state, then the rest', () => {
    assert.equal(
      rowDescription(all, false),
      '2.1× slower · Extracting, 97 rows · no runs in 7 days · syncs to shop.sqlite',
    );
  });

  it('while a run is going: its state first, then why it needs attention', () => {
    assert.equal(
      rowDescription(all, true),
      'Extracting, 97 rows · 2.1× slower · no runs in 7 days · syncs to shop.sqlite',
    );
  });

  it('leaves out empty parts, and is undefined with none', () => {
    assert.equal(
      rowDescription(
        parts([
          ['run', 'Finished, 157 rows'],
          ['attention', ''],
        ]),
        false,
      ),
      'Finished, 157 rows',
    );
    assert.equal(rowDescription(parts([]), true), undefined);
  });
});
