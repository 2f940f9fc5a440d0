/**
 * The fast path for result records (src/analytics/protocol/fastRecords.ts, hostMessage.ts) never
 * accepts what the schema refuses, and when it accepts, it yields exactly the schema's output.
 */
import * as assert from 'node:assert/strict';

import { type HostMessage, hostMessageSchema, MESSAGE_LIMITS, parseMessage } from '../../src/analytics/protocol';
import { fastPackedRecord, fastRecord } from '../../src/analytics/protocol/fastRecords';
import { encodeForPage, parseHostMessage } from '../../src/analytics/protocol/hostMessage';
import { PACKED_FIELDS, packRecord, unpackRecord } from '../../src/analytics/protocol/packedRecords';
import { type AnalyticsRecord, analyticsRecordSchema } from '../../src/api/schemas/schemas';
import { blankRecord, oneSuccessfulRun, WEEK_47 } from '../shared/analyticsRecords';

const base = blankRecord({
  taskId: 't-1',
  userId: 'u-1',
  taskName: 'Prices',
  ...WEEK_47,
  dataVolumeMetrics: { totalCollected: 10, deduplicatedVolume: null },
  executionMetrics: oneSuccessfulRun(2.5),
  resourceUsageMetrics: { captchaCount: 0, simpleTemplateCount: null, proxyIpCount: 0.5, balance: 0.01 },
});

function prng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/** Includes strings at and just over each record text limit (64, 128, 300) and a megabyte one. */
const ODD: unknown[] = [
  null,
  undefined,
  0,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  '5',
  '2026-11-16',
  '2026-02-30',
  'Cloud',
  'Both',
  true,
  [],
  {},
  [1],
  { a: 1 },
  'd'.repeat(64),
  'd'.repeat(65),
  'i'.repeat(128),
  'i'.repeat(129),
  'n'.repeat(300),
  'n'.repeat(301),
  'm'.repeat(1_000_000),
];

/** `base` with a few fields (top level or nested) replaced by odd values, deleted, or extra keys added. */
function mutate(rand: () => number): unknown {
  const r: Record<string, unknown> = JSON.parse(JSON.stringify(base));
  const groups = ['dataVolumeMetrics', 'executionMetrics', 'resourceUsageMetrics'];
  const n = 1 + Math.floor(rand() * 3);
  for (let i = 0; i < n; i++) {
    const odd = ODD[Math.floor(rand() * ODD.length)];
    const top = Object.keys(base);
    const key = top[Math.floor(rand() * top.length)] ?? 'taskId';
    const group = r[key];
    if (groups.includes(key) && typeof group === 'object' && group !== null && !Array.isArray(group) && rand() < 0.8) {
      const inner = group as Record<string, unknown>;
      const ik = Object.keys(inner)[Math.floor(rand() * Object.keys(inner).length)] ?? 'x';
      if (rand() < 0.15) delete inner[ik];
      else inner[ik] = odd;
    } else if (rand() < 0.15) {
      delete r[key];
    } else if (rand() < 0.1) {
      r.extra = odd;
    } else {
      r[key] = odd;
    }
  }
  return r;
}

