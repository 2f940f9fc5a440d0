/**
 * A language-model tool's confirmation allows one call with the input it was shown for
 * (`confirmedCalls.ts`), tested alone: the target re-check in vscodeTools.ts would hide a `take()`
 * that ignored its input.
 */
import * as assert from 'node:assert/strict';

import { type Confirmed, ConfirmedCalls } from '../../src/agents/confirmedCalls';

const shown = (title: string): Confirmed => ({ identity: 'ada@sandbox', target: `task:${title}`, title });

describe('agents: a confirmation is taken only with the input it was shown for', () => {
  it('a changed input finds no confirmation; the confirmed one still does, once', () => {
    const calls = new ConfirmedCalls();
    calls.remember({ taskId: 't-1', name: 'Prices' }, shown('Start Prices'));
    assert.equal(calls.take({ taskId: 't-2', name: 'Prices' }), undefined, 'another task id');
    assert.equal(calls.take({ taskId: 't-1' }), undefined, 'a field left out');
    assert.equal(calls.take({ taskId: 't-1', name: 'Prices', force: true }), undefined, 'a field added');
    assert.equal(calls.take(undefined), undefined, 'no input');
    assert.deepEqual(
      calls.take({ name: 'Prices', taskId: 't-1' }),
      shown('Start Prices'),
      'the same input, keys in another order',
    );
    assert.equal(calls.take({ taskId: 't-1', name: 'Prices' }), undefined, 'one confirmation, one call');
  });

  it('two confirmations: each input takes its own, the latest first for the same input', () => {
    const calls = new ConfirmedCalls();
    calls.remember({ taskId: 'a' }, shown('A, first'));
    calls.remember({ taskId: 'b' }, shown('B'));
    calls.remember({ taskId: 'a' }, shown('A, second'));
    assert.equal(calls.take({ taskId: 'b' })?.title, 'B');
    assert.equal(calls.take({ taskId: 'a' })?.title, 'A, second');
    assert.equal(calls.take({ taskId: 'a' })?.title, 'A, first');
    assert.equal(calls.take({ taskId: 'a' }), undefined);
  });

  it('only the 16 latest are kept: the oldest unanswered one is dropped', () => {
    const calls = new ConfirmedCalls();
    for (let i = 0; i < 17; i++) calls.remember({ i }, shown(String(i)));
    assert.equal(calls.take({ i: 0 }), undefined);
    assert.equal(calls.take({ i: 1 })?.title, '1');
  });
});
