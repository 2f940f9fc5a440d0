/**
 * Run state without VS Code: what any status string means and shows (never a crash), the icons,
 * the words in a locale and a time zone (service times read as UTC), and the store's rules for a
 * pending start or stop and for announcing a run that ended.
 */
import * as assert from 'node:assert/strict';

import type { TaskRunStatus } from '../../src/api/ops/runs';
import { RUN_ICONS, runKindOf, STATUS_TEXT_MAX, statusText } from '../../src/runs/runKinds';
import { type EndedRun, PENDING_LIMIT_MS, RunStore } from '../../src/runs/runStore';
import {
  describeRun,
  formatServiceTimeText,
  noCloudRuns,
  presentRun,
  type TextOptions,
  tooltipLines,
} from '../../src/runs/runText';

const english: TextOptions['t'] = (message, ...args) =>
  message.replace(/\{(\d+)\}/g, (m, i: string) => String(args[Number(i)] ?? m));
const en: TextOptions = { t: english, locale: 'en-US', timeZone: 'UTC' };

function status(over: Partial<TaskRunStatus> = {}): TaskRunStatus {
  return {
    taskId: 't1',
    status: 'Extracting',
    taskName: null,
    currentTotalExtractCount: 120,
    executedTimes: 3,
    subTaskCount: 4,
    startExecuteTime: '2026-03-01T12:00:00.000',
    endExecuteTime: null,
    nextExecuteTime: null,
    source: 'v2',
    ...over,
  };
}

describe('runs: status kinds and icons', () => {
  it('maps the published and likely values, in any case and with spaces', () => {
    assert.equal(runKindOf('Extracting'), 'extracting');
    assert.equal(runKindOf(' extracting '), 'extracting');
    assert.equal(runKindOf('Stopped'), 'stopped');
    assert.equal(runKindOf('FINISHED'), 'finished');
    assert.equal(runKindOf('Failed'), 'failed');
  });

  it('any other value is unknown and shown as it came, cleaned and cut, never refused', () => {
    for (const raw of [
      'Pausing',
      '42',
      '',
      '  ',
      'Waiting\u0000\nfor\tslot',
      'x'.repeat(500),
      '\u202eevil',
      '🚀 launching',
    ]) {
      const kind = runKindOf(raw);
      const shown = statusText(raw);
      assert.equal(kind, 'unknown', raw);
      assert.ok(
        shown.length > 0 && shown.length <= STATUS_TEXT_MAX,
        `${JSON.stringify(raw)} -> ${JSON.stringify(shown)}`,
      );
      assert.ok(![...shown].some((c) => c.charCodeAt(0) < 0x20), JSON.stringify(shown));
    }
    assert.equal(statusText('Waiting\u0000\nfor\tslot'), 'Waiting for slot');
    assert.equal(statusText('Pausing'), 'Pausing');
    const p = presentRun({ status: status({ status: 'Pausing' }), pending: undefined }, en);
    assert.equal(p?.kind, 'unknown');
    assert.equal(p?.description, 'Pausing, 120 rows');
    assert.deepEqual(p?.flags, ['runnable']);
  });

  it('gives stopped, finished, failed, unknown and extracting each their own icon; extracting spins', () => {
    const ids = ['extracting', 'stopped', 'finished', 'failed', 'unknown'].map(
      (k) => RUN_ICONS[k as keyof typeof RUN_ICONS].id,
    );
    assert.equal(new Set(ids).size, ids.length, ids.join(' '));
    assert.equal(RUN_ICONS.extracting.id, 'sync~spin');
  });
});

