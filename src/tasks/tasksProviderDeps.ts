/**
 * What the Tasks view's provider is given (its deps) and the union of the rows it shows: the
 * contract between tasksProvider.ts and the code that builds it, kept apart so the provider
 * stays small. Also how a failed read reaches `report` (a cancelled read is not a failure).
 */
import { isApiError } from '../api/errors/errors';
import type { SyncView } from '../data/sync/syncBoard';
import type { HealthView } from '../health/healthBoard';
import type { RunsForViews } from '../runs';
import type { AttentionGroupNode, HealthUnavailableNode } from './attentionNodes';
import type { TasksNode as ListedNode } from './taskNodes';

/** Every row of the view: the listed groups and tasks, and health's rows (attentionNodes.ts imports taskNodes.ts, so the union lives apart from both). */
export type TasksNode = ListedNode | AttentionGroupNode | HealthUnavailableNode;

export interface TasksProviderDeps {
  signedIn(): boolean;
  /** Shows the failure to the user; never awaited here, so a pending message cannot stall the tree. */
  report(error: unknown, context: 'loadGroups' | 'loadTasks', subject?: string): void;
  progress<T>(work: () => Promise<T>): Thenable<T>;
  /** Task health: decorations' URIs, description parts, "Needs attention" (redrawn when it changes). */
  health?: HealthView;
  /** Run state, live statuses and subtasks (src/runs); without it rows show no run state. */
  runs?: RunsForViews;
  /** Where each task syncs to (Keep in Sync): a part of its row (redrawn when it changes). */
  sync?: SyncView;
  /** The account's plan does not allow listing task groups (true), or does again (false). */
  onPlanLimited(limited: boolean): void;
}

/** Hands a read's failure to `report`, unless the read was cancelled (nothing to tell the user). */
export function reportUnlessCancelled(
  deps: TasksProviderDeps,
  error: unknown,
  context: 'loadGroups' | 'loadTasks',
  subject?: string,
): void {
  if (error === undefined) return;
  if (isApiError(error) && error.kind === 'cancelled') return;
  deps.report(error, context, subject);
}
