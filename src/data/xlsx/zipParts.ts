/**
 * The pieces of a ZIP file an .xlsx needs, written by hand (docs/contracts/data.md says why): CRC-32
 * (Node's own where it has one) and joining two CRCs, and the local and central headers of a
 * deflated entry whose sizes are known when it is written. No ZIP64: an entry or an offset past
 * 4 GiB is refused with a clear error instead of writing a file nothing can open. No `vscode`.
 */
import * as zlib from 'node:zlib';

export const ZIP_LIMIT = 0xffffffff;

export class ZipTooLargeError extends Error {
  override readonly name = 'ZipTooLargeError';
  constructor() {
    super('the workbook would pass 4 GiB, more than an .xlsx file can hold');
  }
}

let table: Uint32Array | undefined;
function crcTable(): Uint32Array {
  if (table !== undefined) return table;
  table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
}

type Crc32 = (data: Uint8Array, initial?: number) => number;
const nodeCrc32 = (zlib as unknown as { crc32?: Crc32 }).crc32;

/** CRC-32 of `data`, continuing from `initial`. */
export function crc32(data: Uint8Array, initial = 0): number {
  if (nodeCrc32 !== undefined) return nodeCrc32(data, initial);
  const t = crcTable();
  let c = (initial ^ 0xffffffff) >>> 0;
  for (let i = 0; i < data.length; i++) c = (t[(c ^ (data[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function times(matrix: number[], vector: number): number {
  let sum = 0;
  for (let i = 0, v = vector >>> 0; v !== 0; i++, v >>>= 1) if (v & 1) sum ^= matrix[i] as number;
  return sum >>> 0;
}

function square(out: number[], matrix: number[]): void {
  for (let n = 0; n < 32; n++) out[n] = times(matrix, matrix[n] as number);
}

/** The CRC of A followed by B, from crc(A), crc(B) and B's length (zlib's crc32_combine). */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB <= 0) return crcA >>> 0;
  const odd: number[] = new Array<number>(32);
  const even: number[] = new Array<number>(32);
  odd[0] = 0xedb88320; // the operator for one zero bit
  for (let n = 1, row = 1; n < 32; n++, row = (row << 1) >>> 0) odd[n] = row;
  square(even, odd); // two zero bits
  square(odd, even); // four
  let crc = crcA >>> 0;
  let length = lengthB;
  // Apply len(B) zero bytes to crc(A), one power of two at a time.
  for (;;) {
    square(even, odd);
    if (length % 2 === 1) crc = times(even, crc);
    length = Math.floor(length / 2);
    if (length === 0) break;
    square(odd, even);
    if (length % 2 === 1) crc = times(odd, crc);
    length = Math.floor(length / 2);
    if (length === 0) break;
  }
  return (crc ^ crcB) >>> 0;
}

export interface ZipEntry {
  name: string;
  crc: number;
  /** Deflated bytes. */
  compressed: number;
  /** Bytes before deflating. */
  size: number;
  /** Where the local header starts. */
  offset: number;
}

function dosTime(date: Date): { time: number; day: number } {
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
    day: ((Math.max(1980, date.getFullYear()) - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

function checkSizes(e: ZipEntry): void {
  if (e.compressed > ZIP_LIMIT || e.size > ZIP_LIMIT || e.offset > ZIP_LIMIT) throw new ZipTooLargeError();
}

/** Flags: bit 11, names are UTF-8. Method 8: deflate. */
const FLAGS = 0x0800;
const DEFLATE = 8;

export function localHeader(e: ZipEntry, date: Date): Buffer {
  checkSizes(e);
  const name = Buffer.from(e.name, 'utf8');
  const { time, day } = dosTime(date);
  const b = Buffer.alloc(30);
  b.writeUInt32LE(0x04034b50, 0);
  writeEntryFields(b, 4, e, time, day, name.length);
  b.writeUInt16LE(0, 28);
  return Buffer.concat([b, name]);
}

/** The fields a local header and a central record share, in the same order: version needed to extract through the name's length. */
function writeEntryFields(b: Buffer, at: number, e: ZipEntry, time: number, day: number, nameLength: number): void {
  b.writeUInt16LE(20, at);
  b.writeUInt16LE(FLAGS, at + 2);
  b.writeUInt16LE(DEFLATE, at + 4);
  b.writeUInt16LE(time, at + 6);
  b.writeUInt16LE(day, at + 8);
  b.writeUInt32LE(e.crc >>> 0, at + 10);
  b.writeUInt32LE(e.compressed, at + 14);
  b.writeUInt32LE(e.size, at + 18);
  b.writeUInt16LE(nameLength, at + 22);
}

/** The central directory and its end record, for entries already written. */
export function centralDirectory(entries: readonly ZipEntry[], at: number, date: Date): Buffer {
  const { time, day } = dosTime(date);
  const records = entries.map((e) => {
    checkSizes(e);
    const name = Buffer.from(e.name, 'utf8');
    const b = Buffer.alloc(46);
    b.writeUInt32LE(0x02014b50, 0);
    b.writeUInt16LE(20, 4); // version made by
    writeEntryFields(b, 6, e, time, day, name.length);
    b.writeUInt32LE(e.offset, 42);
    return Buffer.concat([b, name]);
  });
  const directory = Buffer.concat(records);
  if (at > ZIP_LIMIT || entries.length > 0xffff) throw new ZipTooLargeError();
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(at, 16);
  return Buffer.concat([directory, end]);
}
