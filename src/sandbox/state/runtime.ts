/**
 * One task's life in the sandbox: its runs (the current or last one, with subtasks), the lots of
 * rows runs left behind, and the window of its data (what remove dropped, what was handed out
 * and marked exported). Everything is computed from the clock when asked: a run collects rows
 * linearly over its duration and ends on its own when its time is up, with no timer anywhere,
 * so a test moves a fake clock instead of sleeping.
 *
 * Rows are numbered in one space per task that never restarts (remove only moves the window's
 * start): the data offsets the sandbox returns are these numbers, so a client that computes
 * offsets instead of using the returned one is caught after a remove.
 */

export interface Lot {
  lotNo: string;
  first: number;
  count: number;
}

export interface Subtask {
  subTaskId: string;
  endsAt: number;
  stoppedAt: number | null;
}

export interface Run {
  /** The run's lot ("batch") number: up to 19 digits, beyond what a JSON number holds exactly. */
  lotNo: string;
  /** When it was started (accepted); until `startedAt` it waits for a cloud node. */
  acceptedAt: number;
  /** When extraction began (or begins). */
  startedAt: number;
  endsAt: number;
  /** Rows collected by the natural end. */
  plannedRows: number;
  /** The row number its first row gets. */
  first: number;
  /** How it ends on its own. */
  outcome: 'Finished' | 'Failed';
  subtasks: Subtask[];
  /** Set once over: when, with which status, and the rows it collected. */
  end?: { at: number; status: string; rows: number };
}

/**
 * Status values the sandbox sends: the service publishes `Extracting` and `Stopped`; public clients
 * also read `Finished` and `Waiting` (queued for a cloud node); `Failed` is the sandbox's.
 */
export const RUN_STATUS = {
  waiting: 'Waiting',
  extracting: 'Extracting',
  stopped: 'Stopped',
  finished: 'Finished',
  failed: 'Failed',
} as const;

/** A runtime as plain data (the state file). */
export interface RuntimeData {
  run?: Run;
  executedTimes: number;
  lots: Lot[];
  rowEnd: number;
  visibleStart: number;
  exportedUpTo: number;
  pendingUpTo: number;
  schedule?: { anchor: number; periodMs: number };
}

export interface Slice {
  from: number;
  to: number;
}

export class TaskRuntime {
  run: Run | undefined;
  /** Runs started so far (the one extracting included). */
  executedTimes = 0;
  readonly lots: Lot[] = [];
  /** Row number after the last finished lot. */
  rowEnd = 0;
  /** Rows before this were removed. */
  visibleStart = 0;
  /** Rows before this are exported. */
  exportedUpTo = 0;
  /** Rows before this were handed out by not-exported (pending until marked). */
  pendingUpTo = 0;
  /** A schedule shows as nextExecuteTime; the sandbox never starts runs by it. */
  schedule: { anchor: number; periodMs: number } | undefined;

  /** Ends a run whose time is up. Call before reading anything. */
  settle(now: number): void {
    const run = this.run;
    if (run && !run.end && now >= run.endsAt) this.finish(run, run.endsAt, run.outcome, run.plannedRows);
  }

  isRunning(now: number): boolean {
    this.settle(now);
    return this.run !== undefined && this.run.end === undefined;
  }

  status(now: number): string {
    this.settle(now);
    if (!this.run) return RUN_STATUS.stopped;
    return this.run.end?.status ?? (this.isQueued(now) ? RUN_STATUS.waiting : RUN_STATUS.extracting);
  }

  /** Started, still waiting for a cloud node (no rows yet). */
  isQueued(now: number): boolean {
    return this.isRunning(now) && now < (this.run as Run).startedAt;
  }

  /** Rows the current or last run collected by `now`. */
  collected(now: number): number {
    const run = this.run;
    if (!run) return 0;
    if (run.end) return run.end.rows;
    const span = Math.max(1, run.endsAt - run.startedAt);
    const fraction = Math.min(1, Math.max(0, (now - run.startedAt) / span));
    return Math.floor(run.plannedRows * fraction);
  }

  /**
   * Rows of the current or last run the task still holds (`currentTotalExtractCount`): what it
   * collected, less what Remove Data took away since.
   */
  held(now: number): number {
    const run = this.run;
    if (!run) return 0;
    const end = run.first + this.collected(now);
    return Math.max(0, end - Math.max(run.first, this.visibleStart));
  }

  /** Row number after the last row that exists now (a running lot's rows appear as they are collected). */
  rowCount(now: number): number {
    this.settle(now);
    return this.isRunning(now) ? this.rowEnd + this.collected(now) : this.rowEnd;
  }

  nextExecuteTime(now: number): number | null {
    const s = this.schedule;
    if (!s) return null;
    return now <= s.anchor ? s.anchor : s.anchor + Math.ceil((now - s.anchor) / s.periodMs) * s.periodMs;
  }

