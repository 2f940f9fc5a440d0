/**
 * The page's words. The host writes its translated table (analyticsModel/pageStrings.ts) into
 * `<html data-l10n>` as JSON, so the first paint is already in VS Code's language with no extra
 * message and no script in the markup (the CSP stays nonce-only). A missing, garbled or partial
 * table falls back to English, entry by entry.
 */
import { pageStringsFrom, pageText, pageTextOr, setPageStrings, type PageStrings } from '../../analyticsModel/pageStrings';

export { pageText as t, pageTextOr as tOr };

/** Reads the table from the document; returns what the page now speaks. */
export function loadPageStrings(doc: Document): PageStrings {
  const text = doc.documentElement.getAttribute('data-l10n');
  let raw: unknown;
  try {
    raw = text ? JSON.parse(text) : undefined;
  } catch {
    raw = undefined; // garbled: English
  }
  return setPageStrings(pageStringsFrom(raw));
}

/** A column's header and tooltip in the page's language (the model's English when the table has none). */
export function columnText(c: { id: string; header: string; title: string }): { header: string; title: string } {
  return { header: pageTextOr(`column.${c.id}`, c.header), title: pageTextOr(`column.${c.id}.title`, c.title) };
}
