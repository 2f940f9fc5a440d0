/**
 * The whole query behind the analytics panel (src/analytics/host/wholeQuery.ts, fetchRows.ts, through
 * the message router): the rest of a result fetched from where it stands, up to the setting or to
 * every row, in page order, cancellable with nothing arriving late, and exports that say when they
 * hold only the first rows.
 */
import * as assert from 'node:assert/strict';

import { MessageRouter } from '../../src/analytics/host/messages';
import type { HeldResult } from '../../src/analytics/host/results';
import type { AnalyticsClient, MessageRouterDeps } from '../../src/analytics/host/routerDeps';
import { type HostMessage, hostMessageSchema } from '../../src/analytics/protocol';
import { ApiError } from '../../src/api/errors/errors';
import type { AnalyticsQuery, AnalyticsRecord } from '../../src/api/schemas/schemas';
import { blankRecord, UNKNOWN_EXECUTION } from '../shared/analyticsRecords';
import { type StreamCount, streamJoiner } from '../shared/streamedReplies';

const query: AnalyticsQuery = { start: '2026-11-16', end: '2026-11-22', timeGranularity: 'Day' };
const asked: AnalyticsQuery = { ...query, page: 1, pageSize: 100 };

function rows(n: number): AnalyticsRecord[] {
  return Array.from({ length: n }, (_, i) =>
    blankRecord({
      taskId: `t${i}`,
      dataVolumeMetrics: { totalCollected: i, deduplicatedVolume: null },
      executionMetrics: { ...UNKNOWN_EXECUTION, runCount: 1, successCount: 1, failureCount: 0 },
    }),
  );
}

/** A paging service over `data`: pages answer out of order (later pages sooner), each after a tick. */
class FakeService implements AnalyticsClient {
  readonly pagesAsked: number[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** Pages that never answer until their signal fires (or drain() answers them at last). */
  readonly hang = new Set<number>();
  /** Every page's answer (or refusal), so a test can wait until each page asked has settled. */
  private readonly answers: Promise<unknown>[] = [];
  private readonly held: (() => void)[] = [];
  constructor(
    private readonly data: AnalyticsRecord[],
    private readonly fail?: { page: number; error: ApiError },
  ) {}

  async queryTaskAnalytics(
    q: AnalyticsQuery,
    o?: { signal?: AbortSignal },
  ): ReturnType<AnalyticsClient['queryTaskAnalytics']> {
    const page = q.page ?? 1;
    const size = q.pageSize ?? 20;
    this.pagesAsked.push(page);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      const answer = new Promise<void>((resolve, reject) => {
        const cancel = (): void => reject(new ApiError({ kind: 'cancelled', message: 'cancelled' }));
        if (o?.signal?.aborted) return cancel();
        o?.signal?.addEventListener('abort', cancel, { once: true });
        if (!this.hang.has(page)) setTimeout(resolve, Math.max(1, 12 - page));
        else this.held.push(resolve);
      });
      this.answers.push(answer.catch(() => undefined));
      await answer;
      if (this.fail?.page === page) throw this.fail.error;
      return {
        data: { total: this.data.length, data: this.data.slice((page - 1) * size, page * size) },
        requestId: `req-${page}`,
      };
    } finally {
      this.inFlight--;
    }
  }

  /**
   * Answers every page still out, a hung one too (as a slow service would, at last), and resolves
   * once each page asked has answered or been cancelled and what its answer set off has run: the
   * event that proves nothing more can arrive, where a pause of some milliseconds proves nothing on
   * a loaded machine.
   */
  async drain(): Promise<void> {
    for (const release of this.held.splice(0)) release();
    await Promise.all(this.answers);
    await new Promise((r) => setImmediate(r));
  }
}

