/**
 * Whether a file's columns fit a task's fields, for the Pull New Rows file picker (issue 32 item
 * 8: the first pull offered another task's file). No `vscode`.
 *
 * A CSV file's columns are its header (Scrapedeck writes a field such as `=x` as `'=x` there);
 * a JSON Lines file's are the keys of its first row. An empty file fits any task; an SQLite
 * database always does (each task gets a table of its own).
 */
import { neutraliseFormula } from '../../platform/csvCell';
import { checkFile, readStart, UnsafeFileError, type UnsafeReason } from '../../platform/files/safeFiles';
import { readFirstRecord } from '../formats/csvRecords';
import type { PullFormat } from './pullSinks';

/** Read at most this much of a file to find its columns. */
const HEAD = 64 * 1024;

export type Fit =
  | { kind: 'fits' }
  | { kind: 'empty' }
  | { kind: 'database' }
  /** `extra`: columns the task lacks; `missing`: fields the file lacks. */
  | { kind: 'differs'; extra: string[]; missing: string[] }
  /** The file's columns could not be read. */
  | { kind: 'unknown' }
  /** The file has these columns, but the task's fields could not be read to compare them. */
  | { kind: 'unchecked'; columns: string[] }
  /** A pull would refuse the file (a symbolic link, a file of more than one name, not a regular file): the picker leaves it out. */
  | { kind: 'refused'; reason: UnsafeReason };

export function compareColumns(fileColumns: readonly string[], fields: readonly string[], csv: boolean): Fit {
  const name = (f: string): string => (csv ? neutraliseFormula(f) : f);
  const have = new Set(fileColumns);
  const want = new Set(fields.map(name));
  const extra = fileColumns.filter((c) => !want.has(c));
  const missing = fields.filter((f) => !have.has(name(f)));
  return extra.length === 0 && missing.length === 0 ? { kind: 'fits' } : { kind: 'differs', extra, missing };
}

/** The columns a file has, as far as its first 64 KB tell; undefined when they cannot be read. */
export async function fileColumns(file: string, format: PullFormat): Promise<string[] | 'empty' | undefined> {
  try {
    const s = await checkFile(file);
    if (s === undefined || s.size === 0) return 'empty';
    const text = new TextDecoder('utf-8', { fatal: false }).decode(await readStart(file, HEAD));
    if (format === 'csv') return readFirstRecord(text)?.cells;
    const line = text.split('\n', 1)[0] ?? '';
    const row: unknown = JSON.parse(line);
    return typeof row === 'object' && row !== null && !Array.isArray(row) ? Object.keys(row) : undefined;
  } catch {
    return undefined;
  }
}

/** How a file fits the task's fields (undefined: the task's fields could not be read). */
export async function fitOf(file: string, format: PullFormat, fields: readonly string[] | undefined): Promise<Fit> {
  // The same rule the pull applies when it opens the file (issue 48 item 7: offered, then refused).
  try {
    await checkFile(file);
  } catch (error) {
    if (error instanceof UnsafeFileError) return { kind: 'refused', reason: error.reason };
  }
  if (format === 'sqlite') return { kind: 'database' };
  const columns = await fileColumns(file, format);
  if (columns === 'empty') return { kind: 'empty' };
  if (columns === undefined) return { kind: 'unknown' };
  if (fields === undefined) return { kind: 'unchecked', columns };
  return compareColumns(columns, fields, format === 'csv');
}
