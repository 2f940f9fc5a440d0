/**
 * One number format (issue 21 item 10): every count the panel shows — figures, coverage, the rows
 * range and pager, progress, the table and the notices — is grouped the way VS Code's UI language
 * groups numbers (the host writes it into <html lang>), never a mix of "1,020" and "1.020".
 */
import * as assert from 'node:assert/strict';

import { answerRest, assertClean, runAndAnswer } from './flows';
import type { AnalyticsPage } from './harness';
import { grid } from './records';
import { useStandIn } from './standIn';

describe("analytics page: one number format, the UI language's", function () {
  const host = useStandIn();
  let p: AnalyticsPage;
  const all = grid(30, 34, '2026-11-22'); // 1,020 rows
  const runs = all.reduce((a, r) => a + (r.executionMetrics.runCount ?? 0), 0);

  /** Every text on the page that holds a count of four digits or more. */
  async function counts(page: AnalyticsPage): Promise<string[]> {
    const text = await page.page.locator('body').innerText();
    const labels = await page.page.$$eval('[aria-label], [title]', (els) =>
      els.map((e) => `${e.getAttribute('aria-label') ?? ''} ${e.getAttribute('title') ?? ''}`),
    );
    return [text, ...labels].flatMap((t) => t.match(/\d{1,3}(?:[.,\u00a0\u202f]\d{3})+(?![\d])/g) ?? []);
  }

  for (const [lang, sep, wrong] of [
    ['de', '.', ','],
    ['en', ',', '.'],
  ] as const) {
    it(`${lang}: groups every count with "${sep}"`, async function () {
      this.timeout(120_000);
      p = await host.open({}, { lang });
      const q = await runAndAnswer(p, all.slice(0, 100), all.length);
      await p.send({ type: 'fetchAllProgress', id: q.id, fetched: 600, total: 1020 });
      await p.page.locator('#busy-text', { hasText: `600 of 1${sep}020` }).waitFor();
      assert.equal(
        await p.text('#coverage-text'),
        `Figures for the first 100 of 1${sep}020 rows only. Fetching the rest…`,
      );
      await answerRest(p, q, all, all.length);
      await p.page.locator('#coverage', { hasText: `all 1${sep}020 rows` }).waitFor();
      assert.equal(await p.text('#rows-range'), `Rows 1–20 of 1${sep}020 · Page 1 of 51`);
      const expected = new Intl.NumberFormat(lang === 'de' ? 'de' : 'en-US').format(runs);
      assert.equal(await p.text('[data-figure="runs"]'), expected);
      // No table here: the words are English, and <html lang> says so; the numbers stay the UI language's.
      assert.equal(await p.page.locator('html').getAttribute('lang'), 'en');
      const found = await counts(p);
      assert.ok(found.length > 5, found.join(' '));
      const mixed = found.filter((c) => c.includes(wrong));
      assert.deepEqual(mixed, [], `counts grouped another way: ${mixed.join(' ')}`);
      await assertClean(p);
    });
  }

  it('an unknown or malformed language falls back to en-US', async () => {
    p = await host.open({}, { lang: 'xx-"><script>' });
    assert.equal(await p.page.locator('html').getAttribute('lang'), 'en');
  });
});
