/**
 * Helpers for the runs suite: a sandbox on a clock the test moves (runs end when the test says,
 * no sleeping through a run), the settings pointed at it with a short refresh, a client of our own
 * to read back what the service holds, and the Tasks view's rows read through the provider.
 */
import * as assert from 'node:assert/strict';

import * as vscode from 'vscode';

import { MemoryCredentialsStore } from '../../src/api/auth/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { UnlimitedLimiter } from '../../src/api/http/limiter';
import type { ScrapedeckTestApi } from '../../src/extension';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';
import type { TasksNode } from '../../src/tasks/tasksProvider';
import { labelOf, waitFor } from './viewsHarness';

export const REFRESH_SECONDS = 2;
/** A started run waits this long (the test's clock) as Waiting before it extracts. */
export const QUEUE_MS = 5_000;

/** A clock the sandbox reads; moving it ends runs at once. */
export class TestClock {
  constructor(public ms = Date.now()) {}
  readonly now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface RunsSession {
  sandbox: RunningSandbox;
  clock: TestClock;
  apiKey(username: string): string;
  /** A client of the test's own, to read what the service holds (and to act as "someone else"). */
  client(username: string): ScrapedeckClient;
  dispose(): Promise<void>;
}

export async function startRunsSession(api: ScrapedeckTestApi): Promise<RunsSession> {
  const clock = new TestClock();
  // No rate limit: the sandbox counts requests per second of its clock, and this clock stands
  // still between the test's moves (the extension's own limiter still spaces its requests).
  const sandbox = await startSandbox({
    port: 0,
    now: clock.now,
    runSeconds: 30,
    queueSeconds: QUEUE_MS / 1000,
    rateLimit: 0,
  });
  const config = vscode.workspace.getConfiguration('scrapedeck');
  await config.update('baseUrl', sandbox.info.baseUrl, vscode.ConfigurationTarget.Global);
  await config.update('datahubUrl', sandbox.info.datahubUrl, vscode.ConfigurationTarget.Global);
  await config.update('runs.refreshSeconds', REFRESH_SECONDS, vscode.ConfigurationTarget.Global);
  await waitFor(
    'the account service to follow the settings',
    () => api.account.endpoints.baseUrl === sandbox.info.baseUrl,
  );
  await waitFor('the refresh setting', () => api.runs.settings().refreshSeconds === REFRESH_SECONDS);
  const apiKey = (username: string): string => {
    const a = sandbox.info.accounts.find((x) => x.username === username);
    assert.ok(a, `seeded account ${username}`);
    return a.apiKey;
  };
  const clients: ScrapedeckClient[] = [];
  return {
    sandbox,
    clock,
    apiKey,
    client(username) {
      const c = new ScrapedeckClient({
        baseUrl: sandbox.info.baseUrl,
        credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: apiKey(username) }),
        env: {},
        limiter: new UnlimitedLimiter(),
      });
      clients.push(c);
      return c;
    },
    async dispose() {
      if (api.account.account !== undefined) await vscode.commands.executeCommand('scrapedeck.signOut');
      for (const key of ['baseUrl', 'datahubUrl', 'runs.refreshSeconds', 'runs.notifyOnFinish'])
        await config.update(key, undefined, vscode.ConfigurationTarget.Global);
      await Promise.all(clients.map((c) => c.close()));
      await sandbox.close();
    },
  };
}

/** What the tests read of a task row (the provider's own node, duck-typed: the bundle's classes are not the test's). */
export interface Row extends vscode.TreeItem {
  task: { taskId: string; taskName: string };
  group: { taskGroupId: string; taskGroupName: string };
}

export function iconOf(item: vscode.TreeItem): string {
  return item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : '';
}

export async function groupRow(api: ScrapedeckTestApi, name: string): Promise<TasksNode> {
  const node = (await api.views.tasks.getChildren()).find((n) => labelOf(n) === name);
  assert.ok(node, `group ${name} shown`);
  return node;
}

/** The group's task rows, as the view has them now (listing them marks them as on screen). */
export async function taskRows(api: ScrapedeckTestApi, groupName: string): Promise<Row[]> {
  const rows = await api.views.tasks.getChildren(await groupRow(api, groupName));
  return rows.filter((r): r is Row & (typeof rows)[number] =>
    /\btask\b/.test(r.contextValue ?? ''),
  ) as unknown as Row[];
}

export async function taskRow(api: ScrapedeckTestApi, groupName: string, taskId: string): Promise<Row> {
  const row = (await taskRows(api, groupName)).find((r) => r.task.taskId === taskId);
  assert.ok(row, `task ${taskId} in ${groupName}`);
  return row;
}

/** Waits until the row satisfies `check` (the poll runs every REFRESH_SECONDS); returns it. */
export async function rowWhen(
  api: ScrapedeckTestApi,
  groupName: string,
  taskId: string,
  what: string,
  check: (row: Row) => boolean,
  timeoutMs = 30_000,
): Promise<Row> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const row = await taskRow(api, groupName, taskId);
    if (check(row)) return row;
    if (Date.now() > end)
      throw new Error(
        `timed out waiting for ${what}; the row shows ${iconOf(row)} "${String(row.description)}" [${row.contextValue ?? ''}]`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}
