/**
 * Commands on a task's data: Export Data…, Export This Run's Data…, Pull New Rows, Browse Data,
 * Browse This Run's Data, Remove Data…. The flows are `data/`; these only parse the argument (a Tasks view node, or
 * `{ taskId, taskName }`) and resolve to the flow's outcome, which tests and other callers can read.
 */
import * as vscode from 'vscode';
import * as z from 'zod';

import { defineHandlers } from '../platform/commandHandlers';
import { plainText } from '../platform/plainText';
import type { Ui } from '../platform/ui';
import { taskArgument } from './common/taskArgument';
import { addConnection, type PgFlowDeps, removeConnection, testConnection } from './pgConnectionFlow';
import type { DataRegistry } from './registry';

const t = vscode.l10n.t;

const pullOptionsSchema = z.object({ chooseFile: z.boolean().optional() }).optional();
/** The finish notice passes the run's lot with the task; a tree node's lot is the one runs keeps. */
const lotArgSchema = z.object({ lotNo: z.string().trim().min(1).max(128) });

export interface DataCommandDeps {
  data: DataRegistry;
  ui: Pick<Ui, 'showInformationMessage'>;
  log: Pick<vscode.LogOutputChannel, 'warn'>;
  /** The lot of the task's last run, while it is one started here (runs keeps it). */
  lastRunLot(taskId: string): string | undefined;
  /** The user's PostgreSQL connections and what their commands need. */
  postgres: PgFlowDeps;
}

export function dataCommands(deps: DataCommandDeps) {
  const taskOf = (arg: unknown) => taskArgument(arg, deps, 'data');
  /** A task and its run's lot: the one given (the finish notice), else the task's last run started here. */
  const runOf = (arg: unknown, noLonger: (task: { taskName: string }) => string) => {
    const task = taskOf(arg);
    if (!task) return undefined;
    const given = lotArgSchema.safeParse(arg);
    // Only while it is the task's last run (runs forgets it once a later run shows).
    const lotNo = given.success ? given.data.lotNo : deps.lastRunLot(task.taskId);
    if (lotNo !== undefined) return { task, lotNo };
    void deps.ui.showInformationMessage(noLonger(task));
    return undefined;
  };
  return defineHandlers({
    dataExport: (arg) => {
      const task = taskOf(arg);
      return task && deps.data.export(task);
    },
    dataExportRun: (arg) => {
      const run = runOf(arg, (task) =>
        t(
          'The run of “{0}” started here is no longer its last run; use Export Data… for all its rows.',
          plainText(task.taskName),
        ),
      );
      return run && deps.data.export(run.task, { kind: 'lot', lotNo: run.lotNo });
    },
    dataPullNewRows: (arg, options) => {
      const task = taskOf(arg);
      const o = pullOptionsSchema.safeParse(options);
      return task && deps.data.pull(task, o.success && o.data?.chooseFile === true);
    },
    dataBrowse: (arg) => {
      const task = taskOf(arg);
      return task && deps.data.browse(task);
    },
    dataBrowseRun: (arg) => {
      const run = runOf(arg, (task) =>
        t(
          'The run of “{0}” started here is no longer its last run; use Browse Data for all its rows.',
          plainText(task.taskName),
        ),
      );
      return run && deps.data.browse(run.task, run.lotNo);
    },
    dataRemove: (arg) => {
      const task = taskOf(arg);
      return task && deps.data.remove(task);
    },
    dataAddPostgresConnection: () => addConnection(deps.postgres),
    dataTestPostgresConnection: () => testConnection(deps.postgres),
    dataRemovePostgresConnection: () => removeConnection(deps.postgres),
  });
}
