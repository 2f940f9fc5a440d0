/**
 * The data browser's page speaks from its table (src/data/browse/protocol/browseStrings.ts): no
 * on-screen place of src/data/browse/page/** gets a plain literal; every entry has its German
 * translation; with the German bundle the host writes every German word into the page's HTML,
 * where the page reads it back; a missing, garbled or placeholder-breaking table is English.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import {
  BROWSE_STRINGS,
  type BrowseStringKey,
  browseStringsFrom,
  browseText,
  setBrowseStrings,
  translatedBrowseStrings,
} from '../../src/data/browse/protocol/browseStrings';
import { renderPageHtml } from '../../src/platform/webview/pageHtml';
import { type Place, ROOT } from './helpers/l10nSource';
import { browsePageSources, pageLiterals } from './helpers/pageL10nSource';

const where = (p: Place): string => `${p.file}:${p.line}: ${p.text}`;
const german = JSON.parse(readFileSync(path.join(ROOT, 'l10n', 'bundle.l10n.de.json'), 'utf8')) as Record<
  string,
  string
>;
const keys = Object.keys(BROWSE_STRINGS) as BrowseStringKey[];

/** The table as the page reads it from the HTML the host writes. */
function tableInHtml(html: string): unknown {
  const m = /data-l10n="([^"]*)"/.exec(html);
  if (m === null) return undefined;
  const text = (m[1] ?? '')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  return JSON.parse(text) as unknown;
}

const html = (strings?: Record<string, string>): string =>
  renderPageHtml(
    { cspSource: 'vscode-resource:', scriptUri: 's.js', styleUri: 's.css', title: 'Rows', lang: 'de', strings },
    'nonce',
  );

describe('l10n: the data browser page speaks from its table', () => {
  afterEach(() => setBrowseStrings({ ...BROWSE_STRINGS }));

  it('scans the page, and no on-screen place of it gets a plain literal', () => {
    const files = browsePageSources().map((f) => path.relative(ROOT, f).split(path.sep).join('/'));
    assert.ok(
      files.includes('src/data/browse/page/toolbar.ts') && files.includes('src/data/browse/page/controller.ts'),
    );
    assert.deepEqual(pageLiterals(browsePageSources()).map(where), []);
  });

  it('every entry has a German translation in l10n/bundle.l10n.de.json', () => {
    assert.deepEqual(
      keys.filter((k) => german[BROWSE_STRINGS[k]] === undefined).map((k) => `${k}: ${BROWSE_STRINGS[k]}`),
      [],
    );
  });

  it('with the German bundle, every German word reaches the page through its HTML', () => {
    const written = html(translatedBrowseStrings((m) => german[m] ?? m));
    assert.match(written, /<html lang="de"/);
    const table = browseStringsFrom(tableInHtml(written));
    for (const k of keys) assert.equal(table[k], german[BROWSE_STRINGS[k]], k);
    setBrowseStrings(table);
    assert.equal(browseText('status.loadingOf', '12.000', '84.213'), '12.000 von 84.213 Zeilen geladen');
    assert.equal(browseText('grid.sortBy', 'Preis'), 'Nach Preis sortieren');
  });

  it('an English window writes no table; a garbled or placeholder-breaking one is English entry by entry', () => {
    const english = html(translatedBrowseStrings((m) => m));
    assert.equal(tableInHtml(english), undefined);
    assert.match(english, /<html lang="en"/, 'English words: <html lang="en"> although VS Code speaks German');
    assert.deepEqual(browseStringsFrom('not a table'), BROWSE_STRINGS);
    const partial = browseStringsFrom({ 'grid.sortBy': 'Sortieren', 'toolbar.stop': 'Anhalten', 'status.rows': 42 });
    assert.equal(partial['grid.sortBy'], BROWSE_STRINGS['grid.sortBy'], 'a translation without its {0} is not used');
    assert.equal(partial['toolbar.stop'], 'Anhalten');
    assert.equal(partial['status.rows'], BROWSE_STRINGS['status.rows']);
  });
});
