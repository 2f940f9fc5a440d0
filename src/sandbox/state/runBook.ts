/**
 * Every task's runtime, created on first use from the seed: a history of past runs (lots of rows,
 * the last run with its subtasks and how it ended, a schedule for some), then whatever runs the
 * sandbox's users start. Times are relative to when the sandbox started, so the same seed and
 * clock give the same answers.
 *
 * The history follows the task's analytics (`CloudHistory`): as many runs as its records count in
 * the cloud, the last one ending on the last day they show one, and none for a task whose records
 * show no cloud run (local runs only, or none): it never ran in the cloud. Only the last
 * `LOTS_KEPT` runs still hold rows.
 */
import { chance, intBetween, pick, type Rng, rngFor, uuidLike } from '../seed/prng';
import type { CloudHistory } from '../seed/records';
import { TaskRows } from '../seed/rows';
import type { SeedTask } from '../seed/seed';
import { type Run, RUN_STATUS, type Subtask, TaskRuntime } from './runtime';

export const DEFAULT_RUN_SECONDS = 30;
/** How long a started run waits for a cloud node (`Waiting`) before it extracts. */
export const DEFAULT_QUEUE_SECONDS = 5;
/** Past runs whose rows the service still holds (older runs' rows are gone). */
export const LOTS_KEPT = 12;

/**
 * A run's lot number: 19 digits (a per-task prefix, then the run's number), more than a JSON number
 * holds exactly, as the service's lot numbers are; so a client that reads one as a number is caught.
 */
export function lotNumber(seed: number, taskId: string, run: number): string {
  const prefix = intBetween(rngFor(seed, 'lot', taskId), 100_000, 999_999);
  return `${prefix}${String(run).padStart(13, '0')}`;
}

/** A task's own run clock: seconds queued (`Waiting`), then seconds extracting. */
export interface TaskClock {
  queueSeconds: number;
  runSeconds: number;
}

export interface RunBookOptions {
  seed: number;
  /** When the sandbox started (epoch ms): seeded history is placed before it. */
  bornAt: number;
  /** How long a started run takes. */
  runSeconds: number;
  /** The queue and run seconds of the task of this name, where they differ from the sandbox's. */
  clockByTask?: Readonly<Record<string, TaskClock>>;
  /** Rows of the big benchmark task (when there is one). */
  bigTaskRows: number;
  /** How long a started run waits as `Waiting` before it extracts (0: at once). */
  queueSeconds: number;
  /** What the analytics records say of a task's cloud runs (undefined: none). */
  history: (taskId: string) => CloudHistory | undefined;
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

  /** Runtimes created so far (the state file writes them). */
  entries(): IterableIterator<[string, TaskRuntime]> {
    return this.runtimes.entries();
  }

  /** A runtime read back from the state file replaces the seeded one. */
  restore(taskId: string, rt: TaskRuntime): void {
    this.runtimes.set(taskId, rt);
  }

  rows(task: SeedTask): TaskRows {
    let rows = this.rowSets.get(task.taskId);
    if (!rows)
      this.rowSets.set(
        task.taskId,
        (rows = new TaskRows(this.options.seed, task.taskId, task.copiedFrom ?? task.taskId)),
      );
    return rows;
  }

  /** Starts a run now (it waits `queueSeconds` for a node first); undefined if one is under way already. */
  start(task: SeedTask, now: number): Run | undefined {
    const rt = this.of(task);
    if (rt.isRunning(now)) return undefined;
    const n = rt.executedTimes + 1;
    const rng = rngFor(this.options.seed, 'run', task.taskId, n);
    const byTask = this.options.clockByTask;
    const clock = byTask !== undefined && Object.hasOwn(byTask, task.taskName) ? byTask[task.taskName] : undefined;
    const durationMs = Math.max(1, Math.round((clock?.runSeconds ?? this.options.runSeconds) * 1000));
    const startedAt = now + Math.max(0, Math.round((clock?.queueSeconds ?? this.options.queueSeconds) * 1000));
    const run: Run = {
      lotNo: lotNumber(this.options.seed, task.taskId, n),
      acceptedAt: now,
      startedAt,
      endsAt: startedAt + durationMs,
      plannedRows: task.kind === 'big' ? 1000 : intBetween(rng, 120, 600),
      first: rt.rowEnd,
      outcome: task.health === 'failing' ? RUN_STATUS.failed : RUN_STATUS.finished,
      subtasks: subtasks(rng, startedAt, durationMs),
    };
    rt.begin(run);
    return run;
  }

