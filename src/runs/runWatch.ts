/**
 * The way into runs for a run started or stopped elsewhere than the Tasks view (an agent's
 * language-model tool): around its request it does what Start Run and Stop Run do (`runActions.ts`),
 * so its row shows "Starting…"/"Stopping…" at once, keeps the run's lot, is followed at the fast
 * pace until the run ends and gets the same finish notice. No `vscode`: the caller injects it.
 */
import type { RunStore } from './runStore';
import type { StatusPoller } from './statusPoller';

export type RunVerb = 'start' | 'stop';

/** What the request did: sent (with the run's lot when the start answered one), or failed. */
export type RunRequestResult = { readonly ok: true; readonly lotNo: string | null } | { readonly ok: false };

export interface RunWatch {
  /** The request is about to go out. */
  before(verb: RunVerb, task: { readonly taskId: string; readonly taskName: string }): void;
  /** The request came back (or failed): the service now says how things are. */
  after(verb: RunVerb, taskId: string, result: RunRequestResult): void;
}

export interface RunWatchDeps {
  store: Pick<RunStore, 'setPending' | 'setLot'>;
  poller: Pick<StatusPoller, 'follow'>;
  /** The task's name as the service gave it (its finish notice names it). */
  named(taskId: string, taskName: string): void;
}

export function runWatch(deps: RunWatchDeps): RunWatch {
  return {
    before: (verb, task) => {
      deps.named(task.taskId, task.taskName);
      deps.store.setPending([task.taskId], verb === 'start' ? 'starting' : 'stopping');
    },
    after: (_verb, taskId, result) => {
      if (result.ok && result.lotNo !== null) deps.store.setLot(taskId, result.lotNo);
      // A failed request may still have been carried out: what the service says next decides.
      if (!result.ok) deps.store.setPending([taskId], undefined);
      deps.poller.follow([taskId]);
    },
  };
}
