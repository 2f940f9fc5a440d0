/**
 * The analytics page speaks from its table: no place of src/analytics/page/** (or its protocol) puts a plain literal on
 * screen (text, aria-label, title, placeholder, h()/button() labels and children, the state's
 * notices and error texts); the table's strings parse as the page parses them, falling back to
 * English for a missing, garbled or broken table; and every column has its header in the table.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { checkForm, defaultForm } from '../../src/analytics/model/formModel';
import { coverageText, pageWindow } from '../../src/analytics/model/pages';
import {
  formatMessage,
  PAGE_STRINGS,
  type PageStringKey,
  pageStringsFrom,
  pageText,
  setPageStrings,
} from '../../src/analytics/model/pageStrings';
import { COLUMNS } from '../../src/analytics/model/tableModel';
import { checkDateRange } from '../../src/api/schemas/dates';
import { type Place, ROOT } from './helpers/l10nSource';
import { pageLiterals, pageSources } from './helpers/pageL10nSource';

const where = (p: Place) => `${p.file}:${p.line}: ${p.text}`;

describe('l10n: the analytics page speaks from its table', () => {
  afterEach(() => setPageStrings({ ...PAGE_STRINGS }));

  it('scans the page (src/analytics/page/**, src/analytics/protocol/**)', () => {
    const files = pageSources().map((f) => path.relative(ROOT, f).split(path.sep).join('/'));
    assert.ok(files.includes('src/analytics/page/form/formView.ts'));
    assert.ok(files.includes('src/analytics/page/entry.ts'));
    assert.ok(files.every((f) => f.startsWith('src/analytics/page/') || f.startsWith('src/analytics/protocol/')));
  });

  it('no on-screen place of the page gets a plain literal', () => {
    assert.deepEqual(pageLiterals().map(where), []);
  });

  it('catches a literal planted in each kind of place, and lets keys, t() and exempt ones pass', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'scrapedeck-page-l10n-'));
    try {
      const file = path.join(dir, 'planted.ts');
      writeFileSync(
        file,
        [
          "const a = h('p', { text: 'Planted text' });",
          "const b = h('nav', { attrs: { 'aria-label': 'Planted aria', title: `Planted ${n} title` } }, 'Planted child', t('page.results'));",
          "const c = button('Planted button', () => undefined, { attrs: { placeholder: ok ? t('form.onlyMe') : 'Planted branch' } });",
          "el.textContent = 'Planted assignment';",
          "el.title = `${t('form.run')} planted suffix`;",
          "el.setAttribute('aria-label', 'Planted attribute');",
          "el.setAttribute('data-x', 'not on screen');",
          "el.append(' ', 'Planted append');",
          "s.notice = 'Planted notice';",
          "s.error = { error: { kind: 'internal', message: 'Planted message' }, action: 'Planted action' };",
          "const spec = { title: 'chart.runs', label: 'summary.runs' };",
          "const d = h('p', { text: t('page.waiting') + ' ' + tOr(`option.${o}`, o) });",
          "el.textContent = '—';",
          "el.textContent = 'Kept on purpose'; // l10n-exempt: a test of the marker",
        ].join('\n'),
      );
      const found = pageLiterals([file], dir).map((p) => p.text);
      assert.deepEqual(
        [...new Set(found)].sort(),
        [
          "'Planted text'",
          "'Planted aria'",
          '`Planted ${n} title`',
          "'Planted child'",
          "'Planted button'",
          "'Planted branch'",
          "'Planted assignment'",
          "`${t('form.run')} planted suffix`",
          "'Planted attribute'",
          "'Planted append'",
          "'Planted notice'",
          "'Planted message'",
          "'Planted action'",
        ].sort(),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('every column of the table has its header and tooltip in the table, as the model words them', () => {
    const table = PAGE_STRINGS as Record<string, string>;
    for (const c of COLUMNS) {
      assert.equal(table[`column.${c.id}`], c.header, `column.${c.id}`);
      assert.equal(table[`column.${c.id}.title`], c.title, `column.${c.id}.title`);
    }
    const columnKeys = Object.keys(PAGE_STRINGS).filter((k) => k.startsWith('column.'));
    assert.equal(columnKeys.length, COLUMNS.length * 2, 'no entry for a column that no longer exists');
  });

  it('a good table is used; a missing, garbled or partial one falls back to English entry by entry', () => {
    const key: PageStringKey = 'pager.rows';
    const de = pageStringsFrom({
      [key]: 'Zeilen {0}–{1} von {2}',
      'form.run': 'Abfrage ausführen',
      unknown: 'ignored',
    });
    assert.equal(de[key], 'Zeilen {0}–{1} von {2}');
    assert.equal(de['form.run'], 'Abfrage ausführen');
    assert.equal(de['page.waiting'], PAGE_STRINGS['page.waiting'], 'a missing entry is English');
    for (const bad of [undefined, null, 'garbled', 42, ['x'], { 'form.run': 7 }, { 'form.run': '   ' }]) {
      assert.deepEqual(pageStringsFrom(bad), { ...PAGE_STRINGS }, JSON.stringify(bad));
    }
    // A translation that lost or renumbered a placeholder would show wrong figures: English instead.
    assert.equal(pageStringsFrom({ [key]: 'Zeilen {0} von {2}' })[key], PAGE_STRINGS[key]);
  });

  it('formats placeholders in any order, and the model words from the table set', () => {
    assert.equal(formatMessage('{1} of {0}', ['a', 'b']), 'b of a');
    assert.equal(formatMessage('{0} and {3}', ['a']), 'a and {3}');
    setPageStrings(
      pageStringsFrom({
        'pager.rows': 'Zeilen {0}–{1} von {2}',
        'pager.label': '{0} · Seite {1} von {2}',
        'coverage.all': 'Kennzahlen für alle {0} Zeilen dieser Abfrage.',
      }),
    );
    assert.equal(pageWindow(2, 20, 100, 100).label, 'Zeilen 21–40 von 100 · Seite 2 von 5');
    assert.equal(coverageText({ rows: 3, total: 3, complete: true }), 'Kennzahlen für alle 3 Zeilen dieser Abfrage.');
    assert.equal(pageText('form.run'), 'Run query');
  });

  it('says every date rule from the table: in English exactly as the wire words it, in German from the table', () => {
    const today = '2026-11-22';
    const base = defaultForm(today);
    // (An impossible day is refused by the query's schema first, in the wire's words: see contracts.)
    const patches = [
      { end: '2026-11-23' },
      { start: '2026-11-21', end: '2026-11-20' },
      { start: '2026-08-21' },
      { start: '2026-08-01', end: '2026-11-23' },
    ];
    for (const patch of patches) {
      const form = { ...base, ...patch };
      const wire = checkDateRange(form.start, form.end, today);
      assert.ok(wire.length > 0, JSON.stringify(patch));
      const check = checkForm(form, today);
      assert.ok(!check.ok);
      for (const d of wire) {
        const said = `${d.message.charAt(0).toUpperCase()}${d.message.slice(1)}.`;
        assert.ok(check.issues[d.field]?.includes(said), `${said} in ${JSON.stringify(check.issues)}`);
      }
    }
    setPageStrings(pageStringsFrom({ 'form.endAfterToday': 'Das Ende darf nicht nach heute liegen ({0}, UTC).' }));
    const german = checkForm({ ...base, end: '2026-11-23' }, today);
    assert.ok(
      !german.ok && german.issues.end?.includes('Das Ende darf nicht nach heute liegen (2026-11-22, UTC).'),
      JSON.stringify(german),
    );
  });
});
