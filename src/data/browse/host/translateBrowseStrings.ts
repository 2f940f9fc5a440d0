/**
 * The data browser page's words in VS Code's language: each entry of the page's table
 * (data/browse/protocol/browseStrings.ts) through vscode.l10n.t; only entries that differ from
 * English go into the HTML. scripts/l10n-bundle.mjs puts the table's English into the bundle.
 */
import * as vscode from 'vscode';

import { type BrowseStrings, translatedBrowseStrings } from '../protocol';

/** The page table's messages (not literals here): scripts/l10n-bundle.mjs extracts them from the table. */
// l10n-table: data/browse/protocol/browseStrings.ts
const byVsCode = (message: string): string => vscode.l10n.t(message);

export const browsePageStrings = (): Partial<BrowseStrings> => translatedBrowseStrings(byVsCode);