describe('webview protocol: fast path for result records', () => {
  it('agrees with analyticsRecordSchema on 5,000 mutated records (never looser, same output)', () => {
    const rand = prng(42);
    let accepted = 0;
    for (let i = 0; i < 5000; i++) {
      const input = mutate(rand);
      const fast = fastRecord(input);
      const slow = analyticsRecordSchema.safeParse(input);
      if (fast) {
        accepted++;
        assert.ok(slow.success, `fast accepted what zod refuses: ${JSON.stringify(input)}`);
        assert.deepEqual(fast, slow.data);
      }
    }
    assert.ok(accepted > 500, `the fast path takes the common case (${accepted})`);
  });

  it('refuses, like zod, a record whose task id, user id, task name or date bucket is over its limit', () => {
    const limits = { taskId: 128, userId: 128, taskName: 300, dayKey: 64 } as const;
    for (const [key, max] of Object.entries(limits)) {
      const at = { ...base, [key]: 'x'.repeat(max) };
      assert.deepEqual(fastRecord(at), analyticsRecordSchema.parse(at), `${key} at ${max} is fine`);
      const over = { ...base, [key]: 'x'.repeat(max + 1) };
      assert.equal(fastRecord(over), undefined, `${key} over ${max}: the fast path leaves it to zod`);
      assert.equal(analyticsRecordSchema.safeParse(over).success, false, `${key} over ${max}: zod refuses`);
      assert.equal(fastPackedRecord(packRecord(over as unknown as AnalyticsRecord)), undefined, `${key} packed`);
    }
    const huge = {
      type: 'queryResult',
      id: 'q',
      resultId: 'r',
      query: { start: '2026-11-16', end: '2026-11-22' },
      page: { total: 1, data: [{ ...base, taskName: 'n'.repeat(1_000_000) }] },
    };
    const parsed = parseHostMessage(huge);
    assert.equal(parsed.ok, false);
    assert.match(parsed.ok ? '' : parsed.reason, /^page\.data\.0\.taskName:/);
  });

  it('accepts the plain valid record and its null and missing nullable fields like zod', () => {
    const { taskName: _n, weekStartDate: _w, ...rest } = base;
    for (const input of [base, rest, { ...base, taskName: null, weekEndDate: null }]) {
      const slow = analyticsRecordSchema.parse(input);
      assert.deepEqual(fastRecord(input), slow);
    }
  });

  it('parses whole result messages exactly as hostMessageSchema does', () => {
    const query = { start: '2026-11-16', end: '2026-11-22' };
    const messages: unknown[] = [
      { type: 'queryResult', id: 'q', resultId: 'r', query, page: { total: 2, data: [base, base] }, requestId: 'r' },
      { type: 'fetchAllResult', id: 'q', resultId: 'r', query, total: 1, records: [base], requestIds: ['a'] },
      {
        type: 'fetchAllResult',
        id: 'q',
        resultId: 'r',
        query,
        total: 1,
        records: [{ ...base, collectionMethod: 'Both' }],
        requestIds: [],
      },
      { type: 'fetchAllResult', id: '', resultId: 'r', query, total: 1, records: [base], requestIds: [] },
      { type: 'queryResult', id: 'q', resultId: 'r', query: { start: 'x' }, page: { total: 1, data: [base] } },
      { type: 'queryResult', id: 'q', resultId: 'r', query, page: { total: -1, data: [base] } },
      { type: 'queryResult', id: 'q', resultId: 'r', query, page: null },
      { type: 'fetchAllProgress', id: 'q', fetched: 2, total: 5, at: 0, records: [base, base] },
      { type: 'fetchAllProgress', id: 'q', fetched: 2, total: 5, records: [base] },
      { type: 'fetchAllProgress', id: 'q', fetched: 2, total: 5, at: 1, records: [{ ...base, taskId: 7 }] },
      { type: 'fetchAllProgress', id: 'q', fetched: 2, total: 5 },
      { type: 'fetchAllProgress', id: 'q', fetched: 2, total: 5, at: -1, records: [base] },
      { type: 'fetchAllResult', id: 'q', resultId: 'r', query, total: 3, records: [base], streamed: 2, requestIds: [] },
      {
        type: 'fetchAllResult',
        id: 'q',
        resultId: 'r',
        query,
        total: 3,
        records: [base],
        streamed: -2,
        requestIds: [],
      },
    ];
    for (const m of messages) {
      const fast = parseHostMessage(m);
      const slow = parseMessage(hostMessageSchema, m);
      assert.equal(fast.ok, slow.ok, JSON.stringify(m).slice(0, 80));
      if (fast.ok && slow.ok) assert.deepEqual(fast.message, slow.message);
    }
  });

  describe('packed rows (the wire form of a fetch-all result)', () => {
    const record = analyticsRecordSchema.parse(base);

    it('packs every field once, in PACKED_FIELDS order, and unpacks to the same record', () => {
      const row = packRecord(record);
      assert.equal(row.length, PACKED_FIELDS.length);
      assert.deepEqual(analyticsRecordSchema.parse(unpackRecord(row)), record);
      assert.deepEqual(fastPackedRecord(row), record);
    });

    it('agrees with analyticsRecordSchema on 5,000 mutated rows (never looser, same output)', () => {
      const rand = prng(7);
      let accepted = 0;
      for (let i = 0; i < 5000; i++) {
        const row: unknown[] = [...packRecord(record)];
        const n = 1 + Math.floor(rand() * 3);
        for (let j = 0; j < n; j++) {
          const roll = rand();
          if (roll < 0.1) row.pop();
          else if (roll < 0.15) row.push(1);
          else row[Math.floor(rand() * row.length)] = ODD[Math.floor(rand() * ODD.length)];
        }
        const fast = fastPackedRecord(row);
        const slow = analyticsRecordSchema.safeParse(unpackRecord(row));
        if (fast) {
          accepted++;
          assert.ok(slow.success, `fast accepted what zod refuses: ${JSON.stringify(row)}`);
          assert.deepEqual(fast, slow.data);
        }
      }
      assert.ok(accepted > 400, `the fast path takes the common case (${accepted})`);
    });

    it('a message encoded by the host parses back to exactly the message', () => {
      const query = { start: '2026-11-16', end: '2026-11-22' };
      const message: HostMessage = {
        type: 'fetchAllResult',
        id: 'f',
        resultId: 'r',
        query,
        total: 3,
        records: [record, { ...record, taskName: null }, record],
        requestIds: ['a'],
      };
      const wire = encodeForPage(message) as Record<string, unknown>;
      assert.ok(!('records' in wire) && Array.isArray(wire.rows), 'records travel as rows');
      assert.deepEqual(parseHostMessage(wire), { ok: true, message });
      // A progress with rows travels the same way; one without travels as it is.
      const progress: HostMessage = {
        type: 'fetchAllProgress',
        id: 'f',
        fetched: 200,
        total: 300,
        at: 100,
        records: [record, { ...record, taskName: null }],
      };
      const progressWire = encodeForPage(progress) as Record<string, unknown>;
      assert.ok(!('records' in progressWire) && Array.isArray(progressWire.rows), 'progress rows travel packed');
      assert.deepEqual(parseHostMessage(progressWire), { ok: true, message: progress });
      const bare: HostMessage = { type: 'fetchAllProgress', id: 'f', fetched: 200, total: 300 };
      assert.deepEqual(parseHostMessage(encodeForPage(bare)), { ok: true, message: bare });
      // Other messages travel as they are.
      const other: HostMessage = { type: 'signedIn', signedIn: true };
      assert.equal(encodeForPage(other), other);
    });

    it('a bad packed row is refused by zod, which names the record and field', () => {
      const rows = [packRecord(record), [...packRecord(record)]];
      (rows[1] as unknown[])[6] = 'Both';
      const parsed = parseHostMessage({
        type: 'fetchAllResult',
        id: 'f',
        resultId: 'r',
        query: { start: '2026-11-16', end: '2026-11-22' },
        total: 2,
        rows,
        requestIds: [],
      });
      assert.equal(parsed.ok, false);
      assert.match(parsed.ok ? '' : parsed.reason, /^records\.1\.collectionMethod:/);
      const short = parseHostMessage({
        type: 'fetchAllResult',
        id: 'f',
        resultId: 'r',
        query: { start: '2026-11-16', end: '2026-11-22' },
        total: 1,
        rows: [[1, 2]],
        requestIds: [],
      });
      assert.match(short.ok ? '' : short.reason, /^records\.0:/);
      const inProgress = parseHostMessage({ type: 'fetchAllProgress', id: 'f', fetched: 2, total: 9, at: 0, rows });
      assert.match(inProgress.ok ? '' : inProgress.reason, /^records\.1\.collectionMethod:/);
    });

    it('more rows than a message may carry are refused, as zod refuses them, without checking each', () => {
      const row = packRecord(record);
      const rows = new Array<unknown>(MESSAGE_LIMITS.records + 1).fill(row);
      const parsed = parseHostMessage({ type: 'fetchAllProgress', id: 'f', fetched: 1, total: 1, at: 0, rows });
      assert.equal(parsed.ok, false);
      assert.match(parsed.ok ? '' : parsed.reason, /^records:/);
    });
  });
});
