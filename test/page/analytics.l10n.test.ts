/**
 * The page speaks VS Code's language (issue 11 item 6): with the German table the host writes into
 * the HTML, its labels, buttons, aria-labels, titles, pager, summary, charts, table and errors are
 * German from the first paint, numbers keep the UI locale's grouping, and a missing or garbled
 * table leaves the page whole and English.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { axeProblems } from './axe';
import { assertClean, runAndAnswer } from './flows';
import { type AnalyticsPage, repoRoot } from './harness';
import { record } from './records';
import { useStandIn } from './standIn';

describe('analytics page: its words come from the host-provided table', function () {
  const host = useStandIn();
  const out = join(repoRoot(), 'artifacts', 'page');
  before(() => mkdirSync(out, { recursive: true }));

  const attr = (p: AnalyticsPage, selector: string, name: string): Promise<string | null> =>
    p.page.locator(selector).first().getAttribute(name);
  const first = async (p: AnalyticsPage, selector: string): Promise<string> =>
    (await p.page.locator(selector).first().innerText()).trim();

  it('German table: the first paint is German, before the host says anything', async () => {
    const p = await host.openRaw({ lang: 'de', l10n: 'de' });
    assert.equal(await p.text('.waiting'), 'Warten auf Scrapedeck…');
    assert.equal(await p.text('h1'), 'Aufgabenanalyse');
    assert.equal(await p.page.locator('html').getAttribute('lang'), 'de', 'German words: <html lang="de">');
    await assertClean(p);
  });

  it('German table: labels, buttons, aria-labels, titles, pager, summary, charts and table in German', async function () {
    this.timeout(60_000);
    const p = await host.open({}, { lang: 'de', l10n: 'de' });
    // The form.
    assert.equal(await p.text('label[for="f-start"]'), 'Startdatum');
    assert.equal(await p.text('label[for="f-granularity"]'), 'Auflösung');
    assert.equal(await p.text('#run'), 'Abfrage ausführen');
    assert.equal(await p.text('#f-choose-tasks'), 'Aufgaben wählen…');
    assert.equal(await p.text('#f-tasks'), 'Alle Aufgaben');
    assert.equal(await attr(p, 'form.query-form', 'aria-label'), 'Analyseabfrage');
    assert.equal(await attr(p, '#fetch-all', 'title'), 'Jede Seite dieser Abfrage abrufen (im Rahmen des Ratenlimits)');
    assert.equal(await attr(p, '#f-members', 'placeholder'), 'Nur ich');
    assert.equal(await p.text('#help-pageSize'), '1–100 Zeilen pro Seite.');
    // An option says the word in German; its value stays the service's.
    assert.deepEqual(
      await p.page.$$eval('#f-granularity option', (os) =>
        os.map((o) => `${o.getAttribute('value') ?? ''}=${o.textContent ?? ''}`),
      ),
      ['Day=Tag', 'Week=Woche', 'Month=Monat'],
    );
    assert.match(await p.text('#subtitle'), /^Alle Aufgaben · .* · nach Tag$/);
    const titles = await p.postedOf('title');
    assert.equal(titles[titles.length - 1]?.title, 'Analyse: Alle Aufgaben');

    // A result: pager, summary, charts, table; numbers grouped the German way.
    await runAndAnswer(p, [record({ dataVolumeMetrics: { totalCollected: 12345, deduplicatedVolume: 1100 } })]);
    assert.equal(await attr(p, '#results', 'aria-label'), 'Ergebnisse');
    assert.equal(await p.text('#rows-range'), 'Zeilen 1–1 von 1 · Seite 1 von 1');
    assert.equal(await p.text('#page-prev'), 'Vorherige');
    assert.equal(await attr(p, '#page-prev', 'aria-label'), 'Vorherige Seite');
    assert.equal(await attr(p, 'nav.pager', 'aria-label'), 'Seiten');
    assert.equal(await p.text('#export-csv'), 'Als CSV exportieren');
    assert.equal(await p.text('#coverage-text'), 'Kennzahlen für die eine Zeile dieser Abfrage.');
    assert.equal(await first(p, '#summary .figure dt'), 'Läufe in dieser Abfrage');
    assert.equal(await attr(p, '#summary', 'aria-label'), 'Zusammenfassung aller Zeilen der Abfrage');
    assert.equal(await p.text('[data-figure="collected"]'), '12.345');
    assert.equal(await first(p, '.chart figcaption'), 'Erfolgreiche und fehlgeschlagene Läufe');
    assert.match(
      (await attr(p, '#chart-runs', 'aria-label')) ?? '',
      /^Erfolgreiche und fehlgeschlagene Läufe, ein Zeitraum, .*Die Tabelle darunter listet jede Zahl auf\.$/,
    );
    assert.equal(await p.text('th[data-column="task"] button'), 'Aufgabe');
    assert.equal(
      await attr(p, 'th[data-column="task"] button', 'title'),
      'Aufgabenname, oder die Aufgaben-ID, wenn der Name nicht bekannt ist. Nach Aufgabe sortieren',
    );
    assert.equal(await attr(p, 'table.records', 'aria-label'), 'Analysedatensätze');
    await p.page.screenshot({ path: join(out, 'analytics-german.png'), fullPage: true });
    // German names still match what each control shows (axe's label-content-name-mismatch and the rest).
    assert.deepEqual(await axeProblems(p, 'German results'), []);

    // A failure: the headline, the code line and the copy button.
    await p.page.click('#run');
    const q = await p.waitForPosted('query', 2);
    await p.send({
      type: 'error',
      id: q.id,
      error: { kind: 'server', status: 500, code: 'E1', message: 'Boom', requestId: 'req-9' },
    });
    await p.page.locator('#error').waitFor({ state: 'visible' });
    assert.equal(await p.text('#error .error-headline'), 'Die Abfrage ist fehlgeschlagen (HTTP 500).');
    assert.equal(await p.text('#error .error-detail'), 'Code E1: Boom');
    assert.equal(await p.text('#error .copy-request-id'), 'Anfrage-ID kopieren');
    await assertClean(p);
  });

  for (const l10n of ['garbled', 'wrong'] as const) {
    it(`a ${l10n} table: the page still works, in English, and <html lang> says so`, async () => {
      const p = await host.open({}, { l10n, lang: 'de' });
      assert.equal(await p.text('#run'), 'Run query');
      assert.equal(await p.page.locator('html').getAttribute('lang'), 'en');
      assert.equal(await p.page.locator('html').getAttribute('data-locale'), 'de', 'numbers stay German');
      assert.equal(await p.text('label[for="f-start"]'), 'Start date');
      assert.equal(await attr(p, 'form.query-form', 'aria-label'), 'Analytics query');
      await runAndAnswer(p, [record()]);
      assert.equal(await p.text('#rows-range'), 'Rows 1–1 of 1 · Page 1 of 1');
      await assertClean(p);
    });
  }

  it('no table (an English window): English, as every other page test sees it', async () => {
    const p = await host.open();
    assert.equal(await p.text('#run'), 'Run query');
    assert.equal(await p.page.locator('html').getAttribute('data-l10n'), null);
    await assertClean(p);
  });
});
