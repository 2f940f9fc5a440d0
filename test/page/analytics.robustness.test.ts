/**
 * 500 random malformed messages posted to the page: each is refused with a `log` warning, none
 * raises a page error, and the page still works afterwards.
 */
import * as assert from 'node:assert/strict';

import { encodeForPage } from '../../src/analytics/protocol/hostMessage';
import { assertClean, resultIdOf, runAndAnswer } from './flows';
import type { AnalyticsPage } from './harness';
import { record } from './records';
import { useStandIn } from './standIn';

/** A small deterministic PRNG so a failure can be replayed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TYPES = [
  'init',
  'queryResult',
  'fetchAllProgress',
  'fetchAllResult',
  'tasksPicked',
  'exportDone',
  'error',
  'signedIn',
  'state',
  'ready',
  '__proto__',
  'constructor',
  '',
];

function junk(rand: () => number, depth = 0): unknown {
  const pick = Math.floor(rand() * (depth > 2 ? 7 : 10));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return rand() < 0.5;
    case 2:
      return [Number.NaN, -1, 0, 1.5, 1e308, -0, 2 ** 53 + 1][Math.floor(rand() * 7)];
    case 3:
      return 'x'.repeat(Math.floor(rand() * 10));
    case 4:
      return rand() < 0.1 ? 'y'.repeat(200_000) : '<img src=x onerror=alert(1)>';
    case 5:
      return undefined;
    case 6:
      return '2026-13-45';
    case 7:
      return Array.from({ length: Math.floor(rand() * 4) }, () => junk(rand, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (const k of ['id', 'query', 'page', 'records', 'error', 'total', 'today', 'state', 'data', 'taskIds'])
        if (rand() < 0.4) o[k] = junk(rand, depth + 1);
      return o;
    }
  }
}

/** A message that looks like one of ours but is wrong somewhere (or is not an object at all). */
function malformed(rand: () => number, i: number): unknown {
  if (i % 10 === 0) return junk(rand, 3);
  const type = TYPES[Math.floor(rand() * TYPES.length)];
  const base: Record<string, unknown> = { type, id: rand() < 0.5 ? `id-${i}` : junk(rand) };
  switch (type) {
    case 'queryResult':
      base.query = rand() < 0.5 ? { start: '2026-11-16', end: junk(rand) } : junk(rand);
      base.page = { total: rand() < 0.5 ? -1 : 'many', data: [{ ...record(), executionMetrics: junk(rand) }] };
      break;
    case 'fetchAllResult':
      base.records = [record(), { ...record(), collectionMethod: 'Both' }];
      base.total = junk(rand);
      break;
    case 'init':
      base.today = junk(rand);
      base.state = { version: 1, result: { mode: 'page', records: junk(rand) } };
      break;
    case 'error':
      base.error = rand() < 0.5 ? { kind: 3, message: null } : junk(rand);
      break;
    default:
      for (const k of ['fetched', 'total', 'taskIds', 'path', 'signedIn']) if (rand() < 0.5) base[k] = junk(rand);
  }
  return base;
}

