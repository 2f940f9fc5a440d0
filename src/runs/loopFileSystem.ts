/**
 * The `scrapedeck:` documents: a task's loop items as text, one item a line. Reading asks the
 * service (get actions); saving checks every line first (problems become diagnostics on their
 * lines and nothing is sent), then compares the service's list with the one this document was
 * read from: if someone else changed it meanwhile, nothing is sent and both lists open side by
 * side; otherwise the list is replaced (update loop items, `isAppend: false`).
 *
 * A save that fails throws a `FileSystemError` whose message VS Code shows ("Failed to save …"),
 * and the document stays dirty: nothing typed is lost. A document of another account (or signed
 * out) is neither read nor saved: it reads as a read-only placeholder that says so, and when the
 * account changes every list is announced as changed, so VS Code replaces what it still holds of
 * the other account's lists (an editor brought back by View: Reopen Closed Editor) with it.
 */
import * as vscode from 'vscode';

import type { ScrapedeckClient } from '../api/client';
import { isApiError } from '../api/errors/errors';
import { LOOP_ACTION } from '../api/ops/tasks';
import { wrapText } from '../platform/prompts/wrapText';
import type { LoopDiagnostics } from './loopDiagnostics';
import { decideSave, loopText, parseLoopText } from './loopItems';
import { LOOP_SCHEME, type LoopAddresses, type LoopRef } from './loopUri';

const t = vscode.l10n.t;

export interface LoopFsDeps {
  getClient(): ScrapedeckClient | undefined;
  /** The signed-in account's key (`accountsMenuSession(..).id`), undefined when signed out. */
  accountKey(): string | undefined;
  diagnostics: LoopDiagnostics;
  /** What each document's path refers to. */
  addresses: LoopAddresses;
  /** Shows the service's list (`theirs`, read-only) beside the document (`mine`). */
  showConflict(theirs: vscode.Uri, mine: vscode.Uri): void;
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>;
  now?: () => number;
}

interface Base {
  items: string[];
  mtime: number;
  /** When the items were read (a document opened right after the command read them needs no second request). */
  readAt: number;
}

/** A list the command has just read is served from memory for this long when the editor opens it. */
const PRIMED_MS = 5_000;

