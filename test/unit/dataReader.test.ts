/**
 * The streaming data reader: it follows the offset each reply returns (never one it computed),
 * stops at restTotal 0, resumes a failed page from the same offset instead of starting over,
 * gives up on errors that would fail again, stops on cancel or an early break (the page fetched
 * ahead is aborted), and refuses a reply that does not move on. Then over HTTP: a 429 storm and
 * a 5xx storm in the middle of an export, through the real client.
 */
import * as assert from 'node:assert/strict';

import { MemoryCredentialsStore } from '../../src/api/auth/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors/errors';
import { UnlimitedLimiter } from '../../src/api/http/limiter';
import { type DataBatch, DataReader, type DataReadProgress, type FetchDataPage } from '../../src/api/ops/dataReader';
import type { DataPage } from '../../src/api/schemas/dataSchemas';
import { type Answer, okReply, RecordingServer } from './helpers/recordingServer';

/** A task of `total` rows whose offsets are row numbers starting at `base` (as after a remove). */
function pages(total: number, base = 0) {
  const asked: number[] = [];
  let failAt: { offset: number; times: number; error: () => unknown } | undefined;
  const fetch: FetchDataPage = (offset, size, signal) => {
    asked.push(offset);
    if (signal.aborted) return Promise.reject(new ApiError({ kind: 'cancelled', message: 'aborted' }));
    if (failAt && failAt.offset === offset && failAt.times > 0) {
      failAt.times--;
      return Promise.reject(failAt.error());
    }
    const from = Math.max(offset, base);
    const to = Math.min(from + size, base + total);
    const data: DataPage = {
      offset: to,
      total,
      restTotal: base + total - to,
      data: Array.from({ length: to - from }, (_, i) => ({ n: String(from + i) })),
    };
    return Promise.resolve({ data, requestId: `r${offset}` });
  };
  return {
    fetch,
    asked,
    failAt: (offset: number, times: number, error: () => unknown) => (failAt = { offset, times, error }),
  };
}

async function collect(reader: AsyncIterable<DataBatch>): Promise<string[]> {
  const rows: string[] = [];
  for await (const page of reader) rows.push(...page.rows.map((r) => String(r.n)));
  return rows;
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => String(from + i));
const serverError = () => new ApiError({ kind: 'server', status: 503, message: 'busy', retryable: true });

