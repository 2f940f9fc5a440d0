/**
 * When health is refreshed: every `intervalMs` while the Tasks view is visible and the account can
 * have health, at once when the view shows and the last refresh is older than that, and on demand.
 * Never on a timer while the view is hidden: hiding it cancels a scheduled refresh under way (an
 * on-demand one runs to its end). One refresh at a time. Pure (timers injected), so fake timers
 * drive it in unit tests.
 */
import type { Timers } from '../api/http/limiter';

export interface ScheduleOptions {
  timers: Timers;
  intervalMs(): number;
  /** The refresh itself; it should stop when `signal` aborts. */
  run(signal: AbortSignal, onDemand: boolean): Promise<void>;
}

interface InFlight {
  promise: Promise<void>;
  abort: AbortController;
  onDemand: boolean;
}

export class RefreshSchedule {
  private visible = false;
  private enabled = false;
  /** `timers.now()` when the last refresh ended (or what a cached snapshot's age implies). */
  private lastRun: number | undefined;
  private timer: unknown;
  private inFlight: InFlight | undefined;
  private disposed = false;

  constructor(private readonly options: ScheduleOptions) {}

  get running(): boolean {
    return this.inFlight !== undefined;
  }

  get isVisible(): boolean {
    return this.visible;
  }

  setVisible(visible: boolean): void {
    this.visible = visible;
    this.evaluate();
  }

  /** Signed in, and analytics not refused. */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    this.evaluate();
  }

  /** What is shown is `ageMs` old (a stored snapshot): the next refresh is due when that reaches the interval. */
  markFresh(ageMs: number | undefined): void {
    this.lastRun = ageMs === undefined ? undefined : this.options.timers.now() - Math.max(0, ageMs);
    this.evaluate();
  }

  /** Another account or window: stop what runs, forget when it last ran. */
  reset(): void {
    this.inFlight?.abort.abort();
    this.inFlight = undefined;
    this.lastRun = undefined;
    this.clearTimer();
  }

  /** The interval changed: the next refresh is measured from the last one again. */
  reschedule(): void {
    this.clearTimer();
    this.evaluate();
  }

  /** On demand: runs even if the view is hidden; joins a refresh under way. */
  runNow(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    return this.inFlight?.promise ?? this.start(true);
  }

  dispose(): void {
    this.disposed = true;
    this.reset();
  }

  private evaluate(): void {
    if (this.disposed) return;
    const active = this.visible && this.enabled;
    if (!active) {
      this.clearTimer();
      // A scheduled refresh is for a visible view; an on-demand one was asked for.
      if (this.inFlight && (!this.enabled || !this.inFlight.onDemand)) this.inFlight.abort.abort();
      return;
    }
    if (this.inFlight || this.timer !== undefined) return;
    const wait = this.lastRun === undefined ? 0 : this.lastRun + this.options.intervalMs() - this.options.timers.now();
    if (wait <= 0) {
      void this.start(false);
      return;
    }
    this.timer = this.options.timers.setTimeout(() => {
      this.timer = undefined;
      this.evaluate();
    }, wait);
  }

  private start(onDemand: boolean): Promise<void> {
    this.clearTimer();
    const abort = new AbortController();
    const promise = this.options
      .run(abort.signal, onDemand)
      .catch(() => undefined) // the run reports its own failures
      .finally(() => {
        if (this.inFlight?.abort !== abort) return; // reset meanwhile
        this.inFlight = undefined;
        // A cancelled refresh (view hidden) is due again as soon as the view shows.
        if (!abort.signal.aborted) this.lastRun = this.options.timers.now();
        this.evaluate();
      });
    this.inFlight = { promise, abort, onDemand };
    return promise;
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.options.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
