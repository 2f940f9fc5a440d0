/**
 * Every task's runtime, created on first use from the seed: a history of past runs (lots of rows,
 * the last run with its subtasks and how it ended, a schedule for some), then whatever runs the
 * sandbox's users start. Times are relative to when the sandbox started, so the same seed and
 * clock give the same answers.
 */
import { chance, intBetween, pick, rngFor, uuidLike, type Rng } from './prng';
import { TaskRows } from './rows';
import { RUN_STATUS, TaskRuntime, type Run, type Subtask } from './runtime';
import type { SeedTask } from './seed';

export const DEFAULT_RUN_SECONDS = 30;

export interface RunBookOptions {
  seed: number;
  /** When the sandbox started (epoch ms): seeded history is placed before it. */
  bornAt: number;
  /** How long a started run takes. */
  runSeconds: number;
  /** Rows of the big benchmark task (when there is one). */
  bigTaskRows: number;
}

export class RunBook {
  private readonly runtimes = new Map<string, TaskRuntime>();
  private readonly rowSets = new Map<string, TaskRows>();

  constructor(readonly options: RunBookOptions) {}

  of(task: SeedTask): TaskRuntime {
    let rt = this.runtimes.get(task.taskId);
    if (!rt) this.runtimes.set(task.taskId, (rt = this.seeded(task)));
    return rt;
  }

  rows(task: SeedTask): TaskRows {
    let rows = this.rowSets.get(task.taskId);
    if (!rows) this.rowSets.set(task.taskId, (rows = new TaskRows(this.options.seed, task.taskId, task.copiedFrom ?? task.taskId)));
    return rows;
  }

  /** Starts a run now; false if one is running already. */
  start(task: SeedTask, now: number): boolean {
    const rt = this.of(task);
    if (rt.isRunning(now)) return false;
    const n = rt.executedTimes + 1;
    const rng = rngFor(this.options.seed, 'run', task.taskId, n);
    const durationMs = Math.max(1, Math.round(this.options.runSeconds * 1000));
    rt.begin({
      lotNo: String(n),
      startedAt: now,
      endsAt: now + durationMs,
      plannedRows: task.kind === 'big' ? 1000 : intBetween(rng, 120, 600),
      first: rt.rowEnd,
      outcome: task.health === 'failing' ? RUN_STATUS.failed : RUN_STATUS.finished,
      subtasks: subtasks(rng, now, durationMs),
    });
    return true;
  }

  private seeded(task: SeedTask): TaskRuntime {
    const rt = new TaskRuntime();
    if (task.copiedFrom !== undefined) return rt; // a duplicate has never run and has no data
    const rng = rngFor(this.options.seed, 'runtime', task.taskId);
    const big = task.kind === 'big';
    const runs = big ? 1 : task.health === undefined && chance(rng, 0.1) ? 0 : intBetween(rng, task.health ? 6 : 1, 24);
    for (let i = 1; i <= runs; i++) {
      const count = big ? this.options.bigTaskRows : intBetween(rng, 20, 300);
      rt.lots.push({ lotNo: String(i), first: rt.rowEnd, count });
      rt.rowEnd += count;
    }
    rt.executedTimes = runs;
    const last = rt.lots[rt.lots.length - 1];
    if (last) {
      rt.run = this.pastRun(rng, task, last.lotNo, last.first, last.count);
      // Only the latest run's rows are new to an exporter (the big task's are all new).
      rt.exportedUpTo = rt.pendingUpTo = big ? 0 : last.first;
    }
    if (!big && chance(rng, 0.25)) {
      rt.schedule = { anchor: this.options.bornAt + intBetween(rng, 1, 59) * 60_000, periodMs: pick(rng, [1, 6, 24]) * 3600_000 };
    }
    return rt;
  }

  private pastRun(rng: Rng, task: SeedTask, lotNo: string, first: number, rows: number): Run {
    const durationMs = intBetween(rng, 2, 40) * 60_000;
    const endsAt = this.options.bornAt - intBetween(rng, 1, 72) * 3600_000;
    const startedAt = endsAt - durationMs;
    const status = task.health === 'failing' ? RUN_STATUS.failed : chance(rng, 0.12) ? RUN_STATUS.stopped : RUN_STATUS.finished;
    const subs = subtasks(rng, startedAt, durationMs);
    if (status === RUN_STATUS.stopped) for (const s of subs) if (s.endsAt > endsAt - 1) s.stoppedAt = endsAt;
    const outcome = status === RUN_STATUS.failed ? RUN_STATUS.failed : RUN_STATUS.finished;
    return { lotNo, startedAt, endsAt, plannedRows: rows, first, outcome, subtasks: subs, end: { at: endsAt, status, rows } };
  }
}

/** 2 to 6 subtasks that finish one after another over the run; the last at the run's end. */
function subtasks(rng: Rng, startedAt: number, durationMs: number): Subtask[] {
  const k = intBetween(rng, 2, 6);
  return Array.from({ length: k }, (_, j) => ({
    subTaskId: uuidLike(rng),
    endsAt: startedAt + Math.round((durationMs * (j + 1)) / k),
    stoppedAt: null,
  }));
}
