/**
 * Exporting one run's rows (issue 28 item 1): the export job with a lot as its row source reads
 * `/data/lotno/all` page by page (as every export streams) and writes that run's rows only.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { MemoryCredentialsStore } from '../../src/api/auth/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { UnlimitedLimiter } from '../../src/api/http/limiter';
import { TaskExport } from '../../src/data/export/exportRows';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';
import { FakeClock } from './helpers/sandbox';

describe("data: export one run's rows by its lot", function () {
  const clock = new FakeClock(Date.parse('2026-11-22T12:00:00Z'));
  let sandbox: RunningSandbox;
  let client: ScrapedeckClient;
  let dir: string;

  before(async () => {
    sandbox = await startSandbox({ now: clock.now, rateLimit: 0, queueSeconds: 0, runSeconds: 30 });
    const apiKey = sandbox.info.accounts[0]?.apiKey ?? '';
    client = new ScrapedeckClient({
      baseUrl: sandbox.info.baseUrl,
      credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey }),
      limiter: new UnlimitedLimiter(),
      env: {},
      now: clock.now,
    });
    dir = mkdtempSync(path.join(os.tmpdir(), 'scrapedeck-lot-'));
  });
  after(async () => {
    await client.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a started run's lot: only its rows, in pages from /data/lotno/all", async () => {
    const group = (await client.listTaskGroups()).data[0];
    const task = (await client.searchTasks(group?.taskGroupId ?? '')).data[3] as { taskId: string };
    const started = await client.startTask(task.taskId);
    const lotNo = started.data?.lotNo;
    assert.ok(lotNo);
    clock.advance(31_000);
    const runRows = (await client.getLotData(task.taskId, lotNo, { offset: 0, size: 1000 })).data;
    const allRows = (await client.getData(task.taskId, { offset: 0, size: 1 })).data.total;
    assert.ok(runRows.total > 0 && runRows.total < allRows, `${runRows.total} of ${allRows} rows`);
    const before = sandbox.stats.byRoute['GET /data/lotno/all'] ?? 0;
    const target = path.join(dir, 'run.jsonl');
    const job = new TaskExport(client, {
      taskId: task.taskId,
      target,
      format: 'jsonl',
      source: { kind: 'lot', lotNo },
      read: { pageSize: 50 },
    });
    const result = await job.run();
    assert.equal(result.rows, runRows.total);
    const lines = readFileSync(target, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    assert.deepEqual(
      lines.map((l) => JSON.parse(l) as unknown),
      runRows.data,
    );
    assert.equal(
      (sandbox.stats.byRoute['GET /data/lotno/all'] ?? 0) - before,
      Math.ceil(runRows.total / 50),
      'streamed page by page',
    );
  });
});
