/**
 * A sandbox of its own for one pull test: the demo account's big task with `rows` rows (seed 44,
 * no rate limit), a client on it, and every row the task has, read once to compare against.
 */
import type { ScrapedeckClient } from '../../src/api/client';
import type { DataRow } from '../../src/api/schemas/dataSchemas';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';
import { allRows, bigTask, sandboxClient } from './pullScenario';

export interface FreshSandbox {
  sandbox: RunningSandbox;
  client: ScrapedeckClient;
  task: { taskId: string; taskName: string };
  rows: DataRow[];
}

export async function freshSandbox(rows: number): Promise<FreshSandbox> {
  const sandbox = await startSandbox({ rateLimit: 0, seed: 44, bigTaskRows: rows });
  const client = sandboxClient(sandbox.info.baseUrl, sandbox.info.accounts[0]?.apiKey ?? '');
  const task = await bigTask(client);
  return { sandbox, client, task, rows: await allRows(client, task.taskId) };
}

/** Closes the client, then the sandbox; a set-up that failed half way leaves `f` undefined. */
export async function closeFresh(f: FreshSandbox | undefined): Promise<void> {
  await f?.client.close();
  await f?.sandbox.close();
}
