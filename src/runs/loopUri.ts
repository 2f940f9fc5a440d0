/**
 * Where a loop's document lives, without `vscode`: `scrapedeck:/<task> · <loop>.txt`, nothing
 * else. VS Code puts a document's whole address in messages of its own (a save refused from the
 * close-tab prompt reads "Unable to write file '<address>' (…)"), so the address holds no ids, no
 * account key and no query: what each path refers to (task, loop, account) is kept here, and in
 * the workspace's state so that editors restored after a reload still resolve. A path this does
 * not know (another workspace's, or one forgotten) is not found: the list is opened again from
 * its task.
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
const refSchema = z.object({
  account: z.string().regex(/^[0-9a-f]{8,64}$/),
  taskId: idText,
  actionId: idText,
  loopType: z.string().trim().min(1).max(64),
  snapshot: z
    .string()
    .regex(/^\d{1,12}$/)
    .optional(),
});

/** Where the paths are kept between sessions (the workspace's state); what it hands back is parsed. */
export interface AddressStore {
  get(): unknown;
  set(value: Record<string, LoopRef>): void;
}

/** At most this many paths are remembered (the oldest go first). */
export const ADDRESSES_KEPT = 200;

/** The file name: "<task> · <loop>.txt", with what a path cannot hold replaced. */
export function loopFileName(taskName: string, loopName: string): string {
  return `${segment(taskName)} · ${segment(loopName)}.txt`;
}

export class LoopAddresses {
  private readonly byPath = new Map<string, LoopRef>();

  constructor(private readonly store?: AddressStore) {
    const kept = z.record(z.string(), z.unknown()).safeParse(store?.get());
    if (!kept.success) return;
    for (const [path, value] of Object.entries(kept.data)) {
      const ref = refSchema.safeParse(value);
      if (ref.success && isListPath(path)) this.byPath.set(path, ref.data);
    }
  }

  /** The path of a list named `fileName` ("<task> · <loop>.txt"): that name, or "<name> (2).txt" and on when another list holds it. */
  pathFor(ref: LoopRef, fileName: string): string {
    const base = fileName.replace(/\.txt$/, '');
    for (let n = 1; ; n++) {
      const path = `/${n === 1 ? base : `${base} (${n})`}.txt`;
      const known = this.byPath.get(path);
      if (known === undefined || sameRef(known, ref)) {
        this.remember(path, ref);
        return path;
      }
    }
  }

  /** What a document's address refers to; undefined for one Scrapedeck did not make here, or has forgotten. */
  refOf(uri: {
    readonly scheme: string;
    readonly authority: string;
    readonly path: string;
    readonly query: string;
  }): LoopRef | undefined {
    if (uri.scheme !== LOOP_SCHEME || uri.authority !== '' || uri.query !== '') return undefined;
    return this.byPath.get(uri.path);
  }

  /** What a list document of Scrapedeck refers to; undefined for anything else, the read-only copy shown beside a conflict included. */
  listRef(uri: Parameters<LoopAddresses['refOf']>[0]): LoopRef | undefined {
    const ref = this.refOf(uri);
    return ref?.snapshot === undefined ? ref : undefined;
  }

  /** The paths of every list document known here (not the copies shown beside a conflict). */
  listPaths(): string[] {
    return [...this.byPath].filter(([, ref]) => ref.snapshot === undefined).map(([path]) => path);
  }

  isList(uri: Parameters<LoopAddresses['refOf']>[0]): boolean {
    return this.listRef(uri) !== undefined;
  }

  private remember(path: string, ref: LoopRef): void {
    this.byPath.delete(path);
    this.byPath.set(path, ref);
    for (const oldest of this.byPath.keys()) {
      if (this.byPath.size <= ADDRESSES_KEPT) break;
      this.byPath.delete(oldest);
    }
    this.store?.set(Object.fromEntries(this.byPath));
  }
}

function sameRef(a: LoopRef, b: LoopRef): boolean {
  return (
    a.account === b.account &&
    a.taskId === b.taskId &&
    a.actionId === b.actionId &&
    a.loopType === b.loopType &&
    a.snapshot === b.snapshot
  );
}

function isListPath(path: string): boolean {
  return /^\/[^/]{1,250}\.txt$/.test(path);
}

/** A name as one path segment: no slashes or control characters, at most 80 characters. */
function segment(name: string): string {
  const clean = name
    // eslint-disable-next-line no-control-regex
    .replace(/[/\\\u0000-\u001f\u007f]+/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
  const short = clean.length > 80 ? `${clean.slice(0, 79)}…` : clean;
  return short === '' || short === '.' || short === '..' ? 'untitled' : short;
}
