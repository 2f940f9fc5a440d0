/**
 * The page's words. The host writes its translated table (data/browse/protocol/browseStrings.ts)
 * into `<html data-l10n>` as JSON, so the first paint is already in VS Code's language with no
 * extra message and no script in the markup. A missing, garbled or partial table falls back to
 * English, entry by entry, and `<html lang>` then says English.
 */
import {
  BROWSE_STRINGS,
  type BrowseStringKey,
  type BrowseStrings,
  browseStringsFrom,
  browseText,
  setBrowseStrings,
} from '../protocol';

export { browseText as t };

export function loadBrowseStrings(doc: Document): BrowseStrings {
  const text = doc.documentElement.getAttribute('data-l10n');
  let raw: unknown;
  try {
    raw = text ? JSON.parse(text) : undefined;
  } catch {
    raw = undefined; // garbled: English
  }
  const table = setBrowseStrings(browseStringsFrom(raw));
  const english = (Object.keys(BROWSE_STRINGS) as BrowseStringKey[]).every((k) => table[k] === BROWSE_STRINGS[k]);
  if (english && !/^en(-|$)/i.test(doc.documentElement.lang)) doc.documentElement.lang = 'en';
  return table;
}