describe('runs: what a row shows', () => {
  it('extracting: spinner, rows collected, Stop Run offered', () => {
    const p = presentRun({ status: status(), pending: undefined }, en);
    assert.equal(p?.icon.id, 'sync~spin');
    assert.equal(p?.description, 'Extracting, 120 rows');
    assert.deepEqual(p?.flags, ['running']);
  });

  it('a plan without cloud runs offers neither Start Run nor Stop Run, and the tooltip says why (issue 48: offered, then refused)', () => {
    const p = noCloudRuns(en);
    assert.deepEqual(p.flags, [], 'no runnable, no running');
    assert.equal(p.description, '', 'no run part on the row');
    assert.equal(p.icon.id, 'globe', "the task's own icon");
    assert.deepEqual(p.tooltip, ['Cloud runs need a Professional or Enterprise plan, so Start Run is not offered.']);
  });

  it('a pending start or stop shows at once and offers neither action', () => {
    const starting = presentRun(
      { status: undefined, pending: { action: 'starting', since: 0, executedBefore: 2 } },
      en,
    );
    assert.equal(starting?.description, 'Starting…');
    assert.deepEqual(starting?.flags, []);
    const stopping = presentRun(
      { status: status(), pending: { action: 'stopping', since: 0, executedBefore: null } },
      en,
    );
    assert.equal(stopping?.description, 'Stopping…');
    assert.deepEqual(stopping?.flags, []);
  });

  it('a task never run says so; nothing known means no run state (Start Run still offered by the row)', () => {
    const never = presentRun(
      {
        status: status({ status: 'Stopped', executedTimes: 0, currentTotalExtractCount: 0, startExecuteTime: null }),
        pending: undefined,
      },
      en,
    );
    assert.equal(never?.kind, 'neverRun');
    assert.equal(never?.description, 'Never run in the cloud');
    assert.equal(presentRun(undefined, en), undefined);
  });

  it('numbers follow the locale', () => {
    assert.equal(
      describeRun(status({ status: 'Finished', currentTotalExtractCount: 12345 }), { ...en, locale: 'de-DE' }),
      'Finished: 12.345 rows last run',
    );
    assert.equal(describeRun(status({ currentTotalExtractCount: 1 }), en), 'Extracting, 1 row');
    assert.equal(describeRun(status({ currentTotalExtractCount: null, source: 'v1' }), en), 'Extracting');
  });

  it('tooltip times are read as UTC and shown in the user zone, and say so', () => {
    const lines = tooltipLines(status({ endExecuteTime: '2026-03-01T12:30:00', nextExecuteTime: 'tomorrow-ish' }), {
      ...en,
      locale: 'en-GB',
      timeZone: 'Europe/Berlin',
    });
    const text = lines.join('\n');
    assert.match(text, /Started: 1 Mar 2026, 13:00:00/);
    assert.match(text, /Ended: 1 Mar 2026, 13:30:00/);
    assert.match(text, /Next run: tomorrow-ish \(as sent\)/);
    assert.match(text, /read as UTC and shown in your time zone \(Europe\/Berlin\)/);
    assert.match(text, /Rows collected so far in this run: 120/);
    assert.match(text, /Cloud runs so far, all time \(the service’s count\): 3/);
    assert.match(tooltipLines(status({ source: 'v1', startExecuteTime: null }), en).join('\n'), /older status call/);
  });

  it("each figure says what it counts: an ended run's rows are its last run's, not all the data; runs are the service's cloud runs of all time (issue 48 item 9)", () => {
    for (const word of ['Finished', 'Failed', 'Stopped']) {
      assert.equal(
        describeRun(status({ status: word, currentTotalExtractCount: 157 }), en),
        `${word}: 157 rows last run`,
      );
    }
    const ended = tooltipLines(
      status({ status: 'Finished', currentTotalExtractCount: 157, executedTimes: 957 }),
      en,
    ).join('\n');
    assert.match(ended, /Rows of its last run: 157 \(Export Data writes all of the task’s rows\)/);
    assert.match(ended, /Cloud runs so far, all time \(the service’s count\): 957/);
    assert.doesNotMatch(ended, /this run/);
  });

  it('a bad locale or zone falls back instead of throwing', () => {
    assert.doesNotThrow(() =>
      formatServiceTimeText('2026-03-01T12:00:00', { t: english, locale: 'not a locale!!', timeZone: 'Mars/Olympus' }),
    );
  });
});

