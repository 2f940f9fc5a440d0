/**
 * The preview document: the first rows of a task as a Markdown table, which VS Code's own
 * Markdown preview renders (read-only, themed, searchable, no webview of ours). Pure.
 *
 * Columns are the union of the rows' field names in first-seen order: the names the task really
 * has. Every cell is escaped so scraped text shows as text: no emphasis, links, HTML, math or
 * table breaks can come out of a value; line breaks show as <br>.
 */
import type { DataRow, DataValue } from '../../api/dataSchemas';

export const PREVIEW_ROWS = 1000;

export interface PreviewText {
  title: string;
  /** e.g. "First 1,000 of 12,345 rows · 7 columns" (already translated by the caller). */
  summary: string;
  /** What to say when there are no rows. */
  empty: string;
}

/**
 * Markdown's ASCII punctuation that could start markup inside a table cell; `:`, `.` and `@` too,
 * because the preview links bare URLs, domains and e-mail addresses (linkify) unless an escape
 * splits them.
 */
const MARKUP = /[\\`*_{}[\]<>()#+!|~$&:.@]/g;

export function escapeCell(value: DataValue | undefined): string {
  if (value === null || value === undefined) return '';
  return String(value)
    .replace(MARKUP, (ch) => `\\${ch}`)
    .replace(/\r\n|\r|\n/g, '<br>');
}

/** The columns: every field name, in the order first seen. */
export function columnsOf(rows: readonly DataRow[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

export function previewMarkdown(rows: readonly DataRow[], text: PreviewText): string {
  const lines = [`# ${escapeCell(text.title)}`, '', text.summary, ''];
  const columns = columnsOf(rows);
  if (rows.length === 0 || columns.length === 0) return [...lines, text.empty, ''].join('\n');
  lines.push(`| ${columns.map((c) => escapeCell(c)).join(' | ')} |`);
  lines.push(`|${columns.map(() => ' --- ').join('|')}|`);
  for (const row of rows) lines.push(`| ${columns.map((c) => escapeCell(row[c])).join(' | ')} |`);
  return `${lines.join('\n')}\n`;
}
