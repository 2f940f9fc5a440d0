/**
 * The analytics page's words in VS Code's language: each entry of the page's table
 * (analytics/model/pageStrings.ts) through vscode.l10n.t. Only entries that differ from English are
 * sent (the page falls back to English per entry), so an English window adds nothing to the HTML.
 * scripts/l10n-bundle.mjs puts the table's English into l10n/bundle.l10n.json.
 */
import * as vscode from 'vscode';

import { PAGE_STRINGS, type PageStringKey } from '../model/pageStrings';

/** The page table's messages (not literals here): scripts/l10n-bundle.mjs extracts them from the table. */
// l10n-table: analytics/model/pageStrings.ts
const byVsCode = (message: string): string => vscode.l10n.t(message);

/** `translate` is vscode.l10n.t; tests pass their own. */
export function translatedPageStrings(
  translate: (message: string) => string = byVsCode,
): Partial<Record<PageStringKey, string>> {
  const out: Partial<Record<PageStringKey, string>> = {};
  for (const [key, english] of Object.entries(PAGE_STRINGS) as [PageStringKey, string][]) {
    const text = translate(english);
    if (text !== english) out[key] = text;
  }
  return out;
}
