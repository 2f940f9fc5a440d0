/**
 * A page's words, read by the page itself. The host writes the translated table into
 * `<html data-l10n>` as JSON (pageHtml.ts), so the first paint is already in VS Code's language
 * with no extra message and no script in the markup. Page-side code with no DOM types of its own:
 * each page passes its English table and the parser that takes a table entry by entry.
 */

/** What of the document this needs: its root element's words attribute and language. */
export interface WordsDocument {
  readonly documentElement: { getAttribute(name: string): string | null; lang: string };
}

/**
 * Parses the table (garbled or missing: undefined, so the page keeps English), hands it to the
 * page's `take` and, when every word it kept is English, sets `<html lang>` to English so a screen
 * reader reads them as such.
 */
export function readPageWords<T extends Readonly<Record<string, string>>>(
  doc: WordsDocument,
  english: T,
  take: (raw: unknown) => T,
): T {
  const text = doc.documentElement.getAttribute('data-l10n');
  let raw: unknown;
  try {
    raw = text ? JSON.parse(text) : undefined;
  } catch {
    raw = undefined; // garbled: English
  }
  const table = take(raw);
  const allEnglish = Object.keys(english).every((k) => table[k] === english[k]);
  if (allEnglish && !/^en(-|$)/i.test(doc.documentElement.lang)) doc.documentElement.lang = 'en';
  return table;
}
