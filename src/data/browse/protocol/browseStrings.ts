/**
 * Every English string the data browser's page shows, by key, with `{0}` placeholders. The host
 * translates each entry with vscode.l10n.t (data/browse/host/translateBrowseStrings.ts) and writes the
 * table into the page's HTML; the page reads it (`browseStringsFrom`) and `browseText` formats
 * from it. A missing or bad table, or a bad entry, falls back to the English here, entry by
 * entry. scripts/l10n-bundle.mjs reads the values of BROWSE_STRINGS into l10n/bundle.l10n.json,
 * so keep every value a plain string literal. Shared by the host and the page (as the analytics
 * page's table is), with no imports beyond zod/mini.
 */
import * as z from 'zod/mini';

export const BROWSE_STRINGS = {
  'toolbar.stop': 'Stop',
  'toolbar.search': 'Search all columns',
  'toolbar.column': 'Column to filter',
  'toolbar.condition': 'Condition',
  'toolbar.value': 'Value',
  'toolbar.addFilter': 'Add filter',
  'toolbar.wholeValue': 'Whole value',
  'toolbar.openLink': 'Open link…',
  'toolbar.copyCell': 'Copy cell',
  'toolbar.copyRow': 'Copy row',
  'toolbar.profile': 'Profile column',
  'toolbar.export': 'Export rows shown…',
  'toolbar.remove': 'Remove',
  'toolbar.removeFilter': 'Remove the filter on {0}',
  'op.contains': 'contains',
  'op.equals': 'equals',
  'op.empty': 'is empty',
  'op.notEmpty': 'is not empty',
  'status.loadingOf': '{0} of {1} rows loaded',
  'status.loading': '{0} rows loaded…',
  'status.rows': '{0} rows',
  'status.match': '{0} match',
  'status.busy': 'sorting and filtering…',
  'status.problems': '{0} could not be read',
  'status.changed':
    'The file changed on disk after it was opened: what is shown may be out of date. Close and open it again to read it anew.',
  'grid.rows': 'Rows',
  'grid.sortBy': 'Sort by {0}',
  'side.details': 'Details',
  'side.close': 'Close',
  'side.wholeValue': 'Whole value',
  'side.problem': 'Problem',
  'profile.title': 'Profile of {0}',
  'profile.kind': 'Kind',
  'profile.rows': 'Rows',
  'profile.empty': 'Empty',
  'profile.emptyValue': '{0} % ({1})',
  'profile.distinct': 'Distinct values',
  'profile.atLeast': 'at least {0}',
  'profile.least': 'Least',
  'profile.greatest': 'Greatest',
  'profile.common': 'Most common',
  'profile.emptyCell': '(empty)',
  'kind.empty': 'empty',
  'kind.number': 'number',
  'kind.date': 'date',
  'kind.boolean': 'true or false',
  'kind.text': 'text',
} as const satisfies Record<string, string>;

export type BrowseStringKey = keyof typeof BROWSE_STRINGS;
export type BrowseStrings = Record<BrowseStringKey, string>;

const KEYS = Object.keys(BROWSE_STRINGS) as BrowseStringKey[];

/** The `{n}` placeholders of a message, sorted: a translation must keep exactly these. */
const placeholdersOf = (text: string): string =>
  [...text.matchAll(/\{(\d+)\}/g)]
    .map((m) => m[1])
    .sort()
    .join(',');

const tableSchema = z.record(z.string(), z.unknown());

/** The table from whatever arrived: each non-blank string entry keeping its placeholders is used, every other one is English. */
export function browseStringsFrom(raw: unknown): BrowseStrings {
  const parsed = tableSchema.safeParse(raw);
  const given = parsed.success ? parsed.data : {};
  const out = { ...BROWSE_STRINGS } as BrowseStrings;
  for (const key of KEYS) {
    const v = Object.prototype.hasOwnProperty.call(given, key) ? given[key] : undefined;
    if (typeof v === 'string' && v.trim() !== '' && placeholdersOf(v) === placeholdersOf(BROWSE_STRINGS[key]))
      out[key] = v;
  }
  return out;
}

/** `translate` is vscode.l10n.t on the host: only entries that differ from English are kept (the page falls back per entry). */
export function translatedBrowseStrings(translate: (message: string) => string): Partial<BrowseStrings> {
  const out: Partial<BrowseStrings> = {};
  for (const [key, english] of Object.entries(BROWSE_STRINGS) as [BrowseStringKey, string][]) {
    const text = translate(english);
    if (text !== english) out[key] = text;
  }
  return out;
}

let current: BrowseStrings = { ...BROWSE_STRINGS };

/** Sets the table the page speaks from (once, as it boots); returns it. */
export function setBrowseStrings(table: BrowseStrings): BrowseStrings {
  current = table;
  return current;
}

/** The page's words: the entry for `key`, `{0}`, `{1}`… filled (numbers formatted by the caller). */
export function browseText(key: BrowseStringKey, ...args: readonly (string | number)[]): string {
  return current[key].replace(/\{(\d+)\}/g, (match, i: string) => {
    const v = args[Number(i)];
    return v === undefined ? match : String(v);
  });
}
