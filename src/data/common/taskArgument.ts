/**
 * The task a data or sync command was given: a Tasks view node or `{ taskId, taskName }` (the finish
 * notice, an agent). Anything else is logged and answered with one sentence, never thrown.
 */
import * as vscode from 'vscode';
import * as z from 'zod';

import { taskArgSchema } from '../../platform/treeArgs';
import type { Ui } from '../../platform/ui';

const t = vscode.l10n.t;

export const taskSchema = z.union([
  taskArgSchema,
  z.object({ taskId: z.string().min(1).max(128), taskName: z.string().max(1000) }),
]);

export interface TaskArgumentDeps {
  ui: Pick<Ui, 'showInformationMessage'>;
  log: Pick<vscode.LogOutputChannel, 'warn'>;
}

/** The task, or undefined after saying the command needs one (the palette, a bad argument). */
export function taskArgument(
  arg: unknown,
  deps: TaskArgumentDeps,
  kind: 'data' | 'sync',
): z.infer<typeof taskSchema> | undefined {
  const parsed = taskSchema.safeParse(arg);
  if (parsed.success) return parsed.data;
  if (arg !== undefined)
    deps.log.warn(
      `A ${kind} command was given an argument that is not a task: ${parsed.error.issues[0]?.message ?? 'unknown shape'}`,
    );
  void deps.ui.showInformationMessage(t('Choose a task in the Scrapedeck Tasks view, then use its context menu.'));
  return undefined;
}
