/**
 * Where each record of a file starts, in typed arrays that grow by doubling: 12 bytes a record
 * (its byte offset and its first line), so a million records take 12 MB and no row text is kept.
 * Record i is the bytes [start(i), start(i + 1)); the last one ends at `end`.
 */
export class RecordIndex {
  private starts = new Float64Array(1024);
  private lines = new Uint32Array(1024);
  private n = 0;
  /** Where the last record ends (the next one would start). */
  end = 0;

  get count(): number {
    return this.n;
  }

  add(start: number, line: number): void {
    if (this.n === this.starts.length) {
      const starts = new Float64Array(this.n * 2);
      starts.set(this.starts);
      this.starts = starts;
      const lines = new Uint32Array(this.n * 2);
      lines.set(this.lines);
      this.lines = lines;
    }
    this.starts[this.n] = start;
    this.lines[this.n] = line;
    this.n++;
  }

  start(i: number): number {
    return this.starts[i] as number;
  }

  /** Where record i ends (exclusive). */
  stop(i: number): number {
    return i + 1 < this.n ? (this.starts[i + 1] as number) : this.end;
  }

  /** The record holding byte `at`: the last of [lo, hi] starting at or before it (a binary search). */
  rowAt(at: number, lo: number, hi: number): number {
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((this.starts[mid] as number) <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The 1-based line of the file record i starts on. */
  line(i: number): number {
    return this.lines[i] as number;
  }

  /** Bytes the index holds. */
  get bytes(): number {
    return this.starts.byteLength + this.lines.byteLength;
  }
}
