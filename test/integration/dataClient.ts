/**
 * The integration data tests' way to the service: the signed-in account's client (asserted there)
 * and every row of a task read through it, to compare what a command wrote against.
 */
import * as assert from 'node:assert/strict';

import type { ScrapedeckClient } from '../../src/api/client';
import type { DataRow } from '../../src/api/schemas/dataSchemas';
import type { ScrapedeckTestApi } from '../../src/extension';

/** A node of the Tasks view that stands for a task, as its context menu passes it to a command. */
export interface TaskArg {
  task: { taskId: string; taskName: string };
}

export interface DataClient {
  client(): ScrapedeckClient;
  allRows(taskId: string): Promise<DataRow[]>;
}

/** `api` is read at each call: the suite gets it in its `before`. */
export function dataClient(api: () => ScrapedeckTestApi): DataClient {
  const client = (): ScrapedeckClient => {
    const c = api().account.getClient();
    assert.ok(c, 'signed in');
    return c;
  };
  const allRows = async (taskId: string): Promise<DataRow[]> => {
    const rows: DataRow[] = [];
    for await (const page of client().readData(taskId)) rows.push(...page.rows);
    return rows;
  };
  return { client, allRows };
}
