/**
 * One streaming pass over a file that finds its rows: CSV records (the first is the header),
 * JSON Lines, or the elements of a JSON array. JSON rows are parsed here once, for their field
 * names and to find a bad row (kept as that row's problem with its line, never thrown). The
 * pass reports progress and yields between chunks; the rows found so far can be read meanwhile.
 */
import { csvCells, CsvSplitter } from './csvBytes';
import { ArraySplitter, jsonText, LineSplitter } from './jsonBytes';
import type { RecordFile } from './recordFile';

export interface IndexProgress {
  bytes: number;
  size: number;
  rows: number;
}

export interface IndexOptions {
  signal?: AbortSignal;
  onProgress?: (p: IndexProgress) => void;
  /** Bytes read at a time (tests use small chunks to cross every boundary). */
  chunkBytes?: number;
  /**
   * Once the first rows are found, waited for before reading on (the page asked for its first
   * window and was answered; the caller bounds the wait): the page's first paint then shares
   * neither the CPU nor the event loop with the rest of the pass.
   */
  firstRowsShown?: () => Promise<void>;
}

/** A file that is not what its name says: the sentence the user reads. */
export class NotThatFormat extends Error {}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/**
 * Bytes read and split at a time: 2–6 ms of work, so a window or a sort asked for while the file
 * is indexed is answered at once (a 1 MB slice took 15–30 ms, and 100 ms before the splitter's loop
 * was compiled, which is when the page asks for its first rows).
 */
const CHUNK = 256 << 10;

export async function indexFile(file: RecordFile, o: IndexOptions = {}): Promise<void> {
  await file.remember();
  const size = await file.size();
  const chunkBytes = o.chunkBytes ?? CHUNK;
  // The bytes from the end of the last whole row on (`base` is their file offset): a row may cross chunks.
  let carry = Buffer.alloc(0);
  let base = 0;
  let lastEnd = 0;
  let header: [number, number] | undefined;
  /** The most cells a CSV record had: columns past the header's are added, once the header is read. */
  let widest = 0;
  const pending: Array<[number, number, number]> = [];
  const splitter =
    file.format === 'csv'
      ? new CsvSplitter((start, end, line, cells) => {
          if (header === undefined) header = [start, end];
          else {
            file.index.add(start, line);
            file.index.end = end;
            widest = Math.max(widest, cells);
          }
          lastEnd = end;
        })
      : new (file.format === 'jsonl' ? LineSplitter : ArraySplitter)((start, end, line) => {
          pending.push([start, end, line]);
          lastEnd = end;
        });
  /** Parses the rows found in `window` (whose first byte is at `base`) and keeps what follows the last. */
  const settle = (window: Buffer): void => {
    if (header !== undefined && file.columns.length === 0) setHeader(file, window, header[0] - base, header[1] - base);
    while (file.columns.length > 0 && file.columns.length < widest) file.column(`column ${file.columns.length + 1}`);
    for (const [start, end, line] of pending)
      addJson(file, window.subarray(start - base, end - base), start, end, line);
    pending.length = 0;
    // CSV needs no bytes of a row once the header is read: the splitter keeps its own state.
    const keepFrom = file.format === 'csv' && header !== undefined ? base + window.length : Math.max(lastEnd, base);
    carry = Buffer.from(window.subarray(keepFrom - base));
    base = keepFrom;
  };
  let waitForPage = o.firstRowsShown;
  let at = (await file.read(0, 3)).equals(BOM) ? 3 : 0;
  base = lastEnd = at;
  for (;;) {
    o.signal?.throwIfAborted();
    const chunk = await file.read(at, chunkBytes);
    if (chunk.length === 0) break;
    if (at <= 3 && looksBinary(chunk))
      throw new NotThatFormat(`This file is not text, so it is not a ${file.format === 'csv' ? 'CSV' : 'JSON'} file.`);
    splitter.push(chunk, at);
    at += chunk.length;
    settle(carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk);
    if (splitter instanceof ArraySplitter && splitter.notArray)
      throw new NotThatFormat('This file is not a JSON array of rows.');
    o.onProgress?.({ bytes: at, size, rows: file.count });
    if (waitForPage !== undefined && file.count > 0 && at < size) {
      await waitForPage();
      waitForPage = undefined;
    } else await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (splitter instanceof ArraySplitter) {
    if (!splitter.end()) throw new NotThatFormat('This file is not a JSON array of rows.');
  } else splitter.end(at);
  settle(carry);
  if (file.format === 'csv' && header === undefined && at > 0)
    throw new NotThatFormat('This CSV file has no header row.');
  o.onProgress?.({ bytes: at, size, rows: file.count });
}

function setHeader(file: RecordFile, buf: Buffer, start: number, end: number): void {
  const names = csvCells(buf, start, end);
  const seen = new Set<string>();
  names.forEach((raw, i) => {
    let name = raw.trim() === '' ? `column ${i + 1}` : raw;
    for (let k = 2; seen.has(name); k++) name = `${raw} (${k})`;
    seen.add(name);
    file.column(name);
  });
}

function addJson(file: RecordFile, bytes: Buffer, start: number, end: number, line: number): void {
  const n = file.count;
  file.index.add(start, line);
  file.index.end = end;
  try {
    const value: unknown = JSON.parse(jsonText(bytes));
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      file.problem(n, `Line ${line} is not an object of fields.`);
    else for (const key of Object.keys(value)) file.column(key);
  } catch (error) {
    file.problem(
      n,
      `Line ${line} is not valid JSON (${error instanceof Error ? error.message.slice(0, 200) : 'unreadable'}).`,
    );
  }
}

/** NUL bytes in the first chunk: a binary file (a database, a spreadsheet) named .csv. */
function looksBinary(chunk: Buffer): boolean {
  return chunk.subarray(0, 8192).includes(0);
}