describe('runs: the store', () => {
  let now = 1_000;
  let store: RunStore;
  let changed: string[][];
  let ended: EndedRun[][];
  beforeEach(() => {
    now = 1_000;
    store = new RunStore(() => now);
    changed = [];
    ended = [];
    store.onDidChange((ids) => changed.push([...ids]));
    store.onDidEnd((runs) => ended.push([...runs]));
  });

  it('a start shows at once, clears when the service shows the run, and its end is announced once', () => {
    store.apply([status({ status: 'Stopped', executedTimes: 3 })]);
    store.setPending(['t1'], 'starting');
    assert.ok(store.isActive('t1'));
    store.apply([status({ status: 'Stopped', executedTimes: 3 })]);
    assert.equal(store.get('t1')?.pending?.action, 'starting', 'the service has not shown it yet');
    store.apply([status({ status: 'Extracting', executedTimes: 4, currentTotalExtractCount: 0 })]);
    assert.equal(store.get('t1')?.pending, undefined);
    store.apply([status({ status: 'Extracting', executedTimes: 4, currentTotalExtractCount: 80 })]);
    store.apply([status({ status: 'Finished', executedTimes: 4, currentTotalExtractCount: 300 })]);
    store.apply([status({ status: 'Finished', executedTimes: 4, currentTotalExtractCount: 300 })]);
    assert.equal(ended.length, 1);
    assert.equal(ended[0]?.[0]?.status.currentTotalExtractCount, 300);
    assert.equal(ended[0]?.[0]?.stoppedHere, false);
    assert.ok(!store.isActive('t1'));
  });

  it('a run that began and ended between two polls is still announced (its count moved)', () => {
    store.apply([status({ status: 'Stopped', executedTimes: 3 })]);
    store.setPending(['t1'], 'starting');
    store.apply([status({ status: 'Finished', executedTimes: 4 })]);
    assert.equal(ended.length, 1);
  });

  it('a run stopped from here is marked so (no notice needed); a task first seen finished is not announced', () => {
    store.apply([status()]);
    store.setPending(['t1'], 'stopping');
    store.apply([status({ status: 'Stopped' })]);
    assert.equal(ended[0]?.[0]?.stoppedHere, true);
    store.apply([status({ taskId: 't2', status: 'Finished' })]);
    assert.equal(ended.length, 1);
  });

  it('only rows whose state changed are redrawn', () => {
    store.apply([status(), status({ taskId: 't2', status: 'Stopped' })]);
    store.apply([status(), status({ taskId: 't2', status: 'Stopped' })]);
    store.apply([status({ currentTotalExtractCount: 150 }), status({ taskId: 't2', status: 'Stopped' })]);
    assert.deepEqual(changed, [['t1', 't2'], ['t1']]);
  });

  it('a start the service never shows gives up after the limit, without announcing anything', () => {
    store.apply([status({ status: 'Stopped', executedTimes: 3 })]);
    store.setPending(['t1'], 'starting');
    now += PENDING_LIMIT_MS;
    store.apply([status({ status: 'Stopped', executedTimes: 3 })]);
    assert.equal(store.get('t1')?.pending, undefined);
    assert.equal(ended.length, 0);
  });

  it('reset forgets every task and redraws them', () => {
    store.apply([status(), status({ taskId: 't2' })]);
    changed = [];
    store.reset();
    assert.equal(store.get('t1'), undefined);
    assert.deepEqual(changed, [['t1', 't2']]);
    assert.ok(!store.anyActive(['t1', 't2']));
  });
});

