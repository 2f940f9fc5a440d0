/**
 * The extension host follows the run notices of the signed-in account's MCP server
 * (runNotices.ts): one file per account in the extension's global storage, watched while that
 * account is signed in, its new lines handed to runs. No `vscode`.
 */
import { createHash } from 'node:crypto';
import { type FSWatcher, mkdirSync, watch } from 'node:fs';
import * as path from 'node:path';

import { accountKey } from '../account/accountSession';
import type { Account } from '../account/clientHolder';
import { NoticeReader } from './runNotices';
import type { RunHook } from './tool';

export class RunNoticeFollower {
  private watcher: FSWatcher | undefined;

  constructor(
    private readonly dir: string,
    private readonly log: { warn(message: string): void },
  ) {}

  /** The account's file: named by a hash of its non-secret key, so no address or name shows. */
  fileFor(account: Account): string {
    return path.join(this.dir, `${createHash('sha256').update(accountKey(account)).digest('hex').slice(0, 16)}.jsonl`);
  }

  /** Follows `account`'s file from now on (nothing while signed out or without runs). */
  follow(account: Account | undefined, hook: RunHook | undefined): void {
    this.dispose();
    if (account === undefined || hook === undefined) return;
    const file = this.fileFor(account);
    try {
      mkdirSync(this.dir, { recursive: true });
      const reader = new NoticeReader(file, hook);
      const name = path.basename(file);
      // The folder, not the file: the file may not exist yet, or be started again.
      this.watcher = watch(this.dir, (_event, changed) => {
        if (changed === null || changed === name) reader.poll();
      });
      this.watcher.on('error', (e) =>
        this.log.warn(`Runs started by the MCP server show at the next refresh: ${e.message}`),
      );
    } catch (e) {
      this.log.warn(
        `Runs started by the MCP server show at the next refresh: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }

  dispose(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }
}
