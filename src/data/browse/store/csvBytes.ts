/**
 * CSV on bytes (RFC 4180: a quoted cell may hold commas, doubled quotes and line breaks), so a
 * file is split into records without decoding it, and a record's cells are decoded one by one
 * into fresh strings (no cell keeps its record's text alive). A leading BOM is skipped by the caller.
 */
const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

/** Splits a stream of bytes into records at line breaks outside quotes; counts each record's cells. */
export class CsvSplitter {
  private inQuotes = false;
  private cells = 1;
  private line = 1;
  private recordLine = 1;
  private recordStart = 0;
  private blank = true;

  constructor(private readonly onRecord: (start: number, end: number, line: number, cells: number) => void) {}

  /** `at`: the file offset of the chunk's first byte. */
  push(chunk: Buffer, at: number): void {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i] as number;
      if (b === QUOTE) {
        this.inQuotes = !this.inQuotes;
        this.blank = false;
      } else if (b === LF) {
        this.line++;
        if (this.inQuotes) continue;
        this.finish(at + i + 1);
      } else if (!this.inQuotes) {
        if (b === COMMA) this.cells++;
        if (b !== CR) this.blank = false;
      }
    }
  }

  end(at: number): void {
    this.finish(at);
  }

  private finish(end: number): void {
    // A blank line is no record.
    if (!this.blank) this.onRecord(this.recordStart, end, this.recordLine, this.cells);
    this.recordStart = end;
    this.recordLine = this.line;
    this.cells = 1;
    this.blank = true;
  }
}

/** The cells of one record (its bytes, line break included or not). */
export function csvCells(buf: Buffer, start = 0, end = buf.length): string[] {
  while (end > start && (buf[end - 1] === LF || buf[end - 1] === CR)) end--;
  const cells: string[] = [];
  let i = start;
  for (;;) {
    if (buf[i] === QUOTE) {
      // A quoted cell: up to the quote not followed by another; "" is one quote.
      let j = i + 1;
      let doubled = false;
      while (j < end) {
        if (buf[j] === QUOTE) {
          if (buf[j + 1] === QUOTE && j + 1 < end) {
            doubled = true;
            j += 2;
            continue;
          }
          break;
        }
        j++;
      }
      const text = buf.toString('utf8', i + 1, Math.min(j, end));
      cells.push(doubled ? text.replace(/""/g, '"') : text);
      i = j + 1;
      // Anything between the closing quote and the comma belongs to the cell, as spreadsheets read it.
      while (i < end && buf[i] !== COMMA) i++;
    } else {
      let j = i;
      while (j < end && buf[j] !== COMMA) j++;
      cells.push(buf.toString('utf8', i, j));
      i = j;
    }
    if (i >= end) return cells;
    i++; // the comma
    if (i === end) {
      cells.push('');
      return cells;
    }
  }
}

/** One cell of a record, found without decoding the cells before it; null past the record's end. */
export function csvCellAt(buf: Buffer, start: number, end: number, index: number): string | null {
  while (end > start && (buf[end - 1] === LF || buf[end - 1] === CR)) end--;
  let i = start;
  let inQuotes = false;
  for (let k = 0; k < index; i++) {
    if (i >= end) return null;
    const b = buf[i];
    if (b === QUOTE) inQuotes = !inQuotes;
    else if (b === COMMA && !inQuotes) k++;
  }
  if (i > end) return null;
  // From here to the next comma outside quotes is the cell.
  let j = i;
  inQuotes = false;
  while (j < end && (inQuotes || buf[j] !== COMMA)) {
    if (buf[j] === QUOTE) inQuotes = !inQuotes;
    j++;
  }
  return csvCells(buf, i, j)[0] ?? '';
}

/** What `csvCellRange` found: no such cell, its bytes (`rangeStart`, `rangeEnd`), or a cell only `csvCellAt` reads right. */
export const CellRange = { Missing: 0, Bytes: 1, Decode: 2 } as const;
export type CellRange = (typeof CellRange)[keyof typeof CellRange];

/**
 * Where a record's cell lies, when its text is its bytes: unquoted and with no quote in it, or
 * quoted with no doubled quote and nothing after the closing one. The range is put in `at`
 * (`[at.start, at.end)`); other cells are left to `csvCellAt`, which gives the same text.
 */
export function csvCellRange(
  buf: Uint8Array,
  start: number,
  end: number,
  index: number,
  at: { start: number; end: number },
): CellRange {
  while (end > start && (buf[end - 1] === LF || buf[end - 1] === CR)) end--;
  let i = start;
  let inQuotes = false;
  for (let k = 0; k < index; i++) {
    if (i >= end) return CellRange.Missing;
    const b = buf[i];
    if (b === QUOTE) inQuotes = !inQuotes;
    else if (b === COMMA && !inQuotes) k++;
  }
  if (i < end && buf[i] === QUOTE) {
    let q = i + 1;
    while (q < end && buf[q] !== QUOTE) q++;
    if (q >= end || (q + 1 < end && buf[q + 1] !== COMMA)) return CellRange.Decode;
    at.start = i + 1;
    at.end = q;
    return CellRange.Bytes;
  }
  let j = i;
  for (; j < end; j++) {
    const b = buf[j];
    if (b === COMMA) break;
    if (b === QUOTE) return CellRange.Decode;
  }
  at.start = i;
  at.end = j;
  return CellRange.Bytes;
}