function harness(
  service: FakeService,
  autoFetchRows = 10_000,
): { router: MessageRouter; posted: HostMessage[]; exported: Readonly<HeldResult>[]; count: StreamCount } {
  const posted: HostMessage[] = [];
  const count: StreamCount = { batches: 0, streamedRows: 0, tailRows: 0 };
  const join = streamJoiner(count);
  const exported: Readonly<HeldResult>[] = [];
  const deps: MessageRouterDeps = {
    getClient: () => service,
    listTasks: async () => [],
    ui: { showQuickPick: async () => undefined },
    exportRecords: async (_format, result) => {
      exported.push(result);
      return '/tmp/x.csv';
    },
    writeClipboard: async () => undefined,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    post: (m) => {
      assert.ok(hostMessageSchema.safeParse(m).success, `host message parses: ${JSON.stringify(m).slice(0, 200)}`);
      posted.push(join(m));
    },
    today: () => '2026-11-22',
    initial: () => ({ preset: undefined, state: undefined }),
    onState: () => undefined,
    isSignedIn: () => true,
    autoFetchRows: () => autoFetchRows,
  };
  return { router: new MessageRouter(deps), posted, exported, count };
}

const of = <T extends HostMessage['type']>(posted: HostMessage[], type: T): Extract<HostMessage, { type: T }>[] =>
  posted.filter((m): m is Extract<HostMessage, { type: T }> => m.type === type);

