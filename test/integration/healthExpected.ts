/**
 * What the Tasks view's health should show, computed on its own from the sandbox's raw data: the
 * task list and one Day analytics query over both windows (all pages), summed here — not with the
 * extension's model — against the default thresholds (failure rate above 0.2, runs more than 1.5x
 * slower than the window before).
 */
import * as assert from 'node:assert/strict';

import { addDays } from '../../src/api/schemas/dates';
import type { AnalyticsRecord } from '../../src/api/schemas/schemas';

export type Level = 'failing' | 'slowing' | 'idle' | 'ok';

export interface Figures {
  level: Level;
  runs: number;
  failures: number;
  failureRate: number | null;
  slowing: boolean;
  /** The node's description, as the UI words it. */
  description: string;
}

export interface Expected {
  window: { start: string; end: string };
  tasks: Map<string, Figures>;
  /** Tasks over a threshold: failing (first) or slowing. */
  attention: Map<string, 'failing' | 'slowing'>;
  groupWorst: Map<string, Level>;
}

interface Sums {
  runs: number;
  failures: number;
  seconds: number;
  timed: number;
}

async function call<T>(baseUrl: string, apiKey: string, path: string, body?: unknown): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${baseUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json', accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // The sandbox allows 20 requests a second, as the service does: wait as it says.
    if (res.status === 429 && attempt < 10) {
      await res.body?.cancel();
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? '1') * 1000));
      continue;
    }
    assert.equal(res.status, 200, `${path}: ${res.status}`);
    return ((await res.json()) as { data: T }).data;
  }
}

const pct = (rate: number): string => (rate > 0 && rate < 0.005 ? '<1%' : `${Math.round(rate * 100)}%`);

export async function expectedHealth(baseUrl: string, apiKey: string, days = 7): Promise<Expected> {
  const today = new Date().toISOString().slice(0, 10);
  const start = addDays(today, -(days - 1));
  const previousStart = addDays(today, -(2 * days - 1));
  const tasks: { taskId: string; taskGroupId: string }[] = [];
  for (const g of await call<{ taskGroupId: string | number }[]>(baseUrl, apiKey, '/taskGroup')) {
    const id = String(g.taskGroupId);
    for (const t of await call<{ taskId: string }[]>(
      baseUrl,
      apiKey,
      `/task/search?taskGroupId=${encodeURIComponent(id)}`,
    ))
      tasks.push({ taskId: t.taskId, taskGroupId: id });
  }
  const records: AnalyticsRecord[] = [];
  for (let page = 1; ; page++) {
    const p = await call<{ total: number; data: AnalyticsRecord[] }>(baseUrl, apiKey, '/taskanalytics/queries', {
      start: previousStart,
      end: today,
      timeGranularity: 'Day',
      page,
      pageSize: 100,
    });
    records.push(...p.data);
    if (page * 100 >= p.total) break;
  }
  const sums = new Map<string, [Sums, Sums]>();
  const empty = (): Sums => ({ runs: 0, failures: 0, seconds: 0, timed: 0 });
  for (const r of records) {
    const pair = sums.get(r.taskId) ?? [empty(), empty()];
    sums.set(r.taskId, pair);
    const w = pair[r.dayKey >= start ? 0 : 1];
    const m = r.executionMetrics;
    w.runs += m.runCount ?? 0;
    w.failures += m.failureCount ?? 0;
    if (m.totalExecutionSeconds !== null && (m.runCount ?? 0) > 0) {
      w.seconds += m.totalExecutionSeconds;
      w.timed += m.runCount ?? 0;
    }
  }
  const out: Expected = {
    window: { start, end: today },
    tasks: new Map(),
    attention: new Map(),
    groupWorst: new Map(),
  };
  const rank: Record<Level, number> = { ok: 0, idle: 1, slowing: 2, failing: 3 };
  for (const { taskId, taskGroupId } of tasks) {
    const [now, before] = sums.get(taskId) ?? [empty(), empty()];
    const failureRate = now.runs > 0 ? now.failures / now.runs : null;
    const slowdown =
      now.timed > 0 && before.timed > 0 && before.seconds > 0
        ? now.seconds / now.timed / (before.seconds / before.timed)
        : null;
    const failing = failureRate !== null && failureRate > 0.2;
    const slowing = slowdown !== null && slowdown > 1.5;
    const level: Level = now.runs === 0 ? 'idle' : failing ? 'failing' : slowing ? 'slowing' : 'ok';
    // Health's part of the row: why it needs attention (leading the row), or that it had no runs; a healthy task adds nothing.
    const why = [
      failing && failureRate !== null ? `${pct(failureRate)} failed` : undefined,
      slowing && slowdown !== null ? `${slowdown.toFixed(1)}× slower` : undefined,
    ].filter((x) => x !== undefined);
    const description = now.runs === 0 ? `no runs in ${days} days` : why.join(', ');
    out.tasks.set(taskId, { level, runs: now.runs, failures: now.failures, failureRate, slowing, description });
    if (failing || slowing) out.attention.set(taskId, failing ? 'failing' : 'slowing');
    const worst = out.groupWorst.get(taskGroupId);
    if (worst === undefined || rank[level] > rank[worst]) out.groupWorst.set(taskGroupId, level);
  }
  return out;
}