  private seeded(task: SeedTask): TaskRuntime {
    const rt = new TaskRuntime();
    if (task.copiedFrom !== undefined) return rt; // a duplicate has never run and has no data
    const rng = rngFor(this.options.seed, 'runtime', task.taskId);
    const big = task.kind === 'big';
    // The benchmark's big task has one run of its own size (its analytics are not its point).
    const history = big ? undefined : this.options.history(task.taskId);
    const runs = big ? 1 : (history?.runs ?? 0);
    for (let n = Math.max(1, runs - LOTS_KEPT + 1); n <= runs; n++) {
      const count = big ? this.options.bigTaskRows : intBetween(rng, 20, 300);
      rt.lots.push({ lotNo: lotNumber(this.options.seed, task.taskId, n), first: rt.rowEnd, count });
      rt.rowEnd += count;
    }
    rt.executedTimes = runs;
    const last = rt.lots[rt.lots.length - 1];
    if (last) {
      rt.run = this.pastRun(rng, task, history, last.lotNo, last.first, last.count);
      // Only the latest run's rows are new to an exporter (the big task's are all new).
      rt.exportedUpTo = rt.pendingUpTo = big ? 0 : last.first;
    }
    if (!big && chance(rng, 0.25)) {
      rt.schedule = {
        anchor: this.options.bornAt + intBetween(rng, 1, 59) * 60_000,
        periodMs: pick(rng, [1, 6, 24]) * 3600_000,
      };
    }
    return rt;
  }

  /** The last past run: it ended on the last day the analytics show a cloud run, as that day's runs most likely did. */
  private pastRun(
    rng: Rng,
    task: SeedTask,
    history: CloudHistory | undefined,
    lotNo: string,
    first: number,
    rows: number,
  ): Run {
    const durationMs = intBetween(rng, 2, 40) * 60_000;
    const endsAt =
      history === undefined
        ? this.options.bornAt - intBetween(rng, 1, 72) * 3600_000
        : endOn(rng, history.lastDate, this.options.bornAt);
    const startedAt = endsAt - durationMs;
    const failed =
      history === undefined
        ? task.health === 'failing'
        : history.lastFailures > 0 && (task.health === 'failing' || rng() < history.lastFailures / history.lastRuns);
    const status = failed ? RUN_STATUS.failed : chance(rng, 0.12) ? RUN_STATUS.stopped : RUN_STATUS.finished;
    const subs = subtasks(rng, startedAt, durationMs);
    if (status === RUN_STATUS.stopped) for (const s of subs) if (s.endsAt > endsAt - 1) s.stoppedAt = endsAt;
    const outcome = status === RUN_STATUS.failed ? RUN_STATUS.failed : RUN_STATUS.finished;
    return {
      lotNo,
      acceptedAt: startedAt,
      startedAt,
      endsAt,
      plannedRows: rows,
      first,
      outcome,
      subtasks: subs,
      end: { at: endsAt, status, rows },
    };
  }
}

/** A moment on `day` (UTC), before the sandbox started when that day is today. */
function endOn(rng: Rng, day: string, bornAt: number): number {
  const dayStart = Date.parse(`${day}T00:00:00Z`);
  const latest = Math.min(dayStart + 86_400_000 - 1, bornAt - 1);
  return dayStart + Math.floor(rng() * Math.max(1, latest - dayStart));
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
