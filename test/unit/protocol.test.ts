/** The panel <-> page messages (src/analytics/protocol/): what parses, what is refused, both directions. */
import * as assert from 'node:assert/strict';

import { hostMessageSchema, pageMessageSchema, pageStateSchema, parseMessage } from '../../src/analytics/protocol';

const query = {
  start: '2026-11-16',
  end: '2026-11-22',
  page: 1,
  pageSize: 20,
  collectionMethod: 'All',
  timeGranularity: 'Week',
};
const record = {
  taskId: 't-1',
  userId: 'u-1',
  taskName: null,
  dayKey: '2026-W47',
  weekStartDate: '2026-11-16',
  weekEndDate: '2026-11-22',
  collectionMethod: 'Local',
  dataVolumeMetrics: { totalCollected: null, deduplicatedVolume: 3 },
  executionMetrics: {
    runCount: 2,
    successCount: null,
    failureCount: 0,
    durationPerRunSeconds: 1.5,
    totalExecutionSeconds: null,
    successRate: null,
    failureRate: 0,
  },
  resourceUsageMetrics: { captchaCount: null, simpleTemplateCount: null, proxyIpCount: 0.5, balance: null },
};

describe('webview protocol', () => {
  describe('host -> page', () => {
    const valid: unknown[] = [
      { type: 'init', today: '2026-11-22' },
      { type: 'init', today: '2026-11-22', preset: { taskIds: ['t-1'], label: 'Prices' }, state: { version: 1 } },
      {
        type: 'queryResult',
        id: 'q1',
        resultId: 'result-1',
        query,
        page: { total: 1, data: [record] },
        requestId: 'r-1',
      },
      { type: 'fetchAllProgress', id: 'q2', fetched: 100, total: 250 },
      {
        type: 'fetchAllResult',
        id: 'q2',
        resultId: 'result-2',
        query,
        total: 1,
        records: [record],
        requestIds: ['a', 'b'],
      },
      { type: 'tasksPicked', id: 'p1', taskIds: ['t-1'], taskLabels: ['Prices'] },
      { type: 'exportDone', id: 'e1', path: '/tmp/x.csv' },
      {
        type: 'error',
        id: 'q1',
        error: {
          kind: 'invalid-request',
          message: 'end is after today',
          status: 400,
          code: 4001,
          requestId: 'r-9',
          field: 'end',
        },
      },
      { type: 'signedIn', signedIn: false },
    ];
    for (const m of valid) {
      it(`accepts ${JSON.stringify(m).slice(0, 70)}…`, () => {
        const r = parseMessage(hostMessageSchema, m);
        assert.ok(r.ok, r.ok ? '' : r.reason);
      });
    }

    const invalid: [string, unknown][] = [
      ['null', null],
      ['an array', [{ type: 'init', today: '2026-11-22' }]],
      ['an unknown type', { type: 'boom' }],
      ['a missing id', { type: 'queryResult', resultId: 'r', query, page: { total: 0, data: [] } }],
      ['a result without its result id', { type: 'queryResult', id: 'q', query, page: { total: 0, data: [] } }],
      ['an empty id', { type: 'exportDone', id: '', path: '/x' }],
      ['a huge id', { type: 'exportDone', id: 'x'.repeat(65), path: '/x' }],
      ['a negative total', { type: 'fetchAllProgress', id: 'q', fetched: 1, total: -1 }],
      ['a fractional count', { type: 'fetchAllProgress', id: 'q', fetched: 1.5, total: 2 }],
      ['a string total', { type: 'queryResult', id: 'q', resultId: 'r', query, page: { total: '3', data: [] } }],
      [
        'a record with a wrong collection method',
        {
          type: 'queryResult',
          id: 'q',
          resultId: 'r',
          query,
          page: { total: 1, data: [{ ...record, collectionMethod: 'Both' }] },
        },
      ],
      [
        'a record with a string metric',
        {
          type: 'queryResult',
          id: 'q',
          resultId: 'r',
          query,
          page: {
            total: 1,
            data: [{ ...record, dataVolumeMetrics: { totalCollected: '5', deduplicatedVolume: null } }],
          },
        },
      ],
      [
        'a query with page size 101',
        {
          type: 'fetchAllResult',
          id: 'q',
          resultId: 'r',
          query: { ...query, pageSize: 101 },
          total: 0,
          records: [],
          requestIds: [],
        },
      ],
      [
        'a query with a bad date',
        {
          type: 'fetchAllResult',
          id: 'q',
          resultId: 'r',
          query: { ...query, start: '2026-02-30' },
          total: 0,
          records: [],
          requestIds: [],
        },
      ],
      ['an error without a message', { type: 'error', id: 'q', error: { kind: 'x' } }],
      [
        'more than 100 picked tasks',
        { type: 'tasksPicked', id: 'p', taskIds: Array.from({ length: 101 }, (_, i) => `t${i}`), taskLabels: [] },
      ],
      ['a state of another version', { type: 'init', today: '2026-11-22', state: { version: 3 } }],
      ['signedIn as a string', { type: 'signedIn', signedIn: 'yes' }],
    ];
    for (const [what, m] of invalid) {
      it(`refuses ${what}, with a reason instead of a throw`, () => {
        const r = parseMessage(hostMessageSchema, m);
        assert.equal(r.ok, false);
        if (!r.ok) assert.ok(r.reason.length > 0);
      });
    }

    it('keeps null metrics null (never 0) and treats missing nullable fields as null', () => {
      const { weekStartDate: _w, taskName: _t, ...partial } = record;
      const r = parseMessage(hostMessageSchema, {
        type: 'queryResult',
        id: 'q',
        resultId: 'r',
        query,
        page: { total: 1, data: [partial] },
      });
      assert.ok(r.ok);
      if (!r.ok || r.message.type !== 'queryResult') return;
      const parsed = r.message.page.data[0];
      assert.equal(parsed?.taskName, null);
      assert.equal(parsed?.weekStartDate, null);
      assert.equal(parsed?.dataVolumeMetrics.totalCollected, null);
      assert.equal(parsed?.executionMetrics.successCount, null);
    });
  });

  describe('page -> host', () => {
    const valid: unknown[] = [
      { type: 'ready' },
      { type: 'query', id: 'q1', query },
      { type: 'fetchAll', id: 'q2', query: { start: '2026-11-16', end: '2026-11-22', pageSize: 100 } },
      { type: 'cancel', id: 'q2' },
      { type: 'pickTasks', id: 'p1', selected: ['t-1'] },
      { type: 'export', id: 'e1', format: 'csv', resultId: 'result-1' },
      { type: 'copy', text: 'r-9' },
      { type: 'state', state: { version: 1, sort: { column: 'runCount', direction: 'desc' } } },
      { type: 'log', level: 'warn', message: 'ignored a malformed message' },
    ];
    for (const m of valid) {
      it(`accepts ${JSON.stringify(m).slice(0, 70)}…`, () => {
        const r = parseMessage(pageMessageSchema, m);
        assert.ok(r.ok, r.ok ? '' : r.reason);
      });
    }

    const invalid: [string, unknown][] = [
      ['an unknown type', { type: 'eval', code: '1' }],
      ['a query without dates', { type: 'query', id: 'q', query: { page: 1 } }],
      [
        'a query with 101 members',
        { type: 'query', id: 'q', query: { ...query, memberNames: Array.from({ length: 101 }, (_, i) => `m${i}`) } },
      ],
      ['a query with page 0', { type: 'query', id: 'q', query: { ...query, page: 0 } }],
      ['an export in xml', { type: 'export', id: 'e', format: 'xml', resultId: 'result-1' }],
      ['an export without a result id', { type: 'export', id: 'e', format: 'csv' }],
      ['an export with an empty result id', { type: 'export', id: 'e', format: 'csv', resultId: '' }],
      ['a copy of more than 1000 characters', { type: 'copy', text: 'x'.repeat(1001) }],
      ['a log of more than 4000 characters', { type: 'log', level: 'warn', message: 'x'.repeat(4001) }],
      ['a log at debug level', { type: 'log', level: 'debug', message: 'x' }],
      ['a cancel without id', { type: 'cancel' }],
    ];
    for (const [what, m] of invalid) {
      it(`refuses ${what}`, () => assert.equal(parseMessage(pageMessageSchema, m).ok, false));
    }
  });

  describe('page state', () => {
    const form = {
      start: '2026-11-16',
      end: 'not a date',
      timeGranularity: 'Day',
      collectionMethod: 'All',
      taskIds: [],
      taskLabels: [],
      memberNames: 'ann, bob',
      pageSize: '0',
      page: 3,
    };
    const result = {
      query,
      total: 1,
      records: [record],
      requestIds: ['r-1'],
      fetchedAt: '2026-11-22T10:00:00.000Z',
      resultId: 'result-4',
    };

    it('round-trips the state the page keeps', () => {
      const state = {
        version: 2,
        preset: { taskIds: ['t-1'], label: 'Prices' },
        form,
        result,
        sort: { column: 'task', direction: 'asc' },
      };
      const r = pageStateSchema.safeParse(state);
      assert.ok(r.success);
      assert.equal(r.data.form?.end, 'not a date', 'the form keeps invalid values so the page can explain them');
      assert.equal(r.data.result?.resultId, 'result-4');
    });

    it('reads a state saved by the version before: form, preset and sort kept, its one-page result dropped', () => {
      const old = {
        version: 1,
        preset: { taskIds: ['t-1'] },
        form,
        result: { ...result, mode: 'page' },
        sort: { column: 'task', direction: 'asc' },
      };
      const r = pageStateSchema.safeParse(old);
      assert.ok(r.success);
      assert.deepEqual(r.data, {
        version: 2,
        preset: { taskIds: ['t-1'] },
        form: r.data.form,
        sort: { column: 'task', direction: 'asc' },
      });
      assert.equal(r.data.form?.memberNames, 'ann, bob');
    });

    it('refuses a state with a wrong sort direction', () => {
      assert.equal(pageStateSchema.safeParse({ version: 1, sort: { column: 'x', direction: 'up' } }).success, false);
    });
  });
});
