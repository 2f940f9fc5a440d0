/**
 * Where a loop's document lives, without `vscode`: `scrapedeck://<account>/<task> · <loop>.txt
 * ?taskId=…&actionId=…&loopType=…`. The file name says which task and loop it is (it is the
 * editor's title); the account key (a hash, no secret) keeps a document of one account from being
 * read or saved under another; the query, parsed with zod, says what to call.
 */
import * as z from 'zod';

export const LOOP_SCHEME = 'scrapedeck';

/**
 * The language of list documents (package.json's `languages`): its configuration default turns on
 * `files.autoSaveWhenNoErrors`, so where auto save is on (VS Code for the Web's default) a list with
 * lines to fix is not saved, and sent, in the middle of typing; it waits until they are fixed.
 */
export const LOOP_LANGUAGE = 'scrapedeck-list';

export interface LoopRef {
  readonly account: string;
  readonly taskId: string;
  readonly actionId: string;
  readonly loopType: string;
  /** Set on the read-only copy of the service's list shown beside a conflicting save. */
  readonly snapshot?: string;
}

const idText = z.string().trim().min(1).max(128);
const querySchema = z.object({
  taskId: idText,
  actionId: idText,
  loopType: z.string().trim().min(1).max(64),
  snapshot: z.string().regex(/^\d{1,12}$/).optional(),
});

/** The file name: "<task> · <loop>.txt", with what a path cannot hold replaced. */
export function loopFileName(taskName: string, loopName: string): string {
  return `${segment(taskName)} · ${segment(loopName)}.txt`;
}

export function loopQuery(ref: Omit<LoopRef, 'account'>): string {
  const params = new URLSearchParams({ taskId: ref.taskId, actionId: ref.actionId, loopType: ref.loopType });
  if (ref.snapshot !== undefined) params.set('snapshot', ref.snapshot);
  return params.toString();
}

/** What a document's address refers to; undefined for an address Scrapedeck did not make. */
export function parseLoopRef(authority: string, query: string): LoopRef | undefined {
  if (!/^[0-9a-f]{8,64}$/.test(authority)) return undefined;
  const parsed = querySchema.safeParse(Object.fromEntries(new URLSearchParams(query)));
  return parsed.success ? { account: authority, ...parsed.data } : undefined;
}

/** A name as one path segment: no slashes or control characters, at most 80 characters. */
function segment(name: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = name.replace(/[/\\\u0000-\u001f\u007f]+/g, '-').replace(/\s+/g, ' ').trim();
  const short = clean.length > 80 ? `${clean.slice(0, 79)}…` : clean;
  return short === '' || short === '.' || short === '..' ? 'untitled' : short;
}
