/**
 * What the Tasks view shows of health, for the account signed in now: the last snapshot judged
 * against the thresholds, per task, per group (the worst of its tasks) and the tasks that need
 * attention. Pure (no `vscode`): the controller writes it, the tree, the decorations and the badge
 * read it, and `onDidChange` tells them to redraw.
 */
import { Emitter, type Event } from '../platform/emitter';
import {
  assess,
  attentionOrder,
  DEFAULT_THRESHOLDS,
  type HealthLevel,
  needsAttention,
  type TaskHealth,
  type Thresholds,
  worstOf,
} from './healthModel';
import type { HealthSnapshot, SnapshotTask } from './snapshot';

export type HealthStatus =
  /** Signed out, or nothing computed or stored yet for this account and window. */
  | { kind: 'none' }
  | { kind: 'ready' }
  /** The account cannot read analytics (a plan refusal): said once, instead of per task. */
  | { kind: 'unavailable'; message: string; requestId: string | undefined };

export interface TaskHealthInfo {
  readonly task: SnapshotTask;
  readonly health: TaskHealth;
}

export interface GroupHealthInfo {
  readonly level: HealthLevel;
  readonly failing: number;
  readonly slowing: number;
  readonly idle: number;
  /** Tasks of the group the snapshot covers. */
  readonly tasks: number;
}

/** The read side, for views (which may not import the controller). */
export interface HealthView {
  readonly status: HealthStatus;
  readonly snapshot: HealthSnapshot | undefined;
  readonly thresholds: Readonly<Thresholds>;
  task(taskId: string): TaskHealthInfo | undefined;
  group(taskGroupId: string): GroupHealthInfo | undefined;
  /** Tasks over a threshold, failing first, then by the size of the figure. */
  attention(): readonly TaskHealthInfo[];
  /** Epoch ms now (the snapshot's age is measured against it). */
  now(): number;
  readonly onDidChange: Event<void>;
}

export class HealthBoard implements HealthView {
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  private state: HealthStatus = { kind: 'none' };
  private current: HealthSnapshot | undefined;
  private limits: Thresholds = { ...DEFAULT_THRESHOLDS };
  private byTask = new Map<string, TaskHealthInfo>();
  private byGroup = new Map<string, GroupHealthInfo>();
  private needing: TaskHealthInfo[] = [];

  constructor(readonly now: () => number = Date.now) {}

  get status(): HealthStatus {
    return this.state;
  }

  get snapshot(): HealthSnapshot | undefined {
    return this.current;
  }

  get thresholds(): Readonly<Thresholds> {
    return this.limits;
  }

  task(taskId: string): TaskHealthInfo | undefined {
    return this.byTask.get(taskId);
  }

  group(taskGroupId: string): GroupHealthInfo | undefined {
    return this.byGroup.get(taskGroupId);
  }

  attention(): readonly TaskHealthInfo[] {
    return this.needing;
  }

  /** A new snapshot (or none): judged at once with the thresholds in force. */
  show(
    snapshot: HealthSnapshot | undefined,
    status: HealthStatus = snapshot ? { kind: 'ready' } : { kind: 'none' },
  ): void {
    this.current = snapshot;
    this.state = status;
    this.judge();
  }

  /** The account cannot have health; whatever was shown goes. */
  unavailable(message: string, requestId: string | undefined): void {
    this.show(undefined, { kind: 'unavailable', message, requestId });
  }

  setThresholds(next: Readonly<Thresholds>): void {
    if (next.failureRate === this.limits.failureRate && next.slowdownFactor === this.limits.slowdownFactor) return;
    this.limits = { ...next };
    this.judge();
  }

  /** Ids over a threshold in `snapshot` under the current thresholds (for "newly crossed"). */
  attentionIds(snapshot: HealthSnapshot | undefined): Set<string> {
    const out = new Set<string>();
    for (const t of snapshot?.tasks ?? [])
      if (needsAttention(assess(t.current ?? undefined, t.previous ?? undefined, this.limits))) out.add(t.taskId);
    return out;
  }

  dispose(): void {
    this.changed.dispose();
  }

  private judge(): void {
    this.byTask = new Map();
    const groups = new Map<string, { levels: HealthLevel[]; failing: number; slowing: number; idle: number }>();
    for (const task of this.current?.tasks ?? []) {
      const health = assess(task.current ?? undefined, task.previous ?? undefined, this.limits);
      this.byTask.set(task.taskId, { task, health });
      let g = groups.get(task.taskGroupId);
      if (!g) groups.set(task.taskGroupId, (g = { levels: [], failing: 0, slowing: 0, idle: 0 }));
      g.levels.push(health.level);
      if (health.level === 'failing') g.failing++;
      else if (health.level === 'slowing') g.slowing++;
      else if (health.level === 'idle') g.idle++;
    }
    this.byGroup = new Map();
    for (const [id, g] of groups) {
      this.byGroup.set(id, {
        level: worstOf(g.levels) ?? 'ok',
        failing: g.failing,
        slowing: g.slowing,
        idle: g.idle,
        tasks: g.levels.length,
      });
    }
    this.needing = [...this.byTask.values()]
      .filter((i) => needsAttention(i.health))
      .sort((a, b) => attentionOrder(a.health, b.health));
    this.changed.fire();
  }
}
