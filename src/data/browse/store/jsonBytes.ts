/**
 * JSON Lines and a JSON array on bytes: where each row starts and ends, found without decoding
 * the file; each row is then parsed on its own, so one bad row is one problem, not a failed file.
 */
const LF = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN = new Set([0x5b, 0x7b]);
const CLOSE = new Set([0x5d, 0x7d]);
const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/** Lines of a JSON Lines file; blank lines are skipped (and still counted). */
export class LineSplitter {
  private line = 1;
  private lineStart = 0;
  private blank = true;

  constructor(private readonly onLine: (start: number, end: number, line: number) => void) {}

  push(chunk: Buffer, at: number): void {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i] as number;
      if (b === LF) {
        if (!this.blank) this.onLine(this.lineStart, at + i + 1, this.line);
        this.line++;
        this.lineStart = at + i + 1;
        this.blank = true;
      } else if (!SPACE.has(b)) this.blank = false;
    }
  }

  end(at: number): void {
    if (!this.blank) this.onLine(this.lineStart, at, this.line);
  }
}

/** The elements of a top-level JSON array, each as [start, end) bytes; anything else is `notArray`. */
export class ArraySplitter {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private started = false;
  private elementStart = -1;
  private elementLine = 1;
  private line = 1;
  notArray = false;
  closed = false;

  constructor(private readonly onElement: (start: number, end: number, line: number) => void) {}

  push(chunk: Buffer, at: number): void {
    for (let i = 0; i < chunk.length && !this.notArray; i++) {
      const b = chunk[i] as number;
      if (b === LF) this.line++;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === BACKSLASH) this.escaped = true;
        else if (b === QUOTE) this.inString = false;
        continue;
      }
      if (SPACE.has(b)) continue;
      if (!this.started) {
        this.started = true;
        if (b !== 0x5b) this.notArray = true;
        this.depth = 1;
        continue;
      }
      if (this.closed) {
        this.notArray = true; // text after the array's end
        continue;
      }
      if (this.depth === 1 && (b === COMMA || b === 0x5d)) {
        if (this.elementStart >= 0) this.onElement(this.elementStart, at + i, this.elementLine);
        this.elementStart = -1;
        if (b === 0x5d) {
          this.depth = 0;
          this.closed = true;
        }
        continue;
      }
      if (this.depth === 1 && this.elementStart < 0) {
        this.elementStart = at + i;
        this.elementLine = this.line;
      }
      if (b === QUOTE) this.inString = true;
      else if (OPEN.has(b)) this.depth++;
      else if (CLOSE.has(b)) this.depth--;
    }
  }

  /** True when the text was one whole array. */
  end(): boolean {
    if (!this.started || !this.closed) this.notArray = true;
    return !this.notArray;
  }
}

/** The text of a JSON row, without what separates it from the next (spaces and one comma). */
export function jsonText(buf: Buffer, start = 0, end = buf.length): string {
  while (end > start && SPACE.has(buf[end - 1] as number)) end--;
  if (buf[end - 1] === COMMA) end--;
  while (end > start && SPACE.has(buf[end - 1] as number)) end--;
  return buf.toString('utf8', start, end);
}
