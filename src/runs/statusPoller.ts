/**
 * Live run status, without `vscode`. Polling costs what it must:
 * - only the tasks on screen (the rows of expanded groups) are asked, in one call that the client
 *   cuts into one request per 100 ids;
 * - nothing is asked while the view is hidden;
 * - the timer runs only while a visible task is queued or extracting (or our start/stop is on its
 *   way), every `intervalMs()`; when nothing runs, it stops until something starts or the view
 *   shows again;
 * - while something on screen changes state (a start or stop on its way, a run queued, or one that
 *   has counted no rows yet) the next polls come after `FOLLOW_MS` instead, for at most
 *   `FOLLOW_WINDOW_MS` after the last change seen: the same one call per poll, a few more polls;
 * - a run started or stopped here (`follow`: the tree, a command, an agent) is polled every
 *   `FOLLOW_MS` until it is no longer under way, however long it runs, and whether or not its row
 *   is on screen or the view is shown: the person who started it waits for its end (and its finish
 *   notice). Only those tasks are asked while the view is hidden.
 * Rows that appear are asked once (shortly, so groups opened together share a request). A plan
 * that may not read statuses (403) stops polling for this account; other failures wait for the
 * next tick. `reset()` (another account) drops answers still on their way.
 */
import { isApiError } from '../api/errors/errors';
import type { Timers } from '../api/http/limiter';
import type { TaskRunStatus } from '../api/ops/runs';
import type { RunEntry, RunStore } from './runStore';

/** One poll's answer: the statuses, and whether an id left out of it never ran in the cloud (a v2 answer). */
export interface PollAnswer {
  statuses: readonly TaskRunStatus[];
  leftOutNeverRan: boolean;
}

export interface PollerDeps {
  timers: Timers;
  /** Statuses of these tasks (the client's `getTaskStatuses`: one request per 100 ids). */
  fetch(taskIds: readonly string[], signal: AbortSignal): Promise<PollAnswer>;
  store: Pick<RunStore, 'apply' | 'anyActive' | 'anySettling' | 'get' | 'isActive'>;
  /** The pause between polls (`scrapedeck.runs.refreshSeconds`), read at every tick. */
  intervalMs(): number;
  /**
   * A poll failed: `stopped` when polling is off until `reset()` (the plan does not include run
   * statuses), `inARow` how many polls have failed in a row (so a caller can speak up once).
   */
  onError(error: unknown, stopped: boolean, inARow: number): void;
}

/** Whether the service has said something of this task: a status, or that it never ran in the cloud. */
function known(entry: RunEntry | undefined): boolean {
  return entry?.status !== undefined || entry?.neverRun === true;
}

/** Rows that appear are asked after this pause, so several groups opened together share a request. */
export const SHOW_COALESCE_MS = 30;
/** The pause between polls while something on screen changes state (never longer than the interval). */
export const FOLLOW_MS = 2_000;
/** How long after a start, a stop or a change of state the polls follow at `FOLLOW_MS`. */
export const FOLLOW_WINDOW_MS = 12_000;

export class StatusPoller {
  private visible = false;
  /** Task ids on screen, per scope (a group's rows). */
  private readonly scopes = new Map<string, readonly string[]>();
  private timer: unknown;
  private soonTimer: unknown;
  /** Ids to ask next ('all' = every visible one). */
  private queued: Set<string> | 'all' | undefined;
  private running = false;
  private abort: AbortController | undefined;
  private disabled = false;
  private failuresInARow = 0;
  private generation = 0;
  /** Until when (the timers' clock, ms) polls follow a change at FOLLOW_MS. */
  private followUntil = -Infinity;
  /** Tasks whose run was started or stopped here: polled at FOLLOW_MS until they are no longer active. */
  private readonly followed = new Set<string>();
  private elapsed = 0;
  /** For tests and the bench: polls sent (calls of `fetch`) and ticks of the timer. */
  readonly stats = { fetches: 0, ticks: 0, followTicks: 0 };

  constructor(private readonly deps: PollerDeps) {}

  get isVisible(): boolean {
    return this.visible;
  }

  /** Whether a poll is on its way or queued to go now. */
  get isPolling(): boolean {
    return this.running || this.soonTimer !== undefined;
  }

  /** Whether the timer is set (something visible runs). */
  get isScheduled(): boolean {
    return this.timer !== undefined;
  }

  /** Every task id on screen, once each. */
  visibleIds(): string[] {
    const all = new Set<string>();
    for (const ids of this.scopes.values()) for (const id of ids) all.add(id);
    return [...all];
  }

  /** Task ids whose run started or stopped here is still followed. */
  followedIds(): string[] {
    return [...this.followed];
  }

  /** What a poll of everything asks: the rows on screen (while shown) and the runs followed. */
  private askableIds(): string[] {
    return this.visible ? [...new Set([...this.visibleIds(), ...this.followed])] : [...this.followed];
  }

  /** The view was shown or hidden. Shown again, every visible status is asked (it may have changed meanwhile). */
  setVisible(visible: boolean): void {
    if (visible === this.visible) return;
    this.visible = visible;
    if (visible) {
      this.request('all');
      return;
    }
    this.cancelTimers();
    this.abort?.abort();
    // A run started here is still followed to its end.
    this.schedule();
  }

  /** A scope's rows are on screen (a group expanded or listed again). Rows that just appeared are asked. */
  show(scope: string, taskIds: readonly string[]): void {
    const before = new Set(this.visibleIds());
    this.scopes.set(scope, [...taskIds]);
    const fresh = taskIds.filter((id) => !before.has(id) || !known(this.deps.store.get(id)));
    if (fresh.length > 0) this.requestSoon(fresh);
  }

