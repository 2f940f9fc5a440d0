/**
 * The benchmarks fail closed: a row's pass comes from what was observed, after every check of its
 * case, and a case that could not be measured is a MISSED row. Each test feeds a section's own
 * judgement the figures of a case that went wrong (no sample, a throw, a missing bundle, a
 * partial refresh, a 429 only the sandbox saw) and expects MISSED where a figure used to pass.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';

import { seriesRows } from '../../bench/activationVscode.bench';
import { mcpStartRows } from '../../bench/agents.bench';
import { allPagesRows } from '../../bench/client.bench';
import { refreshRows } from '../../bench/healthRows';
import { boundRow, measureCase, medianOf, missed, worstOf } from '../../bench/judge';
import { statusRows } from '../../bench/runs.bench';
import type { BenchRow, BenchSection } from '../../bench/types';
import { coldOrderRow } from '../../bench/webviewTable.bench';
import { importScriptLib } from './helpers/scriptLib';

const ROOT = path.resolve(__dirname, '..', '..', '..');

const passes = (rows: BenchRow[]): (boolean | undefined)[] => rows.map((r) => r.pass);
const anyMissed = (rows: BenchRow[]): boolean => rows.some((r) => r.pass === false);

describe('bench: judging fails closed', () => {
  it('judge: no sample, a short list or a NaN is not a figure; missed() is MISSED', () => {
    assert.equal(worstOf([], 10), undefined);
    assert.equal(worstOf([1, 2], 10), undefined);
    assert.equal(worstOf([1, Number.NaN], 2), undefined);
    assert.equal(worstOf([1, 3], 2), 3);
    assert.equal(medianOf([]), undefined);
    assert.equal(medianOf([3, 1, 2]), 2);
    assert.equal(missed('x', 'why').pass, false);
    assert.equal(boundRow('x', undefined, 100, String).pass, false);
    assert.equal(boundRow('x', 50, 100, String).pass, true);
    assert.equal(
      boundRow('x', 50, 100, String, { problems: ['a refresh failed'] }).pass,
      false,
      'a figure within bound with a failed check is not met',
    );
  });

  it('a case that throws is one MISSED row with the reason, and its figures pushed so far are dropped', async () => {
    const rows = await measureCase('kept result', async () => {
      throw new Error('the panel did not show all 5,000 rows\nstack');
    });
    assert.deepEqual(passes(rows), [false]);
    assert.match(rows[0]?.value ?? '', /not measured: the panel did not show all 5,000 rows$/);
    assert.deepEqual(passes(await measureCase('nothing', async () => [])), [false], 'a case with no row is MISSED');
  });

  it('webviewTable: the slowest cold order is MISSED when any column (or every one) was not warmed, not 0 ms', () => {
    const columns = ['task', 'dayKey', 'runCount'];
    assert.equal(coldOrderRow([], columns, 100).pass, false);
    assert.equal(
      coldOrderRow(
        [
          { column: 'task', ms: 10 },
          { column: 'dayKey', ms: 20 },
        ],
        columns,
        100,
      ).pass,
      false,
    );
    const all = coldOrderRow(
      columns.map((column, i) => ({ column, ms: 10 * (i + 1) })),
      columns,
      100,
    );
    assert.equal(all.pass, true);
    assert.equal(all.value, '30.0 ms');
  });

  it('agents: the MCP server start without dist/mcp.js is a MISSED row', async () => {
    const rows = await mcpStartRows(path.join(ROOT, 'dist', 'no-such-mcp.js'), {});
    assert.deepEqual(passes(rows), [false]);
    assert.match(rows[0]?.value ?? '', /no-such-mcp\.js is missing/);
  });

  it('health: a partial or failed refresh passes neither its request count nor its time', () => {
    const figures = {
      label: 'fixture',
      runs: 2,
      firstCounts: [12, 12],
      againCounts: [6, 6],
      walls: [650, 660],
      limited: 0,
      sent: 36,
      currentRecords: 1000,
      previousRecords: 150,
    };
    assert.deepEqual(passes(refreshRows({ ...figures, problems: [] })).slice(0, 3), [true, true, true], 'the control');
    const partial = refreshRows({ ...figures, problems: ['first refresh 1: health for 400 of 1000 tasks'] });
    assert.deepEqual(passes(partial).slice(0, 3), [false, false, false]);
    assert.deepEqual(
      passes(refreshRows({ ...figures, firstCounts: [12], problems: [] })),
      [false],
      'a run not measured',
    );
  });

  it('runs: the note that no row text was presented fails the rows (it is checked before they are judged)', () => {
    const figures = {
      perRefresh: Array(15).fill(10),
      repaints: Array(15).fill(5),
      changedPerRefresh: Array(15).fill(30),
      walls: Array(15).fill(600),
      extracting: 30,
      scheduled: true,
      problems: [],
    };
    assert.equal(statusRows({ ...figures, drawn: 1000 })[0]?.pass, true, 'the control');
    const rows = statusRows({ ...figures, drawn: 0 });
    assert.equal(rows[0]?.pass, false);
    assert.equal(rows.find((r) => r.name.startsWith('repaint'))?.pass, false);
    assert.ok(anyMissed(statusRows({ ...figures, drawn: 1000, perRefresh: [10] })), 'refreshes not all counted');
  });

  it('client: a 429 the sandbox answered fails the row even when the client counted none; the bound uses the requests on the wire', () => {
    const base = { wall: 5100, total: 10_000, fetched: 10_000, requests: 100, client429: 0, pagesSeen: 100 };
    assert.deepEqual(passes(allPagesRows({ ...base, wire429: 0 })), [true, true]);
    assert.deepEqual(passes(allPagesRows({ ...base, wire429: 1 })), [true, false]);
    assert.equal(allPagesRows({ ...base, wire429: 0, requests: 0 })[0]?.pass, false, 'nothing reached the server');
    assert.equal(allPagesRows({ ...base, wire429: 0, fetched: 9_900 })[0]?.pass, false, 'rows missing');
  });

  it('activation in VS Code: a reload without a figure, or activated by another event, fails its row', () => {
    const good = {
      times: [300, 310],
      events: ['onWebviewPanel:scrapedeck.analytics, start-up', 'onWebviewPanel:scrapedeck.analytics, start-up'],
      figures: [],
    };
    const ok = (e: string): boolean => e === 'onWebviewPanel:scrapedeck.analytics, start-up';
    // RELOADS is 5 by default: two reloads are not all of them.
    assert.ok(anyMissed(seriesRows('restore', good, ok, 'the panel')));
    const five = {
      times: [1, 2, 3, 4, 5],
      events: Array(5).fill('onWebviewPanel:scrapedeck.analytics, start-up') as string[],
      figures: [],
    };
    assert.ok(!anyMissed(seriesRows('restore', five, ok, 'the panel')), 'the control');
    assert.ok(
      anyMissed(
        seriesRows(
          'restore',
          { ...five, events: [...five.events.slice(1), 'onView:scrapedeck.tasks, start-up'] },
          ok,
          'the panel',
        ),
      ),
    );
    assert.ok(anyMissed(seriesRows('restore', { ...five, times: [] }, ok, 'the panel')));
  });

  it('bench.mjs: a section that throws or returns no row is a MISSED row, and a pass on a ratio that is not a number is MISSED', async () => {
    const report = await importScriptLib<{
      settleSection(file: string, run: () => Promise<BenchSection>): Promise<BenchSection>;
      missedOf(section: BenchSection): string[];
    }>('benchReport.mjs');
    const threw = await report.settleSection('x.bench.ts', async () => {
      throw new Error('code-server did not start');
    });
    assert.deepEqual(passes(threw.rows), [false]);
    assert.equal(report.missedOf(threw).length, 1);
    const empty = await report.settleSection('y.bench.ts', async () => ({ title: 'Y', rows: [] }));
    assert.deepEqual(passes(empty.rows), [false]);
    const nan = await report.settleSection('z.bench.ts', async () => ({
      title: 'Z',
      rows: [{ name: 'a', value: 'NaN ms', ratio: Number.NaN, pass: true }],
    }));
    assert.deepEqual(passes(nan.rows), [false]);
  });
});