  begin(run: Run): void {
    this.run = run;
    this.executedTimes++;
  }

  /** Stops the run now; false if nothing runs. */
  stop(now: number): boolean {
    if (!this.isRunning(now)) return false;
    const run = this.run as Run;
    for (const s of run.subtasks) if (s.stoppedAt === null && s.endsAt > now) s.stoppedAt = now;
    this.finish(run, now, RUN_STATUS.stopped, this.collected(now));
    return true;
  }

  subtaskStatus(s: Subtask, now: number): string {
    this.settle(now);
    if (s.stoppedAt !== null) return RUN_STATUS.stopped;
    if (this.isQueued(now)) return RUN_STATUS.waiting;
    if (now < s.endsAt) return RUN_STATUS.extracting;
    const run = this.run as Run;
    const last = run.subtasks[run.subtasks.length - 1] === s;
    return run.end?.status === RUN_STATUS.failed && last ? RUN_STATUS.failed : RUN_STATUS.finished;
  }

  /** Stops the named subtasks still extracting; when none is left extracting, the run stops too. */
  stopSubtasks(ids: ReadonlySet<string>, now: number): void {
    const run = this.run as Run;
    for (const s of run.subtasks) if (ids.has(s.subTaskId) && s.stoppedAt === null && s.endsAt > now) s.stoppedAt = now;
    if (run.subtasks.every((s) => s.stoppedAt !== null || s.endsAt <= now)) this.stop(now);
  }

  /** Resumes the named stopped subtasks (within the run's time). */
  startSubtasks(ids: ReadonlySet<string>, now: number): void {
    const run = this.run as Run;
    for (const s of run.subtasks) {
      if (!ids.has(s.subTaskId) || s.stoppedAt === null) continue;
      s.stoppedAt = null;
      s.endsAt = Math.min(run.endsAt, Math.max(s.endsAt, now));
    }
  }

  /** The rows of one lot that still exist, or undefined for a lot number this task never had. */
  lot(lotNo: string, now: number): Slice | undefined {
    this.settle(now);
    const done = this.lots.find((l) => l.lotNo === lotNo);
    const run = this.run;
    const range = done
      ? { from: done.first, to: done.first + done.count }
      : run && !run.end && run.lotNo === lotNo
        ? { from: run.first, to: run.first + this.collected(now) }
        : undefined;
    return range && { from: Math.max(range.from, this.visibleStart), to: Math.max(range.to, this.visibleStart) };
  }

  /** Rows not exported yet, at most `size`: handed out (pending) until marked; asked again before marking, the same rows come. */
  handOut(size: number, now: number): { slice: Slice; total: number } {
    const end = this.rowCount(now);
    const from = Math.max(this.exportedUpTo, this.visibleStart);
    const to = Math.min(end, from + size);
    this.pendingUpTo = Math.max(this.pendingUpTo, to);
    return { slice: { from, to }, total: end - from };
  }

  /** Marks the rows handed out as exported (not rows that arrived since and were never handed out). */
  markExported(): void {
    this.exportedUpTo = Math.max(this.exportedUpTo, this.pendingUpTo);
  }

  remove(now: number): void {
    const end = this.rowCount(now);
    this.visibleStart = end;
    this.exportedUpTo = Math.max(this.exportedUpTo, end);
    this.pendingUpTo = Math.max(this.pendingUpTo, end);
  }

  /** Plain data for the state file (`persist.ts`). */
  toJSON(): RuntimeData {
    return {
      ...(this.run === undefined ? {} : { run: structuredClone(this.run) }),
      executedTimes: this.executedTimes,
      lots: this.lots.map((l) => ({ ...l })),
      rowEnd: this.rowEnd,
      visibleStart: this.visibleStart,
      exportedUpTo: this.exportedUpTo,
      pendingUpTo: this.pendingUpTo,
      ...(this.schedule === undefined ? {} : { schedule: { ...this.schedule } }),
    };
  }

  static fromJSON(data: RuntimeData): TaskRuntime {
    const rt = new TaskRuntime();
    rt.run = data.run === undefined ? undefined : structuredClone(data.run);
    rt.executedTimes = data.executedTimes;
    rt.lots.push(...data.lots.map((l) => ({ ...l })));
    rt.rowEnd = data.rowEnd;
    rt.visibleStart = data.visibleStart;
    rt.exportedUpTo = data.exportedUpTo;
    rt.pendingUpTo = data.pendingUpTo;
    rt.schedule = data.schedule === undefined ? undefined : { ...data.schedule };
    return rt;
  }

  private finish(run: Run, at: number, status: string, rows: number): void {
    run.end = { at, status, rows };
    this.lots.push({ lotNo: run.lotNo, first: run.first, count: rows });
    this.rowEnd = run.first + rows;
  }
}
