/**
 * A task's rows at the sandbox, browsed as Browse Data does it (data/browse/host/browsers.ts),
 * without VS Code: the client's data reader (at the rate bound), the first page into a private
 * spool, the page opened (headless Chromium, the host's real session over the spool's store),
 * the rest streamed in with the count. Timed from the command (before the first request) to the
 * first rows painted, and to every row loaded and counted on the page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { MemoryCredentialsStore } from '../src/api/auth/auth';
import { ScrapedeckClient } from '../src/api/client';
import { spoolPages } from '../src/data/browse/store/rowSources';
import { RowSpool } from '../src/data/browse/store/rowSpool';
import { RowStore } from '../src/data/browse/store/rowStore';
import { BENCH_GROUP_NAME } from '../src/sandbox/seed/seed';
import { firstRowsPainted, openPage } from './browsePage';
import type { ChildSandbox } from './childSandbox';

export interface TaskFigures {
  firstPaintMs: number;
  loadedMs: number;
  rows: number;
  requests: number;
  limited: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function browseTask(root: string, sandbox: ChildSandbox, expected: number): Promise<TaskFigures> {
  const ada = sandbox.info.accounts[0];
  if (!ada) throw new Error('no demo account');
  const client = new ScrapedeckClient({
    baseUrl: sandbox.info.baseUrl,
    credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: ada.apiKey }),
    env: {},
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'browse-task-'));
  let spool: RowSpool | undefined;
  let close: (() => Promise<void>) | undefined;
  try {
    const group = (await client.listTaskGroups()).data.find((g) => g.taskGroupName === BENCH_GROUP_NAME);
    const task = group === undefined ? undefined : (await client.searchTasks(group.taskGroupId)).data[0];
    if (!task) throw new Error('the sandbox has no big task');
    // The browser runs before the command, as VS Code's webview host does; the store is the spool's.
    const abort = new AbortController();
    spool = await RowSpool.create(dir);
    const s = spool;
    const opened = await openPage(root, new RowStore(s.file), `Data of “${task.taskName}”`, {
      stop: () => abort.abort(),
    });
    close = opened.close;
    await sleep(1100); // an empty rate window, as a user's click finds it
    const before = await sandbox.stats();
    const started = performance.now();
    const pages = client.readData(task.taskId, { signal: abort.signal })[Symbol.asyncIterator]();
    const first = await pages.next();
    if (!first.done) await s.append(first.value.rows);
    await opened.go();
    const loading = (async () => {
      const result =
        first.done === true
          ? { total: s.count }
          : await spoolPages(
              s,
              { [Symbol.asyncIterator]: () => pages },
              {
                signal: abort.signal,
                onProgress: (p) => opened.session.progress({ loaded: p.loaded, total: p.total }),
              },
            );
      opened.session.progress({ state: 'done', total: result.total });
      return performance.now() - started;
    })();
    await firstRowsPainted(opened.page);
    const firstPaintMs = performance.now() - started;
    const loadedMs = await loading;
    // Counted on the page: "100,000 rows" once the load is done.
    await opened.page
      .locator('.count', { hasText: `${expected.toLocaleString('en-US')} rows` })
      .waitFor({ timeout: 30_000 });
    const after = await sandbox.stats();
    if (opened.errors.length > 0) throw new Error(`the page or the session reported: ${opened.errors[0] ?? ''}`);
    return {
      firstPaintMs,
      loadedMs,
      rows: s.count,
      requests: after.requests - before.requests,
      limited: after.status429 - before.status429,
    };
  } finally {
    await close?.();
    await spool?.close();
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