describe('data reader', () => {
  it('pages by the returned offset until restTotal is 0, with progress', async () => {
    const p = pages(2_500, 10_000);
    const progress: DataReadProgress[] = [];
    const reader = new DataReader(p.fetch, { onProgress: (x) => progress.push(x) });
    assert.deepEqual(await collect(reader), range(10_000, 12_500));
    assert.deepEqual(p.asked, [0, 11_000, 12_000], 'the returned offsets, not 1000 and 2000');
    assert.deepEqual(
      progress.map((x) => [x.rows, x.restTotal, x.pages]),
      [
        [1000, 1500, 1],
        [2000, 500, 2],
        [2500, 0, 3],
      ],
    );
    assert.equal(reader.done, true);
    assert.equal(reader.nextOffset, 12_500);
  });

  it('an empty task: one request, no rows', async () => {
    const p = pages(0);
    assert.deepEqual(await collect(new DataReader(p.fetch)), []);
    assert.deepEqual(p.asked, [0]);
  });

  it('a failed page is asked again from the same offset: no row twice, none missing, nothing re-read', async () => {
    const p = pages(3_000);
    p.failAt(1000, 2, serverError);
    const progress: DataReadProgress[] = [];
    const rows = await collect(new DataReader(p.fetch, { resumeDelayMs: 0, onProgress: (x) => progress.push(x) }));
    assert.deepEqual(rows, range(0, 3_000));
    // 2000 was asked (once) while 1000 failed: the page after it, on its way.
    assert.deepEqual(p.asked, [0, 1000, 2000, 1000, 1000]);
    assert.equal(progress.at(-1)?.resumes, 2);
  });

  it('gives up after maxResumes in a row, and a new reader from nextOffset finishes the job', async () => {
    const p = pages(3_000);
    p.failAt(2000, 10, serverError);
    const reader = new DataReader(p.fetch, { resumeDelayMs: 0, maxResumes: 2 });
    const got: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const page of reader) got.push(...page.rows.map((r) => String(r.n)));
      })(),
      (e: unknown) => e instanceof ApiError && e.kind === 'server',
    );
    assert.deepEqual(got, range(0, 2000));
    assert.equal(reader.nextOffset, 2000);
    p.failAt(2000, 0, serverError);
    assert.deepEqual(await collect(new DataReader(p.fetch, { startOffset: reader.nextOffset })), range(2000, 3000));
  });

  for (const kind of ['auth', 'forbidden', 'not-found', 'invalid-request', 'bad-response'] as const) {
    it(`a ${kind} error is not resumed (it would fail again)`, async () => {
      const p = pages(3_000);
      p.failAt(1000, 1, () => new ApiError({ kind, message: kind }));
      await assert.rejects(
        collect(new DataReader(p.fetch, { resumeDelayMs: 0 })),
        (e: unknown) => e instanceof ApiError && e.kind === kind,
      );
      assert.deepEqual(p.asked, [0, 1000, 2000], 'the page after it was on its way, and nothing asked again');
    });
  }

  it('cancel: the signal stops the reading with a cancelled error', async () => {
    const p = pages(10_000);
    const stop = new AbortController();
    let seen = 0;
    await assert.rejects(
      (async () => {
        for await (const page of new DataReader(p.fetch, { signal: stop.signal })) {
          seen += page.rows.length;
          if (seen >= 3000) stop.abort();
        }
      })(),
      (e: unknown) => e instanceof ApiError && e.kind === 'cancelled',
    );
    assert.equal(seen, 3000);
    assert.ok(p.asked.length <= 5, 'at most the two pages fetched ahead');
  });

  it('a cancel during the pause before resuming ends it at once', async () => {
    const p = pages(3_000);
    p.failAt(0, 1, serverError);
    const stop = new AbortController();
    const reading = collect(new DataReader(p.fetch, { signal: stop.signal, resumeDelayMs: 60_000 }));
    setImmediate(() => stop.abort());
    await assert.rejects(reading, (e: unknown) => e instanceof ApiError && e.kind === 'cancelled');
  });

  it('breaking out early aborts the pages fetched ahead', async () => {
    let aborted = 0;
    const fetch: FetchDataPage = (offset, size, signal) =>
      new Promise((resolve, reject) => {
        if (offset === 0) {
          resolve({ data: { offset: size, total: 5000, restTotal: 4000, data: [{ n: '0' }] }, requestId: 'r' });
          return;
        }
        signal.addEventListener('abort', () => {
          aborted++;
          reject(new ApiError({ kind: 'cancelled', message: 'aborted' }));
        });
      });
    for await (const page of new DataReader(fetch)) {
      assert.equal(page.rows.length, 1);
      break;
    }
    assert.equal(aborted, 2);
  });

  it('while offsets move by whole pages, the page after the next is on its way too, never past the end', async () => {
    const p = pages(4_500);
    const reader = new DataReader(p.fetch);
    const seen: number[][] = [];
    const rows: string[] = [];
    for await (const page of reader) {
      seen.push([...p.asked]);
      rows.push(...page.rows.map((r) => String(r.n)));
    }
    assert.deepEqual(rows, range(0, 4_500));
    assert.deepEqual(seen, [
      [0, 1000, 2000],
      [0, 1000, 2000, 3000],
      [0, 1000, 2000, 3000, 4000],
      [0, 1000, 2000, 3000, 4000],
      [0, 1000, 2000, 3000, 4000],
    ]);
  });

  it('offsets that do not move by whole pages: the guess is dropped, no more are made, every row once in order', async () => {
    const asked: number[] = [];
    let dropped = 0;
    const STEP = 700; // a service that hands out fewer rows than asked
    const fetch: FetchDataPage = (offset, _size, signal) => {
      asked.push(offset);
      const to = Math.min(offset + STEP, 3_000);
      const data: DataPage = {
        offset: to,
        total: 3_000,
        restTotal: 3_000 - to,
        data: Array.from({ length: to - offset }, (_, i) => ({ n: String(offset + i) })),
      };
      return new Promise((resolve, reject) => {
        signal.addEventListener('abort', () => {
          dropped++;
          reject(new ApiError({ kind: 'cancelled', message: 'aborted' }));
        });
        setImmediate(() => resolve({ data, requestId: `r${offset}` }));
      });
    };
    assert.deepEqual(await collect(new DataReader(fetch)), range(0, 3_000));
    assert.deepEqual(asked, [0, 700, 1700, 1400, 2100, 2800], 'one guess (1700), dropped; then page by page');
    assert.equal(dropped, 1);
  });

  it('a reply that does not move on is refused instead of looping', async () => {
    const fetch: FetchDataPage = () =>
      Promise.resolve({ data: { offset: 0, total: 10, restTotal: 10, data: [] }, requestId: 'stuck' });
    await assert.rejects(
      collect(new DataReader(fetch)),
      (e: unknown) => e instanceof ApiError && e.kind === 'bad-response' && e.requestId === 'stuck',
    );
  });

  it('refuses a page size or start offset the service would refuse', () => {
    const p = pages(1);
    assert.throws(
      () => new DataReader(p.fetch, { pageSize: 1001 }),
      (e: unknown) => e instanceof ApiError && e.field === 'size',
    );
    assert.throws(
      () => new DataReader(p.fetch, { startOffset: -1 }),
      (e: unknown) => e instanceof ApiError && e.field === 'offset',
    );
  });

  describe('through the client, over HTTP', () => {
    const server = new RecordingServer();
    const TOTAL = 5_000;
    before(() => server.start());
    after(() => server.close());

    const answer = (offset: number, size: number): Answer => {
      const to = Math.min(offset + size, TOTAL);
      return okReply(
        {
          offset: to,
          total: TOTAL,
          restTotal: TOTAL - to,
          data: Array.from({ length: to - offset }, (_, i) => ({ Row: String(offset + i) })),
        },
        `r${offset}`,
      );
    };
    const client = () =>
      new ScrapedeckClient({
        baseUrl: server.baseUrl,
        credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: 'sdk_reader_test_key' }),
        limiter: new UnlimitedLimiter(),
        backoffBaseMs: 1,
        env: {},
      });

    for (const [what, storm] of [
      [
        'a 429 storm',
        (): Answer => ({
          status: 429,
          body: { error: { code: 42900, message: 'slow down' }, requestId: 'r429' },
          headers: { 'retry-after': '0' },
        }),
      ],
      [
        'a 5xx storm',
        (): Answer => ({
          status: 503,
          body: { error: { code: 'ServerError', message: 'busy' }, requestId: 'r503' },
          headers: { 'retry-after': '0' },
        }),
      ],
      ['dropped connections', (): Answer => 'drop'],
    ] as const) {
      it(`${what} in the middle: resumed from the last offset, every row once`, async () => {
        let storm429 = 6; // more than the transport's 3 retries: the reader itself must resume
        server.reset((s) => {
          const offset = Number(s.query.get('offset'));
          if (offset === 2000 && storm429-- > 0) return storm();
          return answer(offset, Number(s.query.get('size')));
        });
        const c = client();
        try {
          const rows: string[] = [];
          let resumes = 0;
          for await (const page of c.readData('t1', { resumeDelayMs: 1, onProgress: (p) => (resumes = p.resumes) }))
            rows.push(...page.rows.map((r) => String(r.Row)));
          assert.deepEqual(rows, range(0, TOTAL));
          assert.equal(resumes, 1);
          const offsets = server.seen.map((s) => Number(s.query.get('offset')));
          assert.deepEqual(
            offsets.filter((o) => o !== 2000),
            [0, 1000, 3000, 4000],
            'nothing before the storm asked again',
          );
          assert.equal(offsets.filter((o) => o === 2000).length, 7);
        } finally {
          await c.close();
        }
      });
    }
  });
});
