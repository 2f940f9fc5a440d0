/**
 * The sandbox's data over raw HTTP: rows per task with their own field names and the awkward
 * values a writer must survive, paging by the returned offset, one run's rows, the not-exported
 * rule (handed-out rows stay pending until marked), remove, runs adding rows, plan refusals and
 * a big task generated on the fly.
 */
import * as assert from 'node:assert/strict';

import type { DataPage, NotExportedPage } from '../../src/api/schemas/dataSchemas';
import type { TaskStatusV2 } from '../../src/api/schemas/runSchemas';
import { lotNumber, LOTS_KEPT } from '../../src/sandbox/state/runBook';
import { codeOf, dataOf, FakeClock, messageOf, type Reply, TestSandbox } from './helpers/sandbox';

const T0 = Date.parse('2026-11-22T12:00:00Z');
const BIG = 1_000_000;

describe('sandbox: data', function () {
  const clock = new FakeClock(T0);
  let sb: TestSandbox;
  let key: string;
  let ids: string[];
  let bigId: string;

  before(async () => {
    sb = await TestSandbox.start({ now: clock.now, bigTaskRows: BIG, seed: 3 });
    key = sb.user('ada').apiKey;
    const groups = dataOf<{ taskGroupId: string; taskGroupName: string }[]>(await get('/taskGroup'));
    const search = async (gid: string | undefined) =>
      dataOf<{ taskId: string; taskName: string }[]>(await get(`/task/search?taskGroupId=${gid ?? ''}`));
    ids = (await search(groups[3]?.taskGroupId)).slice(0, 40).map((t) => t.taskId);
    const bench = await search(groups.find((g) => g.taskGroupName === 'Benchmarks')?.taskGroupId);
    assert.equal(bench.length, 1);
    assert.match(bench[0]?.taskName ?? '', /Big export \(1,000,000 rows\)/);
    bigId = bench[0]?.taskId as string;
  });
  after(() => sb.close());

  function get(path: string, apiKey = key): Promise<Reply> {
    return sb.call(path, { headers: { 'x-api-key': apiKey } });
  }
  const post = (path: string, body: unknown, apiKey = key): Promise<Reply> =>
    sb.call(path, { method: 'POST', headers: { 'x-api-key': apiKey }, body });
  const page = async (taskId: string, offset: number, size: number): Promise<DataPage> => {
    const r = await get(`/data/all?taskId=${taskId}&offset=${offset}&size=${size}`);
    assert.equal(r.status, 200, r.text);
    return dataOf<DataPage>(r);
  };
  const all = async (taskId: string, size = 1000): Promise<{ rows: Record<string, unknown>[]; pages: DataPage[] }> => {
    const rows: Record<string, unknown>[] = [];
    const pages: DataPage[] = [];
    for (let offset = 0; ;) {
      const p = await page(taskId, offset, size);
      pages.push(p);
      rows.push(...p.data);
      if (p.restTotal === 0) return { rows, pages };
      offset = p.offset;
    }
  };
  const refused = (r: Reply, status: number, code: string, message: RegExp): void => {
    assert.equal(r.status, status, r.text);
    assert.equal(codeOf(r), code);
    assert.match(messageOf(r), message);
  };
  const withRows = async (): Promise<string[]> => {
    const out: string[] = [];
    for (const id of ids) if ((await page(id, 0, 1)).total >= 40) out.push(id);
    assert.ok(out.length >= 5, 'tasks with rows');
    return out;
  };

  it('rows are flat objects of strings; field names differ between tasks; some tasks are empty', async () => {
    const fieldSets = new Set<string>();
    let empty = 0;
    for (const id of ids) {
      const p = await page(id, 0, 5);
      if (p.total === 0) {
        empty++;
        assert.deepEqual(p, { offset: 0, total: 0, restTotal: 0, data: [] });
        continue;
      }
      for (const row of p.data) for (const v of Object.values(row)) assert.equal(typeof v, 'string');
      fieldSets.add(Object.keys(p.data[0] ?? {}).join('|'));
    }
    assert.ok(fieldSets.size >= 3, `field sets: ${[...fieldSets].join(' / ')}`);
    assert.ok(empty >= 1, 'an empty task');
  });

  it('every task with rows carries empty, comma, quote, LF, CRLF, non-Latin and =, +, -, @, TAB leaders', async () => {
    for (const id of (await withRows()).slice(0, 5)) {
      const values = (await page(id, 0, 40)).data.flatMap((r) => Object.values(r).map(String));
      const has = (test: (v: string) => boolean, what: string) => assert.ok(values.some(test), `${what} in ${id}`);
      has((v) => v === '', 'empty');
      has((v) => v.includes(','), 'comma');
      has((v) => v.includes('"'), 'quote');
      has((v) => /[^\r]\n/.test(v), 'LF');
      has((v) => v.includes('\r\n'), 'CRLF');
      has((v) => [...v].some((c) => (c.codePointAt(0) ?? 0) > 0x24f), 'non-Latin');
      for (const lead of ['=', '+', '-', '@', '\t']) has((v) => v.startsWith(lead), `leading ${JSON.stringify(lead)}`);
    }
  });

  it('pages by the returned offset until restTotal is 0: every row once, in order, whatever the page size', async () => {
    const id = (await withRows())[0] as string;
    const big = await all(id, 1000);
    const small = await all(id, 7);
    assert.deepEqual(small.rows, big.rows);
    assert.equal(big.rows.length, big.pages[0]?.total);
    for (const p of small.pages) assert.equal(p.restTotal, (small.pages[0]?.total ?? 0) - p.offset);
    const beyond = await page(id, 10_000_000, 10);
    assert.deepEqual([beyond.data.length, beyond.restTotal], [0, 0]);
  });

  it('size and offset are checked; taskId is required; an unknown task is 404', async () => {
    const id = ids[0] as string;
    refused(await get(`/data/all?taskId=${id}&offset=0&size=0`), 400, 'InvalidParameter', /size/);
    refused(await get(`/data/all?taskId=${id}&offset=0&size=1001`), 400, 'InvalidParameter', /size/);
    refused(await get(`/data/all?taskId=${id}&offset=-1&size=10`), 400, 'InvalidParameter', /offset/);
    refused(await get(`/data/all?taskId=${id}&offset=0&size=ten`), 400, 'InvalidParameter', /size/);
    refused(await get(`/data/all?offset=0&size=10`), 400, 'InvalidParameter.Required', /taskId: is required/);
    refused(await get(`/data/notexported?taskId=${id}`), 400, 'InvalidParameter.Required', /size/);
    refused(await get(`/data/all?taskId=nope&offset=0&size=10`), 404, 'InvalidTaskId', /nope/);
  });

  it("one run's rows by lot number (19 digits) are a slice of all rows; an unknown lot, or one whose rows are gone, is 404 InvalidLotNo", async () => {
    const id = (await withRows())[1] as string;
    const everything = (await all(id)).rows;
    const runs =
      dataOf<TaskStatusV2[]>(await post('/cloudextraction/statuses/v2', { taskIds: [id] }))[0]?.executedTimes ?? 0;
    assert.ok(runs >= 1);
    const lots: Record<string, unknown>[][] = [];
    for (let n = Math.max(1, runs - LOTS_KEPT + 1); n <= runs; n++) {
      const lot = lotNumber(3, id, n);
      assert.match(lot, /^\d{19}$/);
      const r = await get(`/data/lotno/all?taskId=${id}&lotno=${lot}&offset=0&size=1000`);
      assert.equal(r.status, 200, r.text);
      lots.push(dataOf<DataPage>(r).data);
    }
    assert.deepEqual(lots.flat(), everything, 'the lots kept, in order, are all the rows');
    refused(
      await get(`/data/lotno/all?taskId=${id}&lotno=${lotNumber(3, id, runs + 1)}&offset=0&size=10`),
      404,
      'InvalidLotNo',
      /lotno/,
    );
    if (runs > LOTS_KEPT)
      refused(
        await get(`/data/lotno/all?taskId=${id}&lotno=${lotNumber(3, id, runs - LOTS_KEPT)}&offset=0&size=10`),
        404,
        'InvalidLotNo',
        /lotno/,
      );
  });

  it('not exported: handed-out rows come again until marked; marking covers only what was handed out', async () => {
    const id = (await withRows())[2] as string;
    const first = dataOf<NotExportedPage>(await get(`/data/notexported?taskId=${id}&size=5`));
    assert.ok(first.total > 5 && first.current === 5);
    const again = dataOf<NotExportedPage>(await get(`/data/notexported?taskId=${id}&size=5`));
    assert.deepEqual(again, first, 'the same pending rows before marking');
    const wider = dataOf<NotExportedPage>(await get(`/data/notexported?taskId=${id}&size=8`));
    assert.deepEqual(wider.data.slice(0, 5), first.data, 'a larger size: the same rows first, then more');
    assert.equal((await post('/data/markexported', { taskId: id })).status, 200);
    const next = dataOf<NotExportedPage>(await get(`/data/notexported?taskId=${id}&size=5`));
    assert.equal(next.total, first.total - 8, 'the 8 handed out are exported');
    assert.notDeepEqual(next.data[0], first.data[0]);
    assert.equal((await post('/data/markexported', { taskId: id })).status, 200, 'marking twice is harmless');
  });

  it('a run adds rows while it runs (a new lot); remove empties the task and offsets go on from where they were', async () => {
    const id = (await withRows())[3] as string;
    const before = await page(id, 0, 1);
    assert.equal((await post('/cloudextraction/start', { taskId: id })).status, 200);
    clock.advance(15_000);
    const during = await page(id, 0, 1);
    assert.ok(during.total > before.total, 'rows appear as the run collects them');
    clock.advance(15_000);
    const after = await page(id, 0, 1);
    assert.ok(after.total > during.total);
    assert.equal((await post('/data/remove', { taskId: id })).status, 200);
    const removed = await page(id, 0, 10);
    assert.deepEqual([removed.total, removed.restTotal, removed.data.length], [0, 0, 0]);
    // The run's count follows the rows the task still holds, not what it once collected (issue 32 item 5).
    const count = async () =>
      dataOf<TaskStatusV2[]>(await post('/cloudextraction/statuses/v2', { taskIds: [id] }))[0]
        ?.currentTotalExtractCount;
    assert.equal(await count(), 0);
    clock.advance(2_000);
    assert.equal(await count(), (await page(id, 0, 1)).total, 'rows collected after the removal are counted');
    assert.equal(
      dataOf<NotExportedPage>(await get(`/data/notexported?taskId=${id}&size=10`)).total,
      (await page(id, 0, 1)).total,
      'only those are new',
    );
    await post('/cloudextraction/start', { taskId: id });
    clock.advance(30_000);
    const fresh = await page(id, 0, 1000);
    assert.ok(fresh.total > 0, 'a later run brings new rows');
    assert.equal(fresh.offset, after.total + fresh.total, 'offsets are row numbers: they did not restart at 0');
  });

  it("Standard may use data; Free is refused (403 Forbidden.Plan); another account's task is unknown", async () => {
    const grace = sb.user('grace').apiKey;
    const graceGroups = dataOf<{ taskGroupId: string }[]>(await get('/taskGroup', grace));
    const graceTask = dataOf<{ taskId: string }[]>(
      await get(`/task/search?taskGroupId=${graceGroups[0]?.taskGroupId ?? ''}`, grace),
    )[0]?.taskId as string;
    assert.equal((await get(`/data/all?taskId=${graceTask}&offset=0&size=5`, grace)).status, 200);
    refused(await get(`/data/all?taskId=${graceTask}&offset=0&size=5`), 404, 'InvalidTaskId', /taskId/);
    const fiona = sb.user('fiona').apiKey;
    refused(
      await get(`/data/all?taskId=x&offset=0&size=5`, fiona),
      403,
      'Forbidden.Plan',
      /Standard, Professional or Enterprise.*Free plan/,
    );
    refused(await post('/data/remove', { taskId: 'x' }, fiona), 403, 'Forbidden.Plan', /Free/);
  });

  it('the big task: a million rows generated on the fly, any page at once, the same rows every time', async () => {
    const first = await page(bigId, 0, 1000);
    assert.deepEqual([first.total, first.offset, first.restTotal], [BIG, 1000, BIG - 1000]);
    const last = await page(bigId, BIG - 500, 1000);
    assert.deepEqual([last.data.length, last.offset, last.restTotal], [500, BIG, 0]);
    assert.deepEqual((await page(bigId, BIG - 500, 1)).data[0], last.data[0], 'deterministic');
    const pending = dataOf<NotExportedPage>(await get(`/data/notexported?taskId=${bigId}&size=1000`));
    assert.deepEqual([pending.total, pending.current], [BIG, 1000], 'nothing of it is exported yet');
  });
});
