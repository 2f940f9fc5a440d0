/**
 * Reading the end of an appended file back, byte by byte, for completing an interrupted pull
 * (`appendFile.ts`). No `vscode`; every read opens the file without following a link.
 */
import { openChecked } from '../../platform/files/safeFiles';

const CHUNK = 1 << 20;

/** `length` bytes from `offset` (fewer if the file is shorter). */
export async function readRange(file: string, offset: number, length: number): Promise<Buffer> {
  if (length <= 0) return Buffer.alloc(0);
  const handle = await openChecked(file, 'read');
  try {
    const buffer = Buffer.alloc(length);
    let done = 0;
    while (done < length) {
      const { bytesRead } = await handle.read(buffer, done, length - done, offset + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return buffer.subarray(0, done);
  } finally {
    await handle.close();
  }
}

export function longestCommonPrefix(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/**
 * Where the last complete record in [from, to) ends (just after its line break), or `from` when
 * there is none. `from` must be at a record's start. CSV records may hold line breaks inside
 * quotes; a JSON Lines record is one line.
 */
export async function lastRecordEnd(file: string, from: number, to: number, csv: boolean): Promise<number> {
  const handle = await openChecked(file, 'read');
  try {
    let end = from;
    let quoted = false;
    const buffer = Buffer.alloc(CHUNK);
    for (let at = from; at < to;) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK, to - at), at);
      if (bytesRead === 0) break;
      for (let i = 0; i < bytesRead; i++) {
        const byte = buffer[i];
        if (csv && byte === 0x22) quoted = !quoted;
        else if (byte === 0x0a && !quoted) end = at + i + 1;
      }
      at += bytesRead;
    }
    return end;
  } finally {
    await handle.close();
  }
}

/** Just after the last line break in [from, to), or `from` when there is none (what a cut may never go past). */
export async function lastLineEnd(file: string, from: number, to: number): Promise<number> {
  const handle = await openChecked(file, 'read');
  try {
    const buffer = Buffer.alloc(Math.min(CHUNK, Math.max(0, to - from)));
    for (let end = to; end > from;) {
      const start = Math.max(from, end - buffer.length);
      const { bytesRead } = await handle.read(buffer, 0, end - start, start);
      const at = buffer.subarray(0, bytesRead).lastIndexOf(0x0a);
      if (at >= 0) return start + at + 1;
      end = start;
    }
    return from;
  } finally {
    await handle.close();
  }
}
