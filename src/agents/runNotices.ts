/**
 * Runs an agent starts or stops through the MCP server, told to the extension host that offered
 * it. The server is VS Code's child process, not the extension host's; what the two share is what
 * the provider put in its environment. So the provider names a file in the extension's own storage
 * (`SCRAPEDECK_RUN_NOTICES`, one per account), the server appends a JSON line before each start or
 * stop request and one with its outcome, and the extension host reads the new lines as they come
 * and hands them to runs (the language-model tools' `RunHook`): "Starting…", the lot, the fast
 * follow and the finish notice, as for a run started in the tree.
 *
 * Nothing secret goes in (a task's id and name, a lot number). The file may be written by anyone
 * who can write the extension's storage, so each line is parsed with zod, anything else skipped,
 * and a notice only makes runs ask the service about a task of the signed-in account. No `vscode`:
 * the MCP server imports the writer.
 */
import { appendFileSync, closeSync, openSync, readSync, statSync, writeFileSync } from 'node:fs';

import * as z from 'zod';

import type { RunHook } from './tool';

/** Past this size the writer starts the file again (a reader then starts from its beginning). */
const MAX_FILE_BYTES = 256 * 1024;
/** At most this much is read in one go: a burst of notices, never a whole foreign file. */
const MAX_READ_BYTES = 64 * 1024;

const verb = z.enum(['start', 'stop']);
const taskId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[\w.:-]+$/);

export const runNoticeSchema = z.discriminatedUnion('phase', [
  z.object({ phase: z.literal('before'), verb, taskId, taskName: z.string().max(500) }),
  z.object({ phase: z.literal('after'), verb, taskId, ok: z.boolean(), lotNo: z.string().max(128).nullable() }),
]);
export type RunNotice = z.infer<typeof runNoticeSchema>;

/** The MCP server's side: a RunHook that appends one line per notice. A failed write is logged, never the call's failure. */
export function noticeWriter(file: string, log: (line: string) => void): RunHook {
  const write = (notice: RunNotice): void => {
    try {
      if ((statSync(file, { throwIfNoEntry: false })?.size ?? 0) > MAX_FILE_BYTES) writeFileSync(file, '');
      appendFileSync(file, `${JSON.stringify(notice)}\n`, { mode: 0o600 });
    } catch (e) {
      log(`could not tell VS Code about the run request (${e instanceof Error ? e.message : String(e)})`);
    }
  };
  return {
    before: (v, task) => write({ phase: 'before', verb: v, taskId: task.taskId, taskName: task.taskName }),
    after: (v, id, result) =>
      write(
        result.ok
          ? { phase: 'after', verb: v, taskId: id, ok: true, lotNo: result.lotNo }
          : { phase: 'after', verb: v, taskId: id, ok: false, lotNo: null },
      ),
  };
}

/** The notices in complete lines of `text`; a line that is not one is skipped. */
export function parseNotices(text: string): RunNotice[] {
  return text.split('\n').flatMap((line) => {
    if (line.trim() === '') return [];
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return [];
    }
    const parsed = runNoticeSchema.safeParse(json);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * The extension host's side: reads what was appended to one file since the last read and hands
 * each notice to `hook`. What the file held when the reader was made is not replayed (those runs
 * are the service's to report at the next refresh).
 */
export class NoticeReader {
  private offset: number;
  private partial = '';

  constructor(
    private readonly file: string,
    private readonly hook: RunHook,
  ) {
    this.offset = this.size();
  }

  /** Reads the new lines (call it when the file changed). */
  poll(): void {
    const size = this.size();
    if (size < this.offset) {
      // The writer started the file again.
      this.offset = 0;
      this.partial = '';
    }
    if (size === this.offset) return;
    const length = Math.min(size - this.offset, MAX_READ_BYTES);
    const buffer = Buffer.alloc(length);
    let fd: number | undefined;
    try {
      fd = openSync(this.file, 'r');
      readSync(fd, buffer, 0, length, this.offset);
    } catch {
      return;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    this.offset += length;
    const text = this.partial + buffer.toString('utf8');
    const end = text.lastIndexOf('\n');
    this.partial = end < 0 ? text : text.slice(end + 1);
    // A line longer than a read is nobody's notice.
    if (this.partial.length > MAX_READ_BYTES) this.partial = '';
    for (const notice of parseNotices(end < 0 ? '' : text.slice(0, end))) {
      if (notice.phase === 'before')
        this.hook.before(notice.verb, { taskId: notice.taskId, taskName: notice.taskName });
      else this.hook.after(notice.verb, notice.taskId, notice.ok ? { ok: true, lotNo: notice.lotNo } : { ok: false });
    }
    if (this.offset < size) this.poll();
  }

  private size(): number {
    return statSync(this.file, { throwIfNoEntry: false })?.size ?? 0;
  }
}