export class LoopFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  /** Per document (address without the snapshot): the list it was read from or last saved. */
  private readonly bases = new Map<string, Base>();
  private readonly snapshots = new Map<string, string[]>();
  private nextSnapshot = 1;
  /** When the account last changed: the time of every placeholder (VS Code reads a list again when its time moves). */
  private accountChangedAt = 0;

  constructor(private readonly deps: LoopFsDeps) {}

  private get now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** The command read these items just now: the editor's first read needs no request. */
  prime(uri: vscode.Uri, items: string[]): void {
    const key = uri.toString();
    const mtime = this.bases.get(key)?.mtime ?? this.now;
    this.bases.set(key, { items, mtime, readAt: this.now });
  }

  /**
   * Another account or signed out: forget every list read (and the copies shown beside conflicts),
   * and say every list changed, so VS Code reads it again (a placeholder, for another account's).
   */
  forget(): void {
    this.bases.clear();
    this.snapshots.clear();
    this.accountChangedAt = Math.max(this.now, this.accountChangedAt + 1);
    const changed = this.deps.addresses
      .listPaths()
      .map((path) => ({ type: vscode.FileChangeType.Changed, uri: vscode.Uri.from({ scheme: LOOP_SCHEME, path }) }));
    if (changed.length > 0) this.emitter.fire(changed);
  }

  /** A list of another account than the one signed in (or signed out): shown only as a placeholder. */
  private isForeign(ref: LoopRef): boolean {
    const key = this.deps.accountKey();
    return key === undefined || key !== ref.account;
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const ref = this.refOf(uri);
    if (ref.snapshot !== undefined) {
      const items = this.snapshots.get(uri.toString());
      if (items === undefined) throw vscode.FileSystemError.FileNotFound(uri);
      return {
        type: vscode.FileType.File,
        ctime: 0,
        mtime: 0,
        size: byteLength(items),
        permissions: vscode.FilePermission.Readonly,
      };
    }
    if (this.isForeign(ref)) {
      return {
        type: vscode.FileType.File,
        ctime: 0,
        mtime: this.accountChangedAt,
        size: placeholder(uri).byteLength,
        permissions: vscode.FilePermission.Readonly,
      };
    }
    // The time only moves when this window saves: VS Code's own "newer on disk" check stays out of
    // the way, and the comparison of lists in writeFile decides (it also sees same-size changes).
    const base = this.bases.get(uri.toString());
    return { type: vscode.FileType.File, ctime: 0, mtime: base?.mtime ?? 0, size: base ? byteLength(base.items) : 0 };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const ref = this.refOf(uri);
    if (ref.snapshot !== undefined) {
      const items = this.snapshots.get(uri.toString());
      if (items === undefined) throw vscode.FileSystemError.FileNotFound(uri);
      return encode(items);
    }
    if (this.isForeign(ref)) return placeholder(uri);
    const key = uri.toString();
    const primed = this.bases.get(key);
    if (primed && this.now - primed.readAt < PRIMED_MS) return encode(primed.items);
    const items = await this.fetchItems(ref, uri);
    this.bases.set(key, { items, mtime: primed?.mtime ?? this.now, readAt: this.now });
    return encode(items);
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const ref = this.refOf(uri);
    if (ref.snapshot !== undefined)
      throw vscode.FileSystemError.Unavailable(
        t('This is a copy of the service’s list, for comparing; it cannot be saved.'),
      );
    const parsed = parseLoopText(new TextDecoder('utf-8').decode(content), ref.loopType, t);
    this.deps.diagnostics.set(uri, parsed.problems);
    // Saving with Ctrl+S says this in Scrapedeck's own words (runs/saveList.ts); other ways to
    // save come here, and VS Code wraps the sentence in its own "Failed to save" message.
    if (parsed.problems.length > 0) throw vscode.FileSystemError.Unavailable(notSavedText(uri, parsed.problems.length));
    const client = this.clientFor(ref, uri);
    const key = uri.toString();
    const current = await this.fetchItems(ref, uri);
    const decision = decideSave(this.bases.get(key)?.items, current, parsed.items);
    if (decision.kind === 'conflict') {
      // Shown once: the next save replaces their list with this one, as the message says.
      this.bases.set(key, { items: current, mtime: this.bases.get(key)?.mtime ?? this.now, readAt: this.now });
      this.deps.showConflict(this.snapshotOf(ref, uri, current), uri);
      this.deps.log.warn(
        `Loop ${ref.actionId} of task ${ref.taskId}: changed on the service since it was read; not saved, compare shown.`,
      );
      throw vscode.FileSystemError.Unavailable(
        t(
          'Not saved: this list was changed on the service after you opened it. Both versions are open side by side. Save again to replace theirs with yours, or revert the file to take theirs.',
        ),
      );
    }
    if (decision.kind === 'write') {
      try {
        const result = await client.updateLoopItems({
          taskId: ref.taskId,
          actionId: ref.actionId,
          loopType: ref.loopType,
          loopItems: parsed.items,
          isAppend: false,
        });
        this.deps.log.info(
          `Replaced loop ${ref.actionId} of task ${ref.taskId}: ${parsed.items.length} item(s)${result.requestId ? ` (request ID ${result.requestId})` : ''}`,
        );
      } catch (error) {
        throw failure(t('Not saved'), error);
      }
    }
    const previous = this.bases.get(key)?.mtime ?? 0;
    this.bases.set(key, { items: parsed.items, mtime: Math.max(this.now, previous + 1), readAt: this.now });
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions(t('Scrapedeck lists cannot hold folders.'));
  }

  delete(): void {
    throw vscode.FileSystemError.NoPermissions(t('A task’s list cannot be deleted from here.'));
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions(t('A task’s list cannot be renamed.'));
  }

  dispose(): void {
    this.emitter.dispose();
  }

  private refOf(uri: vscode.Uri): LoopRef {
    const ref = this.deps.addresses.refOf(uri);
    if (ref === undefined) throw vscode.FileSystemError.FileNotFound(uri);
    return ref;
  }

  private clientFor(ref: LoopRef, uri: vscode.Uri): ScrapedeckClient {
    const key = this.deps.accountKey();
    const client = this.deps.getClient();
    if (key === undefined || client === undefined)
      throw vscode.FileSystemError.Unavailable(t('Sign in to Scrapedeck to open or save {0}.', fileName(uri)));
    if (key !== ref.account) {
      throw vscode.FileSystemError.Unavailable(
        t(
          '{0} belongs to another Scrapedeck account than the one signed in; sign in to that account to open or save it.',
          fileName(uri),
        ),
      );
    }
    return client;
  }

  private async fetchItems(ref: LoopRef, uri: vscode.Uri): Promise<string[]> {
    const client = this.clientFor(ref, uri);
    let reply;
    try {
      reply = await client.getActions([ref.taskId], [LOOP_ACTION]);
    } catch (error) {
      throw failure(t('Could not read {0}', fileName(uri)), error);
    }
    const action = reply.data.find((a) => a.taskId === ref.taskId)?.actions.find((a) => a.actionId === ref.actionId);
    if (action?.loopItems == null) {
      throw vscode.FileSystemError.FileNotFound(
        t('The task no longer has this list ({0}), or it is not in this account.', fileName(uri)),
      );
    }
    return action.loopItems;
  }

  private snapshotOf(ref: LoopRef, uri: vscode.Uri, items: string[]): vscode.Uri {
    const snapshot = String(this.nextSnapshot++);
    const base = fileName(uri).replace(/\.txt$/, '');
    const copy = uri.with({
      path: this.deps.addresses.pathFor({ ...ref, snapshot }, `${t('{0} (on the service)', base)}.txt`),
    });
    this.snapshots.set(copy.toString(), items);
    return copy;
  }
}

