/**
 * The page's side of a fetch whose rows come with its progress (src/analytics/page/requests.ts):
 * the batches are joined, in order, in front of the answer's own rows; a batch that does not follow
 * on, or an answer that counts other rows than came, fails with a clear error instead of showing a
 * result with a hole in it.
 */
import * as assert from 'node:assert/strict';

import { pageText } from '../../src/analytics/model/pageStrings';
import { type Outcome, type Progress, Requests } from '../../src/analytics/page/requests';
import type { HostMessage, PageMessage } from '../../src/analytics/protocol';
import type { AnalyticsQuery, AnalyticsRecord } from '../../src/api/schemas/schemas';

const query: AnalyticsQuery = {
  start: '2026-11-16',
  end: '2026-11-22',
  timeGranularity: 'Day',
  page: 1,
  pageSize: 100,
};
const rec = (taskId: string): AnalyticsRecord => ({ taskId }) as unknown as AnalyticsRecord;
const ids = (records: AnalyticsRecord[]): string[] => records.map((r) => r.taskId);

type Result = Extract<HostMessage, { type: 'fetchAllResult' }>;

function fetchAll(): { requests: Requests; id: string; done: Promise<Outcome<Result>>; progress: Progress[] } {
  const sent: PageMessage[] = [];
  const requests = new Requests((m) => sent.push(m));
  const progress: Progress[] = [];
  const { id, done } = requests.send({ type: 'fetchAll', query, scope: 'all' }, (p) => progress.push(p));
  return { requests, id, done, progress };
}

const progressOf = (id: string, at: number, records: AnalyticsRecord[], fetched: number): HostMessage => ({
  type: 'fetchAllProgress',
  id,
  fetched,
  total: 5,
  at,
  records,
});
const resultOf = (id: string, records: AnalyticsRecord[], streamed?: number): Result => ({
  type: 'fetchAllResult',
  id,
  resultId: 'result-1',
  query,
  total: 5,
  records,
  requestIds: [],
  ...(streamed === undefined ? {} : { streamed }),
});

describe("page requests: rows that come with a fetch's progress", () => {
  it("joins the batches, in order, in front of the answer's own rows; the progress is passed on without them", async () => {
    const f = fetchAll();
    f.requests.settle(progressOf(f.id, 0, [rec('a'), rec('b')], 2) as Extract<HostMessage, { id: string }>);
    f.requests.settle(progressOf(f.id, 2, [rec('c')], 3) as Extract<HostMessage, { id: string }>);
    f.requests.settle(resultOf(f.id, [rec('d'), rec('e')], 3));
    const outcome = await f.done;
    assert.ok(outcome.ok);
    assert.deepEqual(ids(outcome.reply.records), ['a', 'b', 'c', 'd', 'e']);
    assert.equal('streamed' in outcome.reply, false);
    assert.deepEqual(
      f.progress.map((p) => [p.fetched, 'records' in p, 'at' in p]),
      [
        [2, false, false],
        [3, false, false],
      ],
    );
  });

  it('an answer that says nothing was streamed is taken as it is', async () => {
    const f = fetchAll();
    f.requests.settle(resultOf(f.id, [rec('a')]));
    const outcome = await f.done;
    assert.ok(outcome.ok);
    assert.deepEqual(ids(outcome.reply.records), ['a']);
  });

  it('a batch that does not follow on fails the answer with a clear error, not a result with a hole', async () => {
    const f = fetchAll();
    f.requests.settle(progressOf(f.id, 0, [rec('a')], 1) as Extract<HostMessage, { id: string }>);
    f.requests.settle(progressOf(f.id, 2, [rec('c')], 3) as Extract<HostMessage, { id: string }>); // 'b' was lost
    f.requests.settle(resultOf(f.id, [], 3));
    const outcome = await f.done;
    assert.ok(!outcome.ok);
    assert.deepEqual(
      [outcome.error.kind, outcome.error.message, outcome.byPage],
      ['internal', pageText('error.rowsLost'), false],
    );
    assert.match(outcome.error.message, /Fetch all pages/);
  });

  it('an answer that counts other rows than came fails the same way', async () => {
    const f = fetchAll();
    f.requests.settle(progressOf(f.id, 0, [rec('a')], 1) as Extract<HostMessage, { id: string }>);
    f.requests.settle(resultOf(f.id, [rec('b')], 2));
    const outcome = await f.done;
    assert.ok(!outcome.ok);
    assert.equal(outcome.error.kind, 'internal');
  });

  it('rows for a request nobody waits for any more are dropped, and a new request starts clean', async () => {
    const f = fetchAll();
    f.requests.settle(progressOf(f.id, 0, [rec('a')], 1) as Extract<HostMessage, { id: string }>);
    f.requests.cancel(f.id);
    assert.equal(f.requests.settle(progressOf(f.id, 1, [rec('b')], 2) as Extract<HostMessage, { id: string }>), false);
    const { id, done } = f.requests.send({ type: 'fetchAll', query, scope: 'all' });
    f.requests.settle(progressOf(id, 0, [rec('x')], 1) as Extract<HostMessage, { id: string }>);
    f.requests.settle(resultOf(id, [], 1));
    const outcome = await done;
    assert.ok(outcome.ok);
    assert.deepEqual(ids(outcome.reply.records), ['x']);
  });
});
