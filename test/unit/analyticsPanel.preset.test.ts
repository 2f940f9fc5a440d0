import * as assert from 'node:assert/strict';

import { panelTitle, parsePreset, samePreset } from '../../src/analytics/host/preset';
import { parsePageState } from '../../src/analytics/host/serializer';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('analytics presets', () => {
  it('no argument is no preset, without a warning', () => {
    assert.deepEqual(parsePreset(undefined), { preset: undefined });
    assert.deepEqual(parsePreset(null), { preset: undefined });
  });

  it('keeps task ids and a label', () => {
    assert.deepEqual(parsePreset({ taskIds: ['a', 'b'], label: 'Prices' }), {
      preset: { taskIds: ['a', 'b'], label: 'Prices' },
    });
    assert.deepEqual(parsePreset({ taskIds: ['a', 'a'] }), { preset: { taskIds: ['a'] } });
  });

  it('shortens a long task name in the label and keeps the task ids', () => {
    const long = 'Very long task name '.repeat(20);
    const { preset, warning } = parsePreset({ taskIds: ['t1'], label: long });
    assert.equal(warning, undefined);
    assert.deepEqual(preset?.taskIds, ['t1']);
    assert.equal(preset?.label?.length, 200);
    assert.ok(preset?.label?.endsWith('…'));
  });

  it('an empty preset means all tasks', () => {
    assert.deepEqual(parsePreset({}), { preset: undefined });
    assert.deepEqual(parsePreset({ taskIds: [], label: '  ' }), { preset: undefined });
  });

  for (const [what, arg] of [
    ['a string', 'task-1'],
    ['a Uri-like object with wrong field types', { taskIds: 'a' }],
    ['too many tasks', { taskIds: Array.from({ length: 101 }, (_, i) => `t${i}`) }],
    ['an empty task id', { taskIds: [''] }],
    ['a number', 42],
  ] as const) {
    it(`ignores ${what}, with a warning`, () => {
      const parsed = parsePreset(arg);
      assert.equal(parsed.preset, undefined);
      assert.match(parsed.warning ?? '', /ignored the analytics preset/);
    });
  }

  it('titles the panel by label', () => {
    assert.equal(panelTitle({ label: 'Prices', taskIds: ['a'] }), 'Analytics: Prices');
    assert.equal(panelTitle({ taskIds: ['a'] }), 'Task Analytics');
    assert.equal(panelTitle(undefined), 'Task Analytics');
  });

  it('compares presets by their tasks, in any order', () => {
    assert.ok(samePreset({ taskIds: ['a', 'b'] }, { taskIds: ['b', 'a'] }));
    assert.ok(samePreset(undefined, undefined));
    assert.ok(!samePreset({ taskIds: ['a'] }, undefined));
    assert.ok(!samePreset({ taskIds: ['a'], label: 'x' }, { taskIds: ['a'], label: 'y' }));
  });
});

describe('analytics serializer state', () => {
  it('restores a valid state', () => {
    const state = { version: 2, preset: { taskIds: ['a'] }, sort: { column: 'dayKey', direction: 'asc' } };
    assert.deepEqual(parsePageState(state, silent), state);
    // One saved by the version before still restores its preset and sort.
    assert.deepEqual(parsePageState({ ...state, version: 1 }, silent), state);
  });

  it('corrupt or foreign state gives a fresh panel and a warning', () => {
    const warnings: string[] = [];
    const log = { ...silent, warn: (m: string) => void warnings.push(m) };
    assert.equal(parsePageState({ version: 3 }, log), undefined);
    assert.equal(parsePageState('garbage', log), undefined);
    assert.equal(parsePageState({ version: 1, form: { start: 3 } }, log), undefined);
    assert.equal(warnings.length, 3);
    assert.equal(parsePageState(undefined, log), undefined);
    assert.equal(warnings.length, 3, 'no state is not a problem');
  });
});
