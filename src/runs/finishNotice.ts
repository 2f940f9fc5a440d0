/**
 * A run that ends while VS Code is open says so: the task, how it ended, the rows it collected,
 * and "Open Analytics" / "Browse Rows" / "Export Rows" (this run's rows: a run started here whose
 * lot the service gave) or "Export Data" (all of the task's rows), the message saying which
 * (`runText.ts`; the data buttons only when the data commands exist in this build). Runs
 * stopped from this window are not announced (the person who stopped them knows).
 * `scrapedeck.runs.notifyOnFinish: false` turns it off. Several runs ending at once share one
 * message.
 */
import * as vscode from 'vscode';

import { COMMANDS } from '../platform/commandIds';
import { plainText } from '../platform/plainText';
import type { Ui } from '../platform/ui';
import { runKindOf, statusText } from './runKinds';
import type { EndedRun } from './runStore';
import { buttonsNote, noticeButtons, rowsText, type TextOptions } from './runText';

const t = vscode.l10n.t;

/** The data area's export commands; offered only when registered (`getCommands(true)` lists them). */
export const DATA_EXPORT_COMMAND = COMMANDS.dataExport;
export const DATA_EXPORT_RUN_COMMAND = COMMANDS.dataExportRun;
export const DATA_BROWSE_RUN_COMMAND = COMMANDS.dataBrowseRun;

/** At most this many runs get a message each; more share one. */
const ONE_EACH = 3;

export interface FinishNoticeDeps {
  ui: Pick<Ui, 'showInformationMessage' | 'showWarningMessage'>;
  enabled(): boolean;
  nameOf(taskId: string): string | undefined;
  text(): TextOptions;
  /** Registered command ids (`vscode.commands.getCommands(true)`); injected for tests. */
  commands?: () => Thenable<string[]>;
}

/** Shows the messages for runs that just ended; resolves once they are shown (not when dismissed). */
export async function announceEndedRuns(runs: readonly EndedRun[], deps: FinishNoticeDeps): Promise<void> {
  if (!deps.enabled()) return;
  const shown = runs.filter((run) => !run.stoppedHere);
  if (shown.length === 0) return;
  const buttonWords = noticeButtons(t);
  const openAnalytics = buttonWords.openAnalytics;
  if (shown.length > ONE_EACH) {
    const list = shown
      .map((run) => `${deps.nameOf(run.taskId) ?? run.taskId} (${outcome(run, deps.text())})`)
      .join(', ');
    const taskIds = shown.slice(0, 100).map((run) => run.taskId);
    void deps.ui.showInformationMessage(t('{0} runs ended: {1}.', shown.length, list), openAnalytics).then((choice) => {
      if (choice === openAnalytics)
        void vscode.commands.executeCommand(COMMANDS.analyticsOpen, { taskIds, label: t('Runs that ended') });
    });
    return;
  }
  const registered = await (deps.commands ?? (() => vscode.commands.getCommands(true)))();
  const { exportData, exportRun, browseRun } = buttonWords;
  for (const run of shown) {
    const task = { taskId: run.taskId, taskName: deps.nameOf(run.taskId) ?? run.status.taskName ?? run.taskId };
    // This run's rows when its lot is known (a run started here), else all of the task's.
    const lotNo = run.lot?.lotNo;
    const exportButton =
      lotNo !== undefined && registered.includes(DATA_EXPORT_RUN_COMMAND)
        ? exportRun
        : registered.includes(DATA_EXPORT_COMMAND)
          ? exportData
          : undefined;
    const browseButton = lotNo !== undefined && registered.includes(DATA_BROWSE_RUN_COMMAND) ? browseRun : undefined;
    const buttons = [openAnalytics, browseButton, exportButton].filter((b): b is string => b !== undefined);
    const note = buttonsNote(t, {
      browseRun: browseButton !== undefined,
      exportRun: exportButton === exportRun,
      exportData: exportButton === exportData,
    });
    const said = t('“{0}” {1}.', plainText(task.taskName), outcome(run, deps.text()));
    const message = note === '' ? said : `${said} ${note}`;
    const failed = runKindOf(run.status.status) === 'failed';
    const shownMessage = failed
      ? deps.ui.showWarningMessage(message, ...buttons)
      : deps.ui.showInformationMessage(message, ...buttons);
    void shownMessage.then((choice) => {
      if (choice === openAnalytics) void vscode.commands.executeCommand(COMMANDS.analyticsOpenForTask, { task });
      else if (choice === browseRun) void vscode.commands.executeCommand(DATA_BROWSE_RUN_COMMAND, { task, lotNo });
      else if (choice === exportRun) void vscode.commands.executeCommand(DATA_EXPORT_RUN_COMMAND, { task, lotNo });
      else if (choice === exportData) void vscode.commands.executeCommand(DATA_EXPORT_COMMAND, { task });
    });
  }
}

/** "finished: 480 rows collected", "failed: 12 rows collected", "ended (Queued)". */
function outcome(run: EndedRun, o: TextOptions): string {
  const rows = run.status.currentTotalExtractCount;
  const how = (() => {
    switch (runKindOf(run.status.status)) {
      case 'finished':
        return t('finished');
      case 'failed':
        return t('failed');
      case 'stopped':
        return t('was stopped');
      default:
        return t('ended ({0})', statusText(run.status.status));
    }
  })();
  return rows === null ? how : t('{0}: {1} collected', how, rowsText(rows, o));
}
