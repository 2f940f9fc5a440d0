/**
 * The harness's fast path for sending a message (plainJson.ts): only what JSON carries exactly
 * takes it; everything JSON would change (drop, turn into null or 0, copy, refuse) does not.
 */
import * as assert from 'node:assert/strict';

import { encodeForPage } from '../../src/analytics/protocol/hostMessage';
import { isPlainJson } from './plainJson';
import { grid } from './records';

describe('page harness: which messages go over as JSON', () => {
  it('takes the messages the tests send: packed rows, nulls, nested objects, empty arrays', () => {
    const records = grid(3, 4, '2026-11-22');
    assert.equal(
      isPlainJson(encodeForPage({ type: 'fetchAllProgress', id: '1', fetched: 12, total: 12, at: 0, records })),
      true,
    );
    assert.equal(
      isPlainJson({ type: 'queryResult', id: 1, page: { total: 0, data: [] }, x: null, f: false, s: '\ud800' }),
      true,
    );
    assert.equal(isPlainJson(Object.assign(Object.create(null) as object, { a: 1 })), true);
  });

  it('refuses whatever a JSON round trip would not give back as it was', () => {
    const shared = { a: 1 };
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const named = Object.assign([1, 2], { extra: true });
    const holey = [1, 2, 3];
    delete holey[1];
    for (const [what, value] of [
      ['undefined', undefined],
      ['an undefined field', { a: undefined }],
      ['NaN', NaN],
      ['Infinity', { n: -Infinity }],
      ['-0', [-0]],
      ['a bigint', 1n],
      ['a function', { f: () => 1 }],
      ['a symbol', Symbol('s')],
      ['a hole', holey],
      ['a named array property', named],
      ['a Date', new Date(0)],
      ['a Map', new Map()],
      ['an object reached twice', [shared, shared]],
      ['a cycle', cyclic],
      ['a symbol key', { [Symbol('k')]: 1 }],
    ] as [string, unknown][]) {
      assert.equal(isPlainJson(value), false, what);
    }
  });
});