  /** A scope's rows left the screen (a group collapsed). */
  hide(scope: string): void {
    this.scopes.delete(scope);
  }

  /** Ask now: these tasks (after a start or stop), or every visible one (a refresh). */
  refresh(taskIds?: readonly string[]): void {
    this.request(taskIds === undefined ? 'all' : new Set(taskIds));
  }

  /** These tasks were just started or stopped (or their data removed): follow them closely for a while. */
  follow(taskIds: readonly string[]): void {
    this.followUntil = this.elapsed + FOLLOW_WINDOW_MS;
    for (const id of taskIds) this.followed.add(id);
    this.refresh(taskIds);
  }

  /** Another account or signed out: stop, forget the rows on screen, drop answers on their way. */
  reset(): void {
    this.generation++;
    this.cancelTimers();
    this.abort?.abort();
    this.scopes.clear();
    this.followed.clear();
    this.queued = undefined;
    this.disabled = false;
    this.failuresInARow = 0;
  }

  dispose(): void {
    this.reset();
    this.visible = false;
  }

  private requestSoon(ids: readonly string[]): void {
    this.merge(new Set(ids));
    if (this.soonTimer !== undefined || this.running) return;
    this.soonTimer = this.deps.timers.setTimeout(() => {
      this.soonTimer = undefined;
      void this.drain();
    }, SHOW_COALESCE_MS);
  }

  private request(ids: Set<string> | 'all'): void {
    this.merge(ids);
    void this.drain();
  }

  private merge(ids: Set<string> | 'all'): void {
    if (ids === 'all' || this.queued === 'all') this.queued = 'all';
    else this.queued = new Set([...(this.queued ?? []), ...ids]);
  }

  /** Asks what is queued, one call at a time, then sets the timer if something visible runs. */
  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const generation = this.generation;
    try {
      while (
        this.queued !== undefined &&
        (this.visible || this.followed.size > 0) &&
        !this.disabled &&
        generation === this.generation
      ) {
        const queued = this.queued;
        this.queued = undefined;
        // Hidden, only the runs followed are asked.
        const asked =
          queued === 'all' ? this.askableIds() : [...queued].filter((id) => this.visible || this.followed.has(id));
        if (asked.length > 0) await this.poll(asked, generation);
        this.dropEnded();
      }
    } finally {
      this.running = false;
      // After a reset, what the new account queued meanwhile still has to go out.
      if (generation === this.generation) this.schedule();
      else if (this.queued !== undefined) void this.drain();
    }
  }

  private async poll(taskIds: readonly string[], generation: number): Promise<void> {
    const abort = new AbortController();
    this.abort = abort;
    this.stats.fetches++;
    try {
      const answer = await this.deps.fetch(taskIds, abort.signal);
      if (generation === this.generation && !abort.signal.aborted) {
        this.failuresInARow = 0;
        const seen = new Set(answer.statuses.map((s) => s.taskId));
        const before = taskIds.map((id) => this.kindKey(id));
        this.deps.store.apply(answer.statuses, answer.leftOutNeverRan ? taskIds.filter((id) => !seen.has(id)) : []);
        // A task that changed state (queued -> extracting -> ended) is followed closely for a while.
        // (Learning a state for the first time is not a change.)
        if (taskIds.some((id, i) => before[i] !== '' && this.kindKey(id) !== before[i]))
          this.followUntil = this.elapsed + FOLLOW_WINDOW_MS;
      }
    } catch (error) {
      if (generation !== this.generation || abort.signal.aborted) return;
      if (isApiError(error) && error.kind === 'cancelled') return;
      const stop = isApiError(error) && error.kind === 'forbidden';
      if (stop) this.disabled = true;
      this.deps.onError(error, stop, ++this.failuresInARow);
    } finally {
      if (this.abort === abort) this.abort = undefined;
    }
  }

  private schedule(): void {
    if (this.timer !== undefined) {
      this.deps.timers.clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.dropEnded();
    const visible = this.visible ? this.visibleIds() : [];
    const askable = this.askableIds();
    if (this.disabled || !this.deps.store.anyActive(askable)) return;
    const interval = Math.max(1000, this.deps.intervalMs());
    const follow = this.followed.size > 0 || (this.elapsed < this.followUntil && this.deps.store.anySettling(visible));
    const delay = follow ? Math.min(interval, FOLLOW_MS) : interval;
    this.timer = this.deps.timers.setTimeout(() => {
      this.timer = undefined;
      this.elapsed += delay;
      this.stats.ticks++;
      if (follow) this.stats.followTicks++;
      this.request('all');
    }, delay);
  }

  /** A followed run that is no longer under way (nor our start or stop on its way) is followed no more. */
  private dropEnded(): void {
    for (const id of this.followed) if (!this.deps.store.isActive(id)) this.followed.delete(id);
  }

  /** What decides a row's state, to see it change: the status text, or never run, or unknown. */
  private kindKey(taskId: string): string {
    const entry = this.deps.store.get(taskId);
    if (entry?.neverRun === true) return 'never';
    return entry?.status?.status ?? '';
  }

  private cancelTimers(): void {
    if (this.timer !== undefined) this.deps.timers.clearTimeout(this.timer);
    if (this.soonTimer !== undefined) this.deps.timers.clearTimeout(this.soonTimer);
    this.timer = undefined;
    this.soonTimer = undefined;
  }
}
