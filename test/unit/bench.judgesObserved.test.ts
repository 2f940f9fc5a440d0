/**
 * A bench row judges what it observed, not only how long it took: each test feeds a section's own
 * judgement the figures of a case that measured nothing (nothing decorated, a refused or empty
 * answer, no renewal, calls failing fast, a sort never shown, fewer status requests because tasks
 * went missing, a "0 x 429" over nothing sent) and expects MISSED where the time alone would pass.
 */
import * as assert from 'node:assert/strict';

import { type AnswerFigures, answerRows } from '../../bench/agents.bench';
import { statusRows, type StatusRun } from '../../bench/data.bench';
import { exportHeapRows } from '../../bench/dataExport.bench';
import { decorateRow } from '../../bench/healthRows';
import { no429Row } from '../../bench/judge';
import { renewalRows, renewalsExpected } from '../../bench/renewal.bench';
import type { BenchRow } from '../../bench/types';

const passes = (rows: BenchRow[]): (boolean | undefined)[] => rows.map((r) => r.pass);
const judged = (rows: BenchRow[]): BenchRow[] => rows.filter((r) => r.pass !== undefined);

describe('bench: rows judge what they observed', () => {
  it('judge: a "0 x 429" row over nothing sent is MISSED, not a clean zero', () => {
    assert.equal(no429Row('x', 0, 120).pass, true, 'the control');
    assert.equal(no429Row('x', 1, 120).pass, false);
    assert.equal(no429Row('x', 0, 0).pass, false, 'nothing sent');
    assert.match(no429Row('x', 0, 0).value, /not measured: no request reached the server/);
    assert.equal(no429Row('x', 0, Number.NaN).pass, false, 'the count of requests is missing');
    assert.equal(no429Row('x', 0, 120, { problems: ['a refresh failed'] }).pass, false);
  });

  it('health: decorating on time with nothing (or the wrong tasks) decorated is MISSED', () => {
    const good = {
      times: Array(15).fill(4) as number[],
      runs: 15,
      nodes: 1000,
      withUri: 1000,
      decorated: 230,
      unwell: 230,
    };
    assert.equal(decorateRow(good).pass, true, 'the control');
    assert.equal(decorateRow({ ...good, decorated: 0 }).pass, false, '0 rows decorated');
    assert.equal(
      decorateRow({ ...good, decorated: 0, unwell: 0 }).pass,
      false,
      'a board with nothing to decorate measures nothing',
    );
    assert.equal(decorateRow({ ...good, decorated: 1000 }).pass, false, 'healthy tasks decorated too');
    assert.equal(decorateRow({ ...good, withUri: 0, decorated: 0 }).pass, false, 'no node carried a URI');
    assert.equal(decorateRow({ ...good, times: [4, 4] }).pass, false, 'runs not all timed');
  });

  it('agents: a refused answer, one over no record or one sent without a query is MISSED, quick as it is', () => {
    const digest = (withRecords: number, listed: number, runs: number | null): string =>
      `From … ranked by failures.\n${JSON.stringify({ totals: { runs }, tasksWithRecords: withRecords, tasks: Array.from({ length: listed }, (_, i) => ({ taskId: `t${i}` })) })}`;
    const answer = (over: Partial<AnswerFigures> = {}): AnswerFigures => ({
      wall: 300,
      requests: 3,
      ok: true,
      text: digest(120, 50, 900),
      ...over,
    });
    const five = (a: AnswerFigures): AnswerFigures[] => Array.from({ length: 5 }, () => a);
    assert.ok(
      judged(answerRows(five(answer()))).every((r) => r.pass === true),
      'the control',
    );
    const failed = (answers: AnswerFigures[]): boolean => answerRows(answers)[0]?.pass === false;
    assert.ok(failed(five(answer({ ok: false, text: 'Could not read the task analytics.' }))), 'a refusal');
    assert.ok(
      failed(five(answer({ text: 'No analytics records of all tasks: nothing ran in that range.' }))),
      'no digest',
    );
    assert.ok(failed(five(answer({ text: digest(0, 0, null) }))), 'an answer over no record');
    assert.ok(failed(five(answer({ text: digest(120, 3, 900) }))), 'fewer tasks listed than the limit allows');
    assert.ok(failed(five(answer({ requests: 0 }))), 'no query reached the server');
    assert.ok(failed([...five(answer()).slice(1), answer({ text: digest(80, 50, 600) })]), 'runs disagree');
    assert.ok(failed(five(answer()).slice(2)), 'runs missing');
  });

  it('export heap: a peak over a short export, or over pages never sampled, is MISSED, small as it is', () => {
    const good = {
      rows: 1_000_000,
      fileBytes: 80e6,
      wallMs: 10_000,
      baseBytes: 5e6,
      peakBytes: 37e6,
      retainedBytes: 1e6,
      pages: 1000,
      samples: 9000,
      majorGcs: 2,
    };
    assert.deepEqual(passes(exportHeapRows(good)), [true, undefined, undefined], 'the control');
    assert.equal(exportHeapRows({ ...good, peakBytes: 51e6 })[0]?.pass, false, 'over 50 MB');
    for (const [bad, why] of [
      [{ ...good, rows: 120_000, peakBytes: 4e6 }, 'an export that stopped early'],
      [{ ...good, pages: 0, samples: 0, peakBytes: 0 }, 'no page sampled'],
      [{ ...good, pages: 999 }, 'a page not sampled'],
    ] as const) {
      const rows = exportHeapRows(bad);
      assert.deepEqual(passes(rows), [false], why);
      assert.match(rows[0]?.value ?? '', /^not measured:/, why);
    }
  });

  it('renewal: a burst without its renewals, or whose calls failed fast, is not on time', () => {
    const wanted = renewalsExpected(200);
    assert.ok(wanted >= 2, 'a 200-call burst at 20 req/s outlives two 4 s tokens');
    const good = {
      elapsed: 10_800,
      calls: 200,
      failed: 0,
      renewals: wanted,
      callArrivals: 200,
      worst: 20,
      overLimit: 0,
      expiredTokenCalls: 0,
    };
    assert.ok(
      judged(renewalRows(good)).every((r) => r.pass === true),
      'the control',
    );
    assert.deepEqual(passes(renewalRows({ ...good, renewals: 0 })).slice(0, 2), [false, false], '0 renewals');
    const fast = renewalRows({ ...good, elapsed: 40, failed: 200, callArrivals: 0, worst: 0 });
    assert.ok(
      fast.every((r) => r.pass === false),
      'every call failed before reaching the server',
    );
    assert.equal(
      renewalRows({ ...good, elapsed: 2000, failed: 150, callArrivals: 50 })[0]?.pass,
      false,
      'calls failing fast make a short time',
    );
  });

  it('data: statuses met only at ceil(tasks / 100) requests with every task answered or known as never run', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `t${i}`);
    const neverRan = ids.slice(859);
    const run = (over: Partial<StatusRun> = {}): StatusRun => ({
      wall: 500,
      requests: 10,
      answered: ids.slice(0, 859),
      leftOutNeverRan: true,
      ...over,
    });
    const three = (r: StatusRun): StatusRun[] => [r, r, r];
    assert.equal(
      statusRows({ ids, neverRan, runs: three(run()) })[0]?.pass,
      true,
      'the control: 859 answered, 141 never ran',
    );
    assert.equal(
      statusRows({ ids, neverRan: [], runs: three(run()) })[0]?.pass,
      false,
      'left-out tasks not known as never run',
    );
    assert.equal(
      statusRows({ ids, neverRan, runs: three(run({ answered: ids.slice(0, 500) })) })[0]?.pass,
      false,
      'tasks missing',
    );
    assert.equal(
      statusRows({ ids, neverRan, runs: three(run({ requests: 5, answered: ids.slice(0, 500) })) })[0]?.pass,
      false,
      'fewer requests, fewer tasks',
    );
    assert.equal(
      statusRows({ ids, neverRan, runs: three(run({ requests: 0, answered: [] })) })[0]?.pass,
      false,
      'nothing sent',
    );
    assert.equal(
      statusRows({ ids, neverRan, runs: three(run({ requests: 11 })) })[0]?.pass,
      false,
      'more than the batches',
    );
    assert.equal(
      statusRows({ ids, neverRan, runs: three(run({ leftOutNeverRan: false })) })[0]?.pass,
      false,
      'a v1 answer leaves nothing out',
    );
    assert.equal(
      statusRows({ ids, neverRan, runs: three(run({ answered: [...ids.slice(0, 859), 'stranger'] })) })[0]?.pass,
      false,
      'a task not asked',
    );
    assert.equal(statusRows({ ids, neverRan, runs: [run()] })[0]?.pass, false, 'runs missing');
  });
});
