/**
 * The page's words. The host writes its translated table (analytics/model/pageStrings.ts) into
 * `<html data-l10n>` as JSON, so the first paint is already in VS Code's language with no extra
 * message and no script in the markup (the CSP stays nonce-only). A missing, garbled or partial
 * table falls back to English, entry by entry.
 */
import { readPageWords } from '../../../platform/webview/pageWords';
import {
  PAGE_STRINGS,
  type PageStrings,
  pageStringsFrom,
  pageText,
  pageTextOr,
  setPageStrings,
} from '../../model/pageStrings';

export { pageText as t, pageTextOr as tOr };

/** Reads the table from the document (platform/webview/pageWords.ts); returns what the page now speaks. */
export function loadPageStrings(doc: Document): PageStrings {
  return readPageWords(doc, PAGE_STRINGS, (raw) => setPageStrings(pageStringsFrom(raw)));
}

/** A column's header and tooltip in the page's language (the model's English when the table has none). */
export function columnText(c: { id: string; header: string; title: string }): { header: string; title: string } {
  return { header: pageTextOr(`column.${c.id}`, c.header), title: pageTextOr(`column.${c.id}.title`, c.title) };
}