describe('analytics panel: the whole query', () => {
  const data = rows(1020);

  it('goes on from the first page the query showed: the 10 pages left, in page order, never page 1 again', async () => {
    const service = new FakeService(data);
    const h = harness(service);
    await h.router.handle({ type: 'query', id: 'q', query: asked });
    const [page] = of(h.posted, 'queryResult');
    assert.ok(page);
    await h.router.handle({ type: 'fetchAll', id: 'f', query: asked, resultId: page.resultId, scope: 'auto' });
    const [result] = of(h.posted, 'fetchAllResult');
    assert.ok(result);
    assert.equal(result.resultId, page.resultId, 'the same result, grown');
    assert.deepEqual(
      result.records.map((r) => r.taskId),
      data.map((r) => r.taskId),
      'every row, in the service order',
    );
    assert.deepEqual(
      service.pagesAsked.slice().sort((a, b) => a - b),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
    );
    assert.equal(result.requestIds.length, 11);
    const progress = of(h.posted, 'fetchAllProgress');
    const counts = progress.map((p) => p.fetched);
    assert.equal(counts.length, 11, 'one report to start, then one per page');
    assert.ok(
      counts.every((n, i) => i === 0 || n > (counts[i - 1] ?? 0)),
      `growing: ${counts.join(', ')}`,
    );
    assert.deepEqual([counts[0], counts[counts.length - 1]], [100, 1020]);
    assert.ok(progress.every((p) => p.total === 1020 && p.target === undefined));
    assert.ok(
      service.maxInFlight > 1 && service.maxInFlight <= 6,
      `a few pages at once (${service.maxInFlight}), the limiter paces them`,
    );
  });

  it('Run query goes on to the rest under the same id, with no round trip through the page', async () => {
    const service = new FakeService(data);
    const h = harness(service);
    await h.router.handle({ type: 'query', id: 'run', query: asked, rest: 'auto' });
    assert.deepEqual(
      h.posted.map((m) => m.type),
      ['queryResult', ...Array<string>(11).fill('fetchAllProgress'), 'fetchAllResult'],
    );
    assert.ok(h.posted.every((m) => 'id' in m && m.id === 'run'));
    const [page] = of(h.posted, 'queryResult');
    const [whole] = of(h.posted, 'fetchAllResult');
    assert.equal(page?.page.data.length, 100);
    assert.equal(whole?.resultId, page?.resultId);
    assert.equal(whole?.records.length, 1020);
    assert.equal(service.pagesAsked.length, 11, 'each page once');
    assert.equal(h.router.pending, 0);
    // The rows came with the progress (page 1's again first, then the pages in order as the ones
    // before them arrived: the fake answers later pages sooner), none left for the end.
    assert.deepEqual([h.count.streamedRows, h.count.tailRows], [1020, 0]);
    assert.ok(h.count.batches > 1, `in batches (${h.count.batches})`);

    // A result that fits in one page is answered once, as before.
    const small = harness(new FakeService(rows(40)));
    await small.router.handle({ type: 'query', id: 'run', query: asked, rest: 'auto' });
    assert.deepEqual(
      small.posted.map((m) => m.type),
      ['queryResult'],
    );
  });

  it('cancelling a Run query while its rest is fetched stops it: no result, nothing late', async () => {
    const service = new FakeService(data);
    service.hang.add(5);
    const h = harness(service);
    const running = h.router.handle({ type: 'query', id: 'run', query: asked, rest: 'auto' });
    while (of(h.posted, 'fetchAllProgress').length < 3) await new Promise((r) => setTimeout(r, 2));
    await h.router.handle({ type: 'cancel', id: 'run' });
    const seen = h.posted.length;
    // The pages still out answer (the hung one too, late) before and after the request settles.
    await service.drain();
    await running;
    await service.drain();
    assert.deepEqual(
      h.posted.slice(seen).map((m) => m.type),
      ['error'],
    );
    assert.equal(of(h.posted, 'fetchAllResult').length, 0);
  });

  it('stops at scrapedeck.analytics.autoFetchRows by itself, and Fetch all pages goes on to every row', async () => {
    const service = new FakeService(data);
    const h = harness(service, 300);
    await h.router.handle({ type: 'query', id: 'q', query: asked });
    const resultId = of(h.posted, 'queryResult')[0]?.resultId;
    await h.router.handle({ type: 'fetchAll', id: 'auto', query: asked, resultId, scope: 'auto' });
    const capped = of(h.posted, 'fetchAllResult')[0];
    assert.equal(capped?.records.length, 300);
    assert.equal(capped?.total, 1020);
    assert.ok(
      of(h.posted, 'fetchAllProgress').every((p) => p.target === 300),
      'progress says where it stops',
    );
    await h.router.handle({ type: 'export', id: 'e1', format: 'csv', resultId: resultId ?? '' });
    assert.deepEqual(
      [h.exported[0]?.records.length, h.exported[0]?.total],
      [300, 1020],
      'an export knows it is partial',
    );

    await h.router.handle({ type: 'fetchAll', id: 'all', query: asked, resultId, scope: 'all' });
    const all = of(h.posted, 'fetchAllResult')[1];
    assert.equal(all?.records.length, 1020);
    assert.deepEqual(
      all?.records.map((r) => r.taskId),
      data.map((r) => r.taskId),
    );
    assert.deepEqual(service.pagesAsked.filter((p) => p === 1).length, 1, 'page 1 was asked once');
    assert.equal(service.pagesAsked.length, 11, 'no page twice');
  });

  it('starts from page 1 when the result id is unknown, stale or of another query', async () => {
    const service = new FakeService(data);
    const h = harness(service);
    await h.router.handle({ type: 'fetchAll', id: 'f1', query: asked, resultId: 'result-77', scope: 'auto' });
    await h.router.handle({ type: 'query', id: 'q', query: asked });
    const resultId = of(h.posted, 'queryResult')[0]?.resultId;
    await h.router.handle({
      type: 'fetchAll',
      id: 'f2',
      query: { ...asked, timeGranularity: 'Week' },
      resultId,
      scope: 'auto',
    });
    const results = of(h.posted, 'fetchAllResult');
    assert.equal(results.length, 2);
    assert.ok(results.every((r) => r.records.length === 1020));
    assert.notEqual(results[1]?.resultId, resultId, 'another query is another result');
    assert.equal(results[1]?.query.timeGranularity, 'Week');
  });

  it('cancel: no result, no progress after it, and the kept result is as it was (nothing arrives late)', async () => {
    const service = new FakeService(data);
    service.hang.add(6);
    const h = harness(service);
    await h.router.handle({ type: 'query', id: 'q', query: asked });
    const resultId = of(h.posted, 'queryResult')[0]?.resultId ?? '';
    const fetching = h.router.handle({ type: 'fetchAll', id: 'f', query: asked, resultId, scope: 'auto' });
    while (of(h.posted, 'fetchAllProgress').length < 4) await new Promise((r) => setTimeout(r, 2));
    await h.router.handle({ type: 'cancel', id: 'f' });
    const seen = h.posted.length;
    // The pages still out answer (the hung one too, late) before and after the request settles.
    await service.drain();
    await fetching;
    await service.drain();
    assert.deepEqual(
      h.posted.slice(seen).map((m) => m.type),
      ['error'],
    );
    assert.equal(of(h.posted, 'fetchAllResult').length, 0);
    await h.router.handle({ type: 'export', id: 'e', format: 'csv', resultId });
    assert.equal(h.exported[0]?.records.length, 100, 'the kept result still holds only its first page');
  });

  it('an account change stops queries and fetches (saying why), not a pick or an export', async () => {
    const service = new FakeService(data);
    service.hang.add(3);
    const h = harness(service);
    await h.router.handle({ type: 'query', id: 'q', query: asked });
    const resultId = of(h.posted, 'queryResult')[0]?.resultId;
    const fetching = h.router.handle({ type: 'fetchAll', id: 'f', query: asked, resultId, scope: 'auto' });
    while (service.pagesAsked.length < 3) await new Promise((r) => setTimeout(r, 2));
    h.router.stopQueries('The account changed. Run the query again.');
    await fetching;
    const [error] = of(h.posted, 'error');
    assert.deepEqual(error, {
      type: 'error',
      id: 'f',
      error: { kind: 'cancelled', message: 'The account changed. Run the query again.' },
    });
    assert.equal(of(h.posted, 'fetchAllResult').length, 0);
  });

  it('the first failure stops the other pages and is the one reported', async () => {
    const service = new FakeService(data, {
      page: 3,
      error: new ApiError({ kind: 'server', status: 503, message: 'Service unavailable', requestId: 'r-503' }),
    });
    for (let p = 5; p <= 11; p++) service.hang.add(p); // still out when page 3 fails
    const h = harness(service);
    await h.router.handle({ type: 'fetchAll', id: 'f', query: asked });
    const [error] = of(h.posted, 'error');
    assert.equal(error?.error.kind, 'server');
    assert.equal(error?.error.requestId, 'r-503');
    assert.ok(service.pagesAsked.length < 11, `the rest were not all asked (${service.pagesAsked.join(', ')})`);
    assert.equal(service.inFlight, 0, 'the pages still out were cancelled');
    assert.equal(of(h.posted, 'fetchAllResult').length, 0);
  });

  it('refuses Fetch all pages past 100,000 rows after the first page, but fetches up to the setting by itself', async () => {
    const huge: AnalyticsClient = {
      queryTaskAnalytics: async (q) => ({
        data: { total: 250_000, data: rows(100).map((r, i) => ({ ...r, taskId: `${q.page}-${i}` })) },
        requestId: undefined,
      }),
    };
    const h = harness(huge as FakeService, 200);
    await h.router.handle({ type: 'fetchAll', id: 'all', query: asked, scope: 'all' });
    const [error] = of(h.posted, 'error');
    assert.equal(error?.error.kind, 'invalid-request');
    assert.match(error?.error.message ?? '', /250,000 rows; fetching all of them is limited to 100,000/);
    await h.router.handle({ type: 'fetchAll', id: 'auto', query: asked, scope: 'auto' });
    assert.equal(of(h.posted, 'fetchAllResult')[0]?.records.length, 200);
  });
});
