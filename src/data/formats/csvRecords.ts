/**
 * Reading back CSV that Scrapedeck (or a spreadsheet) wrote, as much as appending to it needs:
 * the header record, and a streaming pass that pads every record to a wider header. Pure: text
 * in, text out, chunk by chunk, so a file of any size passes through in constant memory.
 *
 * Records are RFC 4180: a quoted cell may hold commas, quotes (doubled) and line breaks; a
 * record ends at a line break outside quotes (CRLF or LF).
 */
import { UTF8_BOM } from '../../platform/csvCell';

/**
 * Pads each record with empty cells up to `width` (a record already that wide or wider is left
 * as it is). With `skipFirstRecord`, the first record (the old header) is dropped, so the caller
 * can write the new header before the padded body. A leading BOM is dropped too.
 */
export class CsvRecordPadder {
  private inQuotes = false;
  private cells = 1;
  private skipping: boolean;
  private started = false;
  /** A CR at the end of a chunk waits for the next one: it may be half of a CRLF. */
  private carry = '';
  /** Text of the current record has been emitted (a last record without a line break needs its padding at the end). */
  private open = false;

  constructor(
    private readonly width: number,
    skipFirstRecord: boolean,
  ) {
    this.skipping = skipFirstRecord;
  }

  push(input: string): string {
    let chunk = this.carry + input;
    this.carry = '';
    if (!this.started && chunk.length > 0) {
      this.started = true;
      if (chunk.startsWith(UTF8_BOM)) chunk = chunk.slice(1);
    }
    if (chunk.endsWith('\r')) {
      this.carry = '\r';
      chunk = chunk.slice(0, -1);
    }
    let out = '';
    let from = 0;
    const special = /[",\n]/g;
    for (let m = special.exec(chunk); m !== null; m = special.exec(chunk)) {
      const i = m.index;
      const ch = chunk[i];
      if (ch === '"') this.inQuotes = !this.inQuotes;
      else if (this.inQuotes) continue;
      else if (ch === ',') this.cells++;
      else {
        // A record ends here: its padding goes before the line break (CRLF or LF).
        const lineBreak = i > 0 && chunk[i - 1] === '\r' ? i - 1 : i;
        if (!this.skipping) out += chunk.slice(from, lineBreak) + this.padding() + chunk.slice(lineBreak, i + 1);
        this.skipping = false;
        this.open = false;
        this.cells = 1;
        from = i + 1;
      }
    }
    if (!this.skipping && from < chunk.length) {
      out += chunk.slice(from);
      this.open = true;
    }
    return out;
  }

  /** The rest: a final record without a line break gets its padding. */
  end(): string {
    const rest = this.carry;
    this.carry = '';
    if (this.skipping) return '';
    if (this.open || rest.length > 0) {
      this.open = false;
      return this.padding() + rest;
    }
    return '';
  }

  private padding(): string {
    return this.cells < this.width ? ','.repeat(this.width - this.cells) : '';
  }
}

/**
 * The first record of a CSV text (a leading BOM skipped): its cells, and how many characters of
 * `text` it took, line break included. Undefined when `text` holds no complete first record.
 */
export function readFirstRecord(text: string): { cells: string[]; length: number } | undefined {
  let i = text.startsWith(UTF8_BOM) ? 1 : 0;
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  while (i < text.length) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else cell += ch;
      i++;
    } else if (ch === '"') {
      quoted = true;
      i++;
    } else if (ch === ',') {
      cells.push(cell);
      cell = '';
      i++;
    } else if (ch === '\n' || (ch === '\r' && text[i + 1] === '\n')) {
      cells.push(cell);
      return { cells, length: i + (ch === '\r' ? 2 : 1) };
    } else {
      cell += ch;
      i++;
    }
  }
  return undefined;
}
