/**
 * Finds a task or group by id within one account (another account's ids are unknown: no
 * existence leaks), and duplicates or moves tasks between groups, so later searches show it.
 */
import { rngFor, uuidLike } from './prng';
import type { SeedAccount, SeedGroup, SeedTask, World } from './seed';

export class TaskIndex {
  private readonly byId = new Map<string, { account: SeedAccount; task: SeedTask }>();
  /** Duplicates made so far: each draws its id from its own stream (kept across a restart). */
  copyCount = 0;

  constructor(private readonly world: World) {
    for (const account of world.accounts)
      for (const g of account.groups) for (const task of g.tasks) this.byId.set(task.taskId, { account, task });
  }

  task(account: SeedAccount, taskId: string): SeedTask | undefined {
    const hit = this.byId.get(taskId);
    return hit && hit.account === account ? hit.task : undefined;
  }

  group(account: SeedAccount, taskGroupId: string): SeedGroup | undefined {
    return account.groups.find((g) => g.taskGroupId === taskGroupId);
  }

  /** A duplicate named "<name> (copy)" ("(copy 2)", … if taken) at the end of the group. */
  copy(account: SeedAccount, task: SeedTask, into: SeedGroup): SeedTask {
    const rng = rngFor(this.world.seed, 'copy', task.taskId, ++this.copyCount);
    let taskId: string;
    do taskId = uuidLike(rng);
    while (this.byId.has(taskId));
    const names = new Set(into.tasks.map((t) => t.taskName));
    let taskName = `${task.taskName} (copy)`;
    for (let n = 2; names.has(taskName); n++) taskName = `${task.taskName} (copy ${n})`;
    const copy: SeedTask = {
      taskId,
      taskName,
      taskGroupId: into.taskGroupId,
      copiedFrom: task.copiedFrom ?? task.taskId,
    };
    into.tasks.push(copy);
    this.byId.set(taskId, { account, task: copy });
    return copy;
  }

  /** A duplicate read back from the state file (`arrange` puts it in its group). */
  adopt(account: SeedAccount, copy: SeedTask): void {
    if (!this.byId.has(copy.taskId)) this.byId.set(copy.taskId, { account, task: copy });
  }

  /** Puts the account's tasks in the groups and order the state file says (after copies and moves). */
  arrange(account: SeedAccount, groups: Record<string, string[]>): void {
    for (const g of account.groups) {
      const ids = groups[g.taskGroupId];
      if (ids === undefined) continue;
      g.tasks = ids.map((id) => this.task(account, id)).filter((t): t is SeedTask => t !== undefined);
      for (const t of g.tasks) t.taskGroupId = g.taskGroupId;
    }
  }

  /** Moves a task to the end of another group; false if it is in that group already. */
  move(account: SeedAccount, task: SeedTask, to: SeedGroup): boolean {
    if (task.taskGroupId === to.taskGroupId) return false;
    const from = this.group(account, task.taskGroupId);
    if (from) from.tasks.splice(from.tasks.indexOf(task), 1);
    task.taskGroupId = to.taskGroupId;
    to.tasks.push(task);
    return true;
  }
}
