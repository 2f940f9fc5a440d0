import * as assert from 'node:assert/strict';

import {
  analyticsErrorSchema,
  analyticsQuerySchema,
  analyticsRecordSchema,
  appRefSchema,
  deprecateResponseSchema,
  hubErrorSchema,
  taskGroupSchema,
  tokenErrorSchema,
  tokenRequestSchema,
  tokenResponseSchema,
} from '../../src/api/schemas/schemas';

const token = { access_token: 'a', token_type: 'Bearer', refresh_token: 'r' };

describe('schemas', () => {
  it('expires_in: a numeric string or an integer, both read as a number', () => {
    assert.equal(
      tokenResponseSchema.parse({ data: { ...token, expires_in: '7200' }, requestId: 'x' }).data.expires_in,
      7200,
    );
    assert.equal(
      tokenResponseSchema.parse({ data: { ...token, expires_in: 7200 }, requestId: 'x' }).data.expires_in,
      7200,
    );
    for (const bad of ['7200s', '', -1, 1.5, null]) {
      assert.ok(
        !tokenResponseSchema.safeParse({ data: { ...token, expires_in: bad }, requestId: 'x' }).success,
        String(bad),
      );
    }
  });

  it('token requests: the two grants, discriminated by grant_type', () => {
    assert.ok(tokenRequestSchema.safeParse({ username: 'u', password: 'p', grant_type: 'password' }).success);
    assert.ok(tokenRequestSchema.safeParse({ refresh_token: 'r', grant_type: 'refresh_token' }).success);
    assert.ok(!tokenRequestSchema.safeParse({ refresh_token: 'r', grant_type: 'password' }).success);
    assert.ok(!tokenRequestSchema.safeParse({ username: 'u', password: 'p' }).success);
  });

  it('analytics records: nullable metrics stay null (absent too), never 0; unknown fields are tolerated', () => {
    const r = analyticsRecordSchema.parse({
      taskId: 't',
      userId: 'u',
      taskName: null,
      dayKey: '2026-W47',
      weekStartDate: '2026-11-16',
      weekEndDate: '2026-11-22',
      collectionMethod: 'Local',
      dataVolumeMetrics: { totalCollected: 5, deduplicatedVolume: null },
      executionMetrics: { runCount: 0, successRate: null },
      resourceUsageMetrics: { captchaCount: null, balance: 0.25, somethingNew: 1 },
      extraTopLevel: 'ok',
    });
    assert.equal(r.dataVolumeMetrics.deduplicatedVolume, null);
    assert.equal(r.executionMetrics.runCount, 0);
    assert.equal(r.executionMetrics.durationPerRunSeconds, null, 'absent is null');
    assert.equal(r.resourceUsageMetrics.captchaCount, null);
    assert.equal(r.taskName, null);
    assert.ok(!('extraTopLevel' in r));
    const day = analyticsRecordSchema.parse({
      ...r,
      dayKey: '2026-11-22',
      weekStartDate: null,
      weekEndDate: undefined,
    });
    assert.equal(day.weekEndDate, null);
    assert.ok(
      !analyticsRecordSchema.safeParse({ ...r, collectionMethod: 'All' }).success,
      'a record is Cloud or Local',
    );
  });

  it('analytics query: the static constraints', () => {
    const ok = { start: '2026-11-01', end: '2026-11-02' };
    assert.ok(
      analyticsQuerySchema.safeParse({
        ...ok,
        pageSize: 100,
        page: 1,
        collectionMethod: 'All',
        timeGranularity: 'Month',
      }).success,
    );
    for (const bad of [
      { pageSize: 101 },
      { page: 0 },
      { collectionMethod: 'Both' },
      { timeGranularity: 'Hour' },
      { taskIds: Array(101).fill('t') },
      { start: '2026-02-30' },
    ]) {
      assert.ok(!analyticsQuerySchema.safeParse({ ...ok, ...bad }).success, JSON.stringify(bad).slice(0, 40));
    }
  });

  it('ids may arrive as numbers and become strings', () => {
    assert.equal(taskGroupSchema.parse({ taskGroupId: 42, taskGroupName: 'g' }).taskGroupId, '42');
  });

  it('app refs are namespace/name', () => {
    assert.equal(appRefSchema.parse('  acme/price-tracker '), 'acme/price-tracker');
    for (const bad of ['acme', 'acme/', '/x', 'a/b/c', 'a b/c', ''])
      assert.ok(!appRefSchema.safeParse(bad).success, bad);
  });

  it('deprecate result: optional fields may be missing or null; version may be empty', () => {
    const d = deprecateResponseSchema.parse({
      data: { app_name: 'x', status: 'deprecated', version: '', namespace: null },
    });
    assert.equal(d.data.version, '');
    assert.equal(d.data.namespace, undefined);
    assert.equal(d.data.missing_secrets, undefined);
    assert.ok(!deprecateResponseSchema.safeParse({ data: { app_name: 'x' } }).success, 'status is required');
  });

  it('the three error shapes', () => {
    assert.ok(tokenErrorSchema.safeParse({ error: { code: 'Invalid.Grant', message: 'm' }, requestId: 'r' }).success);
    assert.ok(!tokenErrorSchema.safeParse({ error: { code: 1, message: 'm' }, requestId: 'r' }).success);
    assert.ok(analyticsErrorSchema.safeParse({ error: { code: 40001, message: 'm' }, requestId: 'r' }).success);
    assert.ok(!analyticsErrorSchema.safeParse({ error: { code: '40001', message: 'm' }, requestId: 'r' }).success);
    assert.ok(
      hubErrorSchema.safeParse({
        error: { code: 'unauthorized', category: 'forbidden', message: 'm', retryable: false },
      }).success,
    );
    assert.ok(!hubErrorSchema.safeParse({ error: { code: 'unauthorized', message: 'm' } }).success);
  });
});