describe('analytics page: malformed messages', function () {
  const host = useStandIn();
  let p: AnalyticsPage;

  it('survives 500 random malformed messages, logs each one it refuses, and still works after', async function () {
    this.timeout(120_000);
    p = await host.open();
    const rand = prng(0x5eed);
    const messages = Array.from({ length: 500 }, (_, i) => malformed(rand, i));
    // Posted inside the page in batches: the same path as real host messages, without 500 round trips.
    for (let i = 0; i < messages.length; i += 50) {
      await p.page.evaluate(
        (batch) => {
          for (const m of batch)
            (globalThis as unknown as { postMessage(m: unknown, t: string): void }).postMessage(m, '*');
        },
        messages.slice(i, i + 50),
      );
    }
    await p.page.waitForFunction(
      () =>
        (globalThis as unknown as { __posted: { type: string }[] }).__posted.filter((m) => m.type === 'log').length >=
        450,
    );
    const logs = await p.postedOf('log');
    assert.ok(
      logs.every((l) => l.level === 'warn' && String(l.message).includes('malformed')),
      'each refusal is a warning',
    );
    assert.ok(
      logs.every((l) => String(l.message).length <= 4000),
      'log lines stay inside the protocol limit',
    );
    assert.deepEqual(p.errors, [], 'no page errors');

    // Still alive: a query runs and renders.
    await runAndAnswer(p, [record()], 1);
    assert.equal(await p.text('[data-figure="runs"]'), '4');
    await assertClean(p);
  });

  it('ignores messages that are valid but answer nothing it asked', async () => {
    p = await host.open();
    const query = { start: '2026-11-16', end: '2026-11-22' };
    await p.send({
      type: 'queryResult',
      id: 'never-asked',
      resultId: 'result-x',
      query,
      page: { total: 1, data: [record()] },
    });
    await p.send({
      type: 'fetchAllResult',
      id: 'never-asked',
      resultId: 'result-x',
      query,
      total: 1,
      records: [record()],
      requestIds: [],
    });
    await p.send({ type: 'tasksPicked', id: 'never-asked', taskIds: ['z'], taskLabels: ['Z'] });
    await p.send({ type: 'exportDone', id: 'never-asked', path: '/tmp/x' });
    await p.page.waitForTimeout(100);
    assert.equal(await p.page.locator('#results').isHidden(), true);
    assert.equal(await p.text('#f-tasks'), 'All tasks');
    assert.equal(await p.page.locator('#notice').isHidden(), true);
    await assertClean(p);
  });

  it('refuses, with a log line each, answers with an over-limit string or array, and shows nothing of them', async function () {
    this.timeout(120_000);
    p = await host.open();
    await p.page.click('#run');
    const q = await p.waitForPosted('query');
    const query = q.query as { start: string; end: string };
    const id = String(q.id);
    const resultId = resultIdOf(q);
    const over: unknown[] = [
      {
        type: 'queryResult',
        id,
        resultId,
        query,
        page: { total: 1, data: [record({ taskName: `HUGE${'n'.repeat(1_000_000)}` })] },
      },
      { type: 'queryResult', id, resultId, query, page: { total: 1, data: [record({ taskId: 'i'.repeat(129) })] } },
      { type: 'queryResult', id, resultId, query, page: { total: 1, data: [record({ userId: 'u'.repeat(129) })] } },
      { type: 'queryResult', id, resultId, query, page: { total: 1, data: [record({ dayKey: 'd'.repeat(65) })] } },
      { type: 'queryResult', id, resultId, query, page: { total: 1, data: [record()] }, requestId: 'r'.repeat(129) },
      encodeForPage({
        type: 'fetchAllResult',
        id,
        resultId,
        query: { start: query.start, end: query.end },
        total: 1,
        records: [record({ taskName: 'n'.repeat(301) })],
        requestIds: [],
      }),
      {
        type: 'fetchAllResult',
        id,
        resultId,
        query,
        total: 1,
        records: [record()],
        requestIds: Array.from({ length: 1_002 }, () => 'r'),
      },
      { type: 'tasksPicked', id, taskIds: Array.from({ length: 101 }, () => 't'), taskLabels: [] },
      { type: 'tasksPicked', id, taskIds: ['t'.repeat(129)], taskLabels: ['T'] },
      { type: 'exportDone', id, path: `/tmp/${'p'.repeat(40_000)}` },
    ];
    const logsBefore = (await p.postedOf('log')).length;
    // Posted inside the page, as the host's messages arrive (p.send would add its own sentinel message).
    await p.page.evaluate((batch) => {
      for (const m of batch)
        (globalThis as unknown as { postMessage(m: unknown, t: string): void }).postMessage(m, '*');
    }, over);
    await p.page.waitForFunction(
      (n) =>
        (globalThis as unknown as { __posted: { type: string }[] }).__posted.filter((m) => m.type === 'log').length >=
        n,
      logsBefore + over.length,
    );
    const logs = (await p.postedOf('log')).slice(logsBefore);
    assert.equal(logs.length, over.length, 'one log line per refused message');
    assert.ok(
      logs.every((l) => l.level === 'warn' && /malformed/.test(String(l.message)) && String(l.message).length <= 4000),
      JSON.stringify(logs).slice(0, 400),
    );
    assert.equal(await p.page.locator('#results').isHidden(), true, 'no result shown');
    assert.ok(!(await p.page.locator('body').innerText()).includes('HUGE'), 'nothing of the huge name on the page');
    // The query still waits for its real answer, and takes it.
    await p.send({ type: 'queryResult', id, resultId, query, page: { total: 1, data: [record()] } });
    await p.page.locator('#results').waitFor({ state: 'visible' });
    await assertClean(p);
  });
});
