/** A run store on the test's clock, with every run it announces as ended collected in order. */
import { type EndedRun, RunStore } from '../../../src/runs/runStore';

export function endingStore(now: () => number): { store: RunStore; ended: EndedRun[] } {
  const store = new RunStore(now);
  const ended: EndedRun[] = [];
  store.onDidEnd((runs) => ended.push(...runs));
  return { store, ended };
}
