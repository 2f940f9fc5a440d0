/**
 * The client-side rate limit: at most `perSecond` grants in any sliding window of one second
 * (plus a small guard for network jitter), FIFO, never failing — a burst waits its turn.
 * A 429 pauses the whole limiter, so every queued call slows down, not just the one refused.
 */
import { ApiError } from './errors';

export interface Timers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface LimiterOptions {
  /** Grants per window. */
  perSecond: number;
  /** Window length (ms). Default 1000. */
  windowMs?: number;
  /**
   * Extra ms added to the window: requests granted exactly one window apart can arrive closer
   * together at the server (their sends are jittered), so leave a little room. Default 25.
   */
  guardMs?: number;
  timers?: Timers;
}

/** What the transport needs from a limiter; a shared or custom limiter can be injected. */
export interface RequestLimiter {
  /** Resolves when the caller may send. `priority` jumps the queue (token renewal that others wait on). */
  acquire(signal?: AbortSignal, priority?: boolean): Promise<void>;
  /** Grants nothing for the next `ms` (the server asked us to slow down). */
  pause(ms: number): void;
}

interface Waiter {
  resolve: () => void;
  reject: (e: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

export class RateLimiter implements RequestLimiter {
  readonly perSecond: number;
  private readonly windowMs: number;
  private readonly timers: Timers;
  /** Ring of the most recent `perSecond` grant times; `head` is the oldest once full. */
  private readonly ring: Float64Array;
  private head = 0;
  private count = 0;
  private readonly queue: Waiter[] = [];
  private pausedUntil = 0;
  private timer: unknown = undefined;
  private timerAt = 0;

  constructor(options: LimiterOptions) {
    if (!(options.perSecond > 0)) throw new RangeError('perSecond must be positive');
    this.perSecond = Math.max(1, Math.floor(options.perSecond));
    this.windowMs = (options.windowMs ?? 1000) + (options.guardMs ?? 25);
    this.timers = options.timers ?? realTimers;
    this.ring = new Float64Array(this.perSecond);
  }

  /** Number of callers waiting for a grant. */
  get pending(): number {
    return this.queue.length;
  }

  acquire(signal?: AbortSignal, priority = false): Promise<void> {
    if (signal?.aborted) return Promise.reject(cancelled());
    // Fast path: nobody waiting and a slot free now.
    if (this.queue.length === 0 && this.nextFreeAt() <= this.timers.now()) {
      this.grant();
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal, onAbort: undefined };
      if (signal) {
        waiter.onAbort = () => {
          const i = this.queue.indexOf(waiter);
          if (i >= 0) this.queue.splice(i, 1);
          reject(cancelled());
          this.schedule();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      if (priority) this.queue.unshift(waiter);
      else this.queue.push(waiter);
      this.schedule();
    });
  }

  pause(ms: number): void {
    if (!(ms > 0)) return;
    this.pausedUntil = Math.max(this.pausedUntil, this.timers.now() + ms);
    this.schedule();
  }

  /** The earliest time a new grant is allowed. */
  private nextFreeAt(): number {
    const byWindow = this.count === this.perSecond ? (this.ring[this.head] as number) + this.windowMs : 0;
    return Math.max(byWindow, this.pausedUntil);
  }

  private grant(): void {
    this.ring[this.head] = this.timers.now();
    this.head = (this.head + 1) % this.perSecond;
    if (this.count < this.perSecond) this.count++;
  }

  private drain = (): void => {
    this.timer = undefined;
    while (this.queue.length > 0 && this.nextFreeAt() <= this.timers.now()) {
      const waiter = this.queue.shift() as Waiter;
      if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort);
      this.grant();
      waiter.resolve();
    }
    this.schedule();
  };

  private schedule(): void {
    if (this.queue.length === 0) {
      if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
      this.timer = undefined;
      return;
    }
    const at = this.nextFreeAt();
    if (this.timer !== undefined) {
      if (this.timerAt <= at) return; // already waking up early enough; drain re-checks
      this.timers.clearTimeout(this.timer);
    }
    this.timerAt = at;
    this.timer = this.timers.setTimeout(this.drain, Math.max(0, at - this.timers.now()));
  }
}

/** A limiter that never waits: for benchmarks and tests against a server with its limit off. */
export class UnlimitedLimiter implements RequestLimiter {
  acquire(signal?: AbortSignal): Promise<void> {
    return signal?.aborted ? Promise.reject(cancelled()) : Promise.resolve();
  }
  pause(): void {}
}

function cancelled(): ApiError {
  return new ApiError({ kind: 'cancelled', message: 'The request was cancelled before it was sent' });
}