describe("runs: queued runs, never-run tasks, a run's lot (issue 28 items 1 to 3)", () => {
  let now = 1_000;
  let store: RunStore;
  let ended: EndedRun[][];
  beforeEach(() => {
    now = 1_000;
    store = new RunStore(() => now);
    ended = [];
    store.onDidEnd((runs) => ended.push([...runs]));
  });

  it("Waiting and Unexecuted (and the older interface's 3) are queued, 0 is extracting: under way, not unknown", () => {
    for (const raw of ['Waiting', 'unexecuted', ' WAITING ', '3']) assert.equal(runKindOf(raw), 'queued', raw);
    assert.equal(runKindOf('0'), 'extracting');
    const p = presentRun(
      {
        status: status({ status: 'Waiting', currentTotalExtractCount: 0, startExecuteTime: null }),
        pending: undefined,
      },
      en,
    );
    assert.equal(p?.kind, 'queued');
    assert.equal(p?.description, 'Queued');
    assert.equal(p?.icon.id, RUN_ICONS.queued.id);
    assert.deepEqual(p?.flags, ['running'], 'Stop Run applies to a queued run');
    assert.match(p?.tooltip.join('\n') ?? '', /Run status: Waiting[\s\S]*waits for a cloud node/);
    const ids = ['queued', 'extracting', 'stopped', 'finished', 'failed', 'unknown', 'neverRun'].map(
      (k) => RUN_ICONS[k as keyof typeof RUN_ICONS].id,
    );
    assert.equal(new Set(ids).size, ids.length, 'each its own icon');
  });

  it('a queued run is active (polled), and its end is announced once', () => {
    store.apply([status({ status: 'Stopped', executedTimes: 3 })]);
    store.setPending(['t1'], 'starting');
    store.apply([status({ status: 'Waiting', executedTimes: 4, currentTotalExtractCount: 0 })]);
    assert.equal(store.get('t1')?.pending, undefined, 'the start showed: queued');
    assert.ok(store.isActive('t1'));
    store.apply([status({ status: 'Unexecuted', executedTimes: 4, currentTotalExtractCount: 0 })]);
    assert.ok(store.isActive('t1'));
    store.apply([status({ status: 'Extracting', executedTimes: 4, currentTotalExtractCount: 10 })]);
    store.apply([status({ status: 'Finished', executedTimes: 4, currentTotalExtractCount: 300 })]);
    assert.equal(ended.length, 1);
    assert.ok(!store.isActive('t1'));
  });

  it('a run seen only while queued that ends is announced too', () => {
    store.apply([status({ status: 'Waiting', executedTimes: 4, currentTotalExtractCount: 0 })]);
    store.apply([status({ status: 'Failed', executedTimes: 4, currentTotalExtractCount: 0 })]);
    assert.equal(ended.length, 1);
  });

  it('a task left out of a v2 answer never ran in the cloud: said so, runnable, not polled', () => {
    store.apply([], ['t1']);
    const entry = store.get('t1');
    assert.equal(entry?.neverRun, true);
    assert.ok(!store.isActive('t1'));
    const p = presentRun(entry, en);
    assert.deepEqual([p?.kind, p?.description, p?.flags], ['neverRun', 'Never run in the cloud', ['runnable']]);
    assert.match(p?.tooltip.join('\n') ?? '', /Never run in the cloud/);
    assert.doesNotMatch(p?.tooltip.join('\n') ?? '', /error|stale/i);
  });

  it('starting a never-run task: still left out just after the start keeps "Starting…", then its first run counts from 0', () => {
    store.apply([], ['t1']);
    store.setPending(['t1'], 'starting');
    assert.equal(store.get('t1')?.pending?.executedBefore, 0);
    store.apply([], ['t1']);
    assert.equal(store.get('t1')?.pending?.action, 'starting', 'not shown yet: still starting');
    store.apply([status({ status: 'Waiting', executedTimes: 1, currentTotalExtractCount: 0 })]);
    assert.equal(store.get('t1')?.neverRun, undefined);
    store.apply([status({ status: 'Finished', executedTimes: 1 })]);
    assert.equal(ended.length, 1);
  });

  it('a run started here keeps its lot while it is the last run: the row and the end say so; a later run drops it', () => {
    store.apply([status({ status: 'Stopped', executedTimes: 3 })]);
    store.setPending(['t1'], 'starting');
    store.setLot('t1', '7301234567890123457');
    assert.deepEqual(store.lotOf('t1'), { lotNo: '7301234567890123457', run: 4 });
    store.apply([status({ status: 'Waiting', executedTimes: 4, currentTotalExtractCount: 0 })]);
    store.apply([status({ status: 'Finished', executedTimes: 4, currentTotalExtractCount: 300 })]);
    assert.equal(ended[0]?.[0]?.lot?.lotNo, '7301234567890123457');
    assert.deepEqual(presentRun(store.get('t1'), en)?.flags, ['runnable', 'lot']);
    store.apply([status({ status: 'Extracting', executedTimes: 5 })]);
    assert.equal(store.lotOf('t1'), undefined, 'a later run (a schedule, another window) is the last run now');
    assert.deepEqual(presentRun(store.get('t1'), en)?.flags, ['running']);
  });

  it('a lot whose run number is not known yet learns it when the run shows; a new start drops the old lot', () => {
    store.setPending(['t1'], 'starting');
    store.setLot('t1', '11');
    assert.deepEqual(store.lotOf('t1'), { lotNo: '11', run: null });
    store.apply([status({ status: 'Extracting', executedTimes: 9 })]);
    assert.deepEqual(store.lotOf('t1'), { lotNo: '11', run: 9 });
    store.setPending(['t1'], 'starting');
    assert.equal(store.lotOf('t1'), undefined);
  });

  it('settling: a start on its way, a queued run, or one that has counted no rows; not one collecting rows', () => {
    store.apply([
      status({ taskId: 'a', status: 'Waiting', currentTotalExtractCount: 0 }),
      status({ taskId: 'b', status: 'Extracting', currentTotalExtractCount: 0 }),
      status({ taskId: 'c' }),
    ]);
    assert.deepEqual(
      ['a', 'b', 'c'].map((id) => store.isSettling(id)),
      [true, true, false],
    );
  });
});
