/** Steps the page tests share: open and initialise the page, run a query and answer it. */
import * as assert from 'node:assert/strict';

import { encodeForPage } from '../../src/analytics/protocol/hostMessage';
import { analyticsQuerySchema, type AnalyticsRecord } from '../../src/api/schemas/schemas';
import { AnalyticsPage, type Posted, type StandIn } from './harness';

export const TODAY = '2026-11-22';

export async function openInitialised(
  standIn: StandIn,
  init: Record<string, unknown> = {},
  options: Parameters<typeof AnalyticsPage.open>[1] = {},
): Promise<AnalyticsPage> {
  const p = await AnalyticsPage.open(standIn, options);
  await p.send({ type: 'init', today: TODAY, ...init });
  await p.page.locator('form.query-form').waitFor({ state: 'visible' });
  return p;
}

/**
 * Clicks Run, checks a query was posted, answers it with `records` (the first page: the page
 * asks for 100 rows at a time) and waits for the results. When `total` is more than `records`,
 * the page then waits for the rest, which the host fetches under the query's id (see answerRest).
 */
export async function runAndAnswer(
  p: AnalyticsPage,
  records: AnalyticsRecord[],
  total = records.length,
): Promise<Posted> {
  const before = (await p.postedOf('query')).length;
  await p.page.click('#run');
  const q = await p.waitForPosted('query', before + 1);
  await answer(p, q, records, total);
  return q;
}

export async function answer(
  p: AnalyticsPage,
  q: Posted,
  records: AnalyticsRecord[],
  total = records.length,
): Promise<void> {
  await p.send({
    type: 'queryResult',
    id: q.id,
    resultId: resultIdOf(q),
    query: q.query,
    page: { total, data: records },
    requestId: 'req-page',
  });
  await p.page.locator('#results').waitFor({ state: 'visible' });
}

/** The result id the stand-in host gives the answer to request `q`. */
export function resultIdOf(q: Posted): string {
  return `result-${String(q.id)}`;
}

/**
 * Answers request `r` with every row so far: `records` of `total`, as the panel posts it: the rows
 * in a few batches with the progress (packed), then the result with none left (`streamed`). `r` is
 * a Run query (whose rest the host fetches under the query's id) or a fetchAll.
 */
export async function answerRest(
  p: AnalyticsPage,
  r: Posted,
  records: AnalyticsRecord[],
  total = records.length,
): Promise<void> {
  const resultId = typeof r.resultId === 'string' ? r.resultId : resultIdOf(r);
  const query = analyticsQuerySchema.parse(r.query);
  const id = String(r.id);
  const batch = Math.max(100, Math.ceil(records.length / 4));
  for (let at = 0; at < records.length; at += batch) {
    const rows = records.slice(at, at + batch);
    await p.send(encodeForPage({ type: 'fetchAllProgress', id, fetched: at + rows.length, total, at, records: rows }));
  }
  await p.send(
    encodeForPage({
      type: 'fetchAllResult',
      id,
      resultId,
      query,
      total,
      records: [],
      streamed: records.length,
      requestIds: ['req-rest'],
    }),
  );
}

/** The cells of the table body, row by row. */
export async function tableRows(p: AnalyticsPage): Promise<string[][]> {
  type Cell = { textContent: string | null };
  return p.page.$$eval('table.records tbody tr:not(.spacer)', (rows) =>
    rows.map((r) =>
      Array.from((r as unknown as { children: ArrayLike<Cell> }).children, (c) => (c.textContent ?? '').trim()),
    ),
  );
}

export async function columnIndex(p: AnalyticsPage, id: string): Promise<number> {
  const ids = await p.page.$$eval('table.records thead th', (ths) =>
    ths.map((th) => th.getAttribute('data-column') ?? ''),
  );
  const i = ids.indexOf(id);
  assert.ok(i >= 0, `column ${id}`);
  return i;
}

export async function assertClean(p: AnalyticsPage): Promise<void> {
  assert.deepEqual(p.errors, [], 'no page errors or console errors');
  assert.deepEqual(await p.violations(), [], 'no CSP violations');
}
