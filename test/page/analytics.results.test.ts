/** Results in headless Chromium: summary, table, week labels, nulls, sorting, errors, export. */
import * as assert from 'node:assert/strict';

import type { AnalyticsRecord } from '../../src/api/schemas/schemas';
import { assertClean, columnIndex, runAndAnswer, tableRows } from './flows';
import type { AnalyticsPage } from './harness';
import { record, weekRecord } from './records';
import { useStandIn } from './standIn';

describe('analytics page: results', function () {
  const host = useStandIn();
  let p: AnalyticsPage;
  beforeEach(async () => {
    p = await host.open();
  });

  const rows = [
    record({ taskId: 't-1', taskName: 'Prices <script>x</script>' }),
    record({
      taskId: 't-2',
      taskName: null,
      collectionMethod: 'Local',
      dayKey: '2026-11-21',
      dataVolumeMetrics: { totalCollected: null, deduplicatedVolume: 0 },
      executionMetrics: {
        runCount: 6,
        successCount: null,
        failureCount: 0,
        durationPerRunSeconds: null,
        totalExecutionSeconds: 3725,
        successRate: null,
        failureRate: 0,
      },
      resourceUsageMetrics: { captchaCount: null, simpleTemplateCount: null, proxyIpCount: null, balance: null },
    }),
  ];

  async function figure(id: string): Promise<string> {
    return p.text(`[data-figure="${id}"]`);
  }

  it('repaints its rows without leaving a stale text, class or tooltip, as results shrink, empty and grow', async () => {
    type Cells = string[][];
    /** Every body cell as text|class|title, row by row, straight from the DOM. */
    type Cell = { textContent: string | null; className: string; getAttribute(name: string): string | null };
    const cellsOf = (page: AnalyticsPage): Promise<Cells> =>
      page.page.$$eval('table.records tbody tr:not(.spacer)', (trs) =>
        trs.map((tr) =>
          Array.from(
            (tr as unknown as { cells: ArrayLike<Cell> }).cells,
            (c) => `${c.textContent ?? ''}|${c.className}|${c.getAttribute('title') ?? ''}`,
          ),
        ),
      );
    /** The same result on a brand-new document (a reused tab navigates afresh): nothing there to reuse. */
    const reference = async (result: AnalyticsRecord[]): Promise<Cells> => {
      const fresh = await host.open();
      try {
        await runAndAnswer(fresh, result);
        return await cellsOf(fresh);
      } finally {
        await fresh.close();
      }
    };
    const [named, nulls] = rows as [AnalyticsRecord, AnalyticsRecord];
    const many = Array.from({ length: 30 }, (_, i) => record({ taskId: `k${i}`, taskName: `Known ${i}` }));
    const sequence: AnalyticsRecord[][] = [[nulls, nulls, named], many, [named], [], [nulls], many.slice(0, 3)];
    for (const [step, result] of sequence.entries()) {
      await runAndAnswer(p, result);
      assert.deepEqual(await cellsOf(p), await reference(result), `step ${step} (${result.length} rows)`);
    }
    const first = await reference([nulls]);
    assert.ok(
      first[0]?.some((c) => c.endsWith('|Not reported')),
      'null cells carry their tooltip (the test would see a stale one)',
    );
    await assertClean(p);
  });

  it('shows the summary over the rows: nulls are not zeros, the rate counts rows with both figures', async () => {
    await runAndAnswer(p, rows);
    assert.equal(await figure('runs'), '10');
    assert.equal(await figure('successRate'), '75%', '3 of 4 runs: the row without successCount is left out');
    assert.equal(await figure('failures'), '1');
    assert.equal(await figure('collected'), '1,200');
    assert.equal(await figure('deduplicated'), '1,100');
    assert.equal(await figure('time'), '1h 8m 5s');
    assert.equal(await figure('proxy'), '3');
    assert.equal(await figure('captchas'), '2');
    assert.equal(await figure('cost'), '1.5');
    const rateTitle = await p.page.locator('[data-figure="successRate"]').locator('..').getAttribute('title');
    assert.match(rateTitle ?? '', /over the 1 of 2 rows that report both/);
    await assertClean(p);
  });

  it('shows "—" for a figure whose inputs are all null', async () => {
    await runAndAnswer(p, [rows[1] ?? record()]);
    assert.equal(await figure('successRate'), '—');
    assert.equal(await figure('collected'), '—');
    assert.equal(await figure('cost'), '—');
    assert.equal(await figure('deduplicated'), '0', 'a real zero stays 0');
  });

  it('puts every field in the table, escaped, with "—" for nulls and the id when the name is null', async () => {
    await runAndAnswer(p, rows);
    const table = await tableRows(p);
    assert.equal(table.length, 2);
    const [first, second] = table;
    assert.ok(first && second);
    assert.equal(first[await columnIndex(p, 'task')], 'Prices <script>x</script>');
    assert.equal(await p.page.locator('table.records tbody script').count(), 0, 'task names are text, never markup');
    assert.equal(second[await columnIndex(p, 'task')], 't-2');
    assert.equal(second[await columnIndex(p, 'collectionMethod')], 'Local');
    assert.equal(second[await columnIndex(p, 'totalCollected')], '—');
    assert.equal(second[await columnIndex(p, 'deduplicatedVolume')], '0');
    assert.equal(second[await columnIndex(p, 'successCount')], '—');
    assert.equal(second[await columnIndex(p, 'successRate')], '—');
    assert.equal(second[await columnIndex(p, 'totalExecutionSeconds')], '1h 2m 5s');
    assert.equal(first[await columnIndex(p, 'successRate')], '75%');
    assert.equal(first[await columnIndex(p, 'durationPerRunSeconds')], '1m 30s');
    assert.equal(first[await columnIndex(p, 'weekStartDate')], '—');
    assert.equal(await p.page.locator('th[data-column]').count(), 20);
  });

  it("a row's success and failure rates add up to 100% as painted (each rounded alone: 45.2% + 54.9%)", async () => {
    const execution = (runs: number, fails: number): AnalyticsRecord['executionMetrics'] => ({
      runCount: runs,
      successCount: runs - fails,
      failureCount: fails,
      durationPerRunSeconds: null,
      totalExecutionSeconds: null,
      successRate: (runs - fails) / runs,
      failureRate: fails / runs,
    });
    await runAndAnswer(p, [
      record({ taskId: 't-1', executionMetrics: execution(2000, 1097) }),
      record({ taskId: 't-2', executionMetrics: execution(3, 1) }),
    ]);
    const [first, second] = await tableRows(p);
    const success = await columnIndex(p, 'successRate');
    const failure = await columnIndex(p, 'failureRate');
    assert.deepEqual([first?.[success], first?.[failure]], ['45.2%', '54.8%']);
    assert.deepEqual([second?.[success], second?.[failure]], ['66.7%', '33.3%']);
  });

  it('labels week buckets with their dates in the table and the chart', async () => {
    await p.page.selectOption('#f-granularity', 'Week');
    await runAndAnswer(p, [weekRecord('2026-11-18'), weekRecord('2026-11-10', { taskId: 't-9' })]);
    const table = await tableRows(p);
    const bucket = await columnIndex(p, 'dayKey');
    assert.deepEqual(
      table.map((r) => r[bucket]),
      ['2026-W47 (Nov 16 – Nov 22)', '2026-W46 (Nov 9 – Nov 15)'],
    );
    assert.equal(table[0]?.[await columnIndex(p, 'weekStartDate')], '2026-11-16');
    const label = await p.page.locator('#chart-runs').getAttribute('aria-label');
    assert.match(label ?? '', /2 date buckets from 2026-W46 \(Nov 9 – Nov 15\) to 2026-W47 \(Nov 16 – Nov 22\)/);
  });

  it('sorts by a header with the mouse and the keyboard, nulls last both ways', async () => {
    const many = [3, null, 1, 7].map((runs, i) =>
      record({ taskId: `t-${i}`, executionMetrics: { ...record().executionMetrics, runCount: runs } }),
    );
    await runAndAnswer(p, many);
    const runs = await columnIndex(p, 'runCount');
    const header = p.page.locator('th[data-column="runCount"]');
    await header.locator('button').click();
    assert.equal(await header.getAttribute('aria-sort'), 'ascending');
    assert.deepEqual(
      (await tableRows(p)).map((r) => r[runs]),
      ['1', '3', '7', '—'],
    );
    await header.locator('button').focus();
    await p.page.keyboard.press('Enter');
    assert.equal(await header.getAttribute('aria-sort'), 'descending');
    assert.deepEqual(
      (await tableRows(p)).map((r) => r[runs]),
      ['7', '3', '1', '—'],
    );
    assert.equal(await p.page.locator('th[aria-sort]').count(), 1);
    await p.page.waitForFunction(
      () =>
        (globalThis as unknown as { __vsState?: { sort?: { direction: string } } }).__vsState?.sort?.direction ===
        'desc',
    );
    await assertClean(p);
  });

  it('shows any failure with its request id, copies it, and clears it on the next run', async () => {
    await p.page.click('#run');
    const q = await p.waitForPosted('query');
    await p.send({ type: 'error', id: 'not-this-one', error: { kind: 'server', message: 'stale' } });
    await p.send({
      type: 'error',
      id: q.id,
      error: { kind: 'rate-limited', status: 429, message: 'Too many requests, slow down.', requestId: 'req-429' },
    });
    const box = p.page.locator('#error');
    await box.waitFor({ state: 'visible' });
    assert.match(await box.innerText(), /The query failed \(HTTP 429\)\.[\s\S]*Too many requests[\s\S]*req-429/);
    assert.doesNotMatch(await box.innerText(), /stale/);
    assert.equal(await p.page.locator('#busy').isHidden(), true, 'the spinner stops');
    await box.locator('button').click();
    assert.deepEqual(await p.waitForPosted('copy'), { type: 'copy', text: 'req-429' });
    await p.page.click('#run');
    await box.waitFor({ state: 'hidden' });
  });

  it('shows a spinner while a query is pending, and Cancel stops it and ignores its late reply', async () => {
    await p.page.click('#run');
    const q = await p.waitForPosted('query');
    await p.page.locator('#busy').waitFor({ state: 'visible' });
    assert.match(await p.text('#busy-text'), /Running query/);
    await p.page.click('#cancel');
    assert.deepEqual(await p.waitForPosted('cancel'), { type: 'cancel', id: q.id });
    await p.page.locator('#busy').waitFor({ state: 'hidden' });
    await p.send({
      type: 'queryResult',
      id: q.id,
      resultId: `result-${String(q.id)}`,
      query: q.query,
      page: { total: 1, data: rows },
    });
    await p.page.waitForTimeout(100);
    assert.equal(await p.page.locator('#results').isHidden(), true, 'a reply to a cancelled request is ignored');
  });

  it('exports the current result by its id as CSV and JSON and shows where it went', async () => {
    const q = await runAndAnswer(p, rows);
    await p.page.click('#export-csv');
    const e = await p.waitForPosted('export');
    // The rows stay on the host: the page names the result it shows.
    assert.deepEqual(Object.keys(e).sort(), ['format', 'id', 'resultId', 'type']);
    assert.equal(e.format, 'csv');
    assert.equal(e.resultId, `result-${String(q.id)}`);
    await p.send({ type: 'exportDone', id: e.id, path: '/home/me/analytics.csv' });
    await p.page.locator('#notice', { hasText: 'Exported to /home/me/analytics.csv' }).waitFor();
    await p.page.click('#export-json');
    const j = await p.waitForPosted('export', 2);
    assert.equal(j.format, 'json');
    await p.send({ type: 'error', id: j.id, error: { kind: 'cancelled', message: 'Cancelled.' } });
    await p.page.locator('#notice').waitFor({ state: 'hidden' });
    assert.equal(
      await p.page.locator('#error').isHidden(),
      true,
      `a dismissed save dialog is not an error: ${await p.page.locator('#error').innerText()}`,
    );
    await assertClean(p);
  });

  it('explains an export the host can no longer serve (the result id is stale)', async () => {
    await runAndAnswer(p, rows);
    await p.page.click('#export-csv');
    const e = await p.waitForPosted('export');
    const message =
      'Scrapedeck no longer holds the rows of this result (newer results replaced it, or the panel was reloaded). Run the query again, then export.';
    await p.send({ type: 'error', id: e.id, error: { kind: 'not-found', message } });
    const box = p.page.locator('#error');
    await box.waitFor({ state: 'visible' });
    assert.match(
      await box.innerText(),
      /The export failed\.[\s\S]*no longer holds the rows of this result[\s\S]*Run the query again/,
    );
    assert.equal(await p.page.locator('#notice').isHidden(), true, 'the "Exporting…" notice is gone');
    await assertClean(p);
  });
});