/** One sentence: the document by its name (never its address), how many lines, and that nothing was sent. */
export function notSavedText(uri: vscode.Uri, count: number): string {
  return count === 1
    ? t('“{0}” was not saved: 1 line needs fixing first (it is underlined); nothing was sent.', fileName(uri))
    : t(
        '“{0}” was not saved: {1} lines need fixing first (they are underlined); nothing was sent.',
        fileName(uri),
        count,
      );
}

/** What a list of another account (or any, signed out) reads as: nothing of that account's but its name. */
export function placeholderText(uri: vscode.Uri): string {
  return t(
    '{0} belongs to another Scrapedeck account than the one signed in (or you are signed out), so its items are not shown. Sign in to that account and open the list again from its task.',
    fileName(uri),
  );
}

/** The placeholder's bytes: its sentence on short lines (one line of it ran off the editor's edge). */
function placeholder(uri: vscode.Uri): Uint8Array {
  return new TextEncoder().encode(`${wrapText(placeholderText(uri))}\n`);
}

function fileName(uri: vscode.Uri): string {
  return uri.path.split('/').pop() ?? uri.path;
}

function encode(items: readonly string[]): Uint8Array {
  return new TextEncoder().encode(loopText(items));
}

function byteLength(items: readonly string[]): number {
  return encode(items).byteLength;
}

/** A failure as the "Failed to save" message shows it: what, the service's words, and the request ID to quote. */
function failure(what: string, error: unknown): vscode.FileSystemError {
  const message = error instanceof Error ? error.message.replace(/[.\s]+$/, '') : String(error);
  const requestId = isApiError(error) ? error.requestId : undefined;
  const text = requestId ? t('{0}: {1} (request ID {2}).', what, message, requestId) : t('{0}: {1}.', what, message);
  return vscode.FileSystemError.Unavailable(text);
}
