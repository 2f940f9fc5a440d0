/**
 * The finish notice's two less travelled roads, in a real VS Code with the real commands: more
 * than three runs ending in one answer share one message that names them all; a run whose lot is
 * unknown (not started here) offers Export Data, which exports all of the task's rows; and Export
 * This Run's Data for a task whose last run's lot is unknown says to use Export Data.
 */
import * as assert from 'node:assert/strict';

import * as vscode from 'vscode';

import type { TaskRunStatus } from '../../src/api/ops/runs';
import type { ScrapedeckTestApi } from '../../src/extension';
import {
  announceEndedRuns,
  DATA_EXPORT_COMMAND,
  DATA_EXPORT_RUN_COMMAND,
  type FinishNoticeDeps,
} from '../../src/runs/finishNotice';
import type { EndedRun } from '../../src/runs/runStore';
import { getApi, recordMessages, waitFor } from './viewsHarness';

const status = (taskId: string, state: string, rows: number | null): TaskRunStatus => ({
  taskId,
  status: state,
  taskName: null,
  currentTotalExtractCount: rows,
  executedTimes: null,
  subTaskCount: null,
  startExecuteTime: null,
  endExecuteTime: null,
  nextExecuteTime: null,
  source: 'v2',
});
const ended = (taskId: string, state = 'Finished', rows: number | null = 10, lotNo?: string): EndedRun => ({
  taskId,
  status: status(taskId, state, rows),
  stoppedHere: false,
  ...(lotNo ? { lot: { lotNo, run: 1 } } : {}),
});

/** A notice's messages, answered with `choose` (a button's label, or undefined). */
function noticeUi(choose: (buttons: string[]) => string | undefined) {
  const shown: { level: string; text: string; buttons: string[] }[] = [];
  const answer =
    (level: string) =>
    (text: string, ...buttons: string[]) => {
      shown.push({ level, text, buttons });
      return Promise.resolve(choose(buttons));
    };
  return {
    shown,
    ui: {
      showInformationMessage: answer('info'),
      showWarningMessage: answer('warning'),
    } as unknown as FinishNoticeDeps['ui'],
  };
}

const NAMES: Record<string, string> = { t1: 'Prices', t2: 'Reviews', t3: 'Stock', t4: 'Jobs', t5: 'News' };
const deps = (ui: FinishNoticeDeps['ui'], commands: string[]): FinishNoticeDeps => ({
  ui,
  enabled: () => true,
  nameOf: (id) => NAMES[id],
  text: () => ({ t: vscode.l10n.t, locale: 'en-US', timeZone: 'UTC' }),
  commands: () => Promise.resolve(commands),
});

describe('Finish notice: many runs at once, and a run whose lot is unknown (real VS Code)', function () {
  this.timeout(60_000);
  let api: ScrapedeckTestApi;

  before(async () => {
    api = await getApi();
    if (api.account.account !== undefined) await vscode.commands.executeCommand('scrapedeck.signOut');
  });

  it('four runs ending at once: one message names every one and how it ended; three get a message each', async () => {
    const many = noticeUi(() => undefined);
    await announceEndedRuns(
      [
        ended('t1'),
        ended('t2', 'Failed', 3),
        ended('t3', 'Stopped', null),
        ended('t4'),
        { ...ended('t5'), stoppedHere: true },
      ],
      deps(many.ui, [DATA_EXPORT_COMMAND, DATA_EXPORT_RUN_COMMAND]),
    );
    assert.equal(many.shown.length, 1, 'one message');
    assert.equal(
      many.shown[0]?.text,
      '4 runs ended: Prices (finished: 10 rows collected), Reviews (failed: 3 rows collected), Stock (was stopped), Jobs (finished: 10 rows collected).',
    );
    assert.deepEqual(many.shown[0]?.buttons, ['Open Analytics'], "no export: which run's rows would it be?");

    const few = noticeUi(() => undefined);
    await announceEndedRuns([ended('t1'), ended('t2', 'Failed', 3), ended('t3')], deps(few.ui, [DATA_EXPORT_COMMAND]));
    assert.deepEqual(
      few.shown.map((m) => [m.level, m.text]),
      [
        ['info', '“Prices” finished: 10 rows collected. Export Data writes all of the task’s rows.'],
        ['warning', '“Reviews” failed: 3 rows collected. Export Data writes all of the task’s rows.'],
        ['info', '“Stock” finished: 10 rows collected. Export Data writes all of the task’s rows.'],
      ],
    );
  });

  it("a run whose lot is unknown offers Export Data, which exports all the task's rows; a known lot offers the run's", async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(
      commands.includes(DATA_EXPORT_COMMAND) && commands.includes(DATA_EXPORT_RUN_COMMAND),
      'the data commands are registered',
    );
    const known = noticeUi(() => undefined);
    await announceEndedRuns([ended('t1', 'Finished', 10, '7301234567890123457')], deps(known.ui, commands));
    // Short buttons, shown whole; the message says they take this run's rows (issue 48's walk: "Browse This Run's D…").
    assert.deepEqual(known.shown[0]?.buttons, ['Open Analytics', 'Browse Rows', 'Export Rows']);
    assert.equal(
      known.shown[0]?.text,
      '“Prices” finished: 10 rows collected. Browse Rows and Export Rows take the rows of this run only.',
    );

    const { messages, stop } = recordMessages(api);
    try {
      const unknown = noticeUi((buttons) => buttons.find((b) => b === 'Export Data'));
      await announceEndedRuns([ended('t2')], deps(unknown.ui, commands));
      assert.deepEqual(unknown.shown[0]?.buttons, ['Open Analytics', 'Export Data']);
      // Signed out, Export Data for the task says so by the task's name: the command ran for all its rows.
      await waitFor('Export Data to answer', () =>
        messages.some((m) => m.text === 'Sign in to Scrapedeck to export the data of “Reviews”.'),
      );
    } finally {
      stop();
    }
  });

  it("Export This Run's Data for a task whose last run's lot is unknown: a sentence pointing to Export Data, and no file is asked for", async () => {
    const { messages, stop } = recordMessages(api);
    try {
      const reply = await vscode.commands.executeCommand(DATA_EXPORT_RUN_COMMAND, {
        taskId: 'no-such-run',
        taskName: 'Prices',
      });
      assert.equal(reply, undefined);
      assert.deepEqual(
        messages.map((m) => m.text),
        ['The run of “Prices” started here is no longer its last run; use Export Data… for all its rows.'],
      );
    } finally {
      stop();
    }
  });
});
