/**
 * The client-side rate limit: grants spaced exactly (window + guard) / perSecond apart, FIFO,
 * never failing — a burst waits its turn. Spacing rather than "20 at once, then wait": a burst
 * of 20 queues up inside the server and arrives with uneven delays, and a server that counts a
 * sliding one-second window then sees 21 where the client sent 20. Evenly spaced requests arrive
 * evenly. A 429 pauses the whole limiter, so every queued call slows down, not just the refused one.
 */
import { ApiError } from './errors';

/** How late a timer may fire and still count as on its slot; well below the default guard. */
const LATE_TOLERANCE_MS = 5;

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
   * together at the server (their sends are jittered), so leave a little room. Default 25
   * (20 req/s: one grant every 51.25 ms).
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
  private readonly timers: Timers;
  /** Minimum ms between two grants. */
  readonly spacingMs: number;
  private lastGrant = -Infinity;
  private readonly queue: Waiter[] = [];
  private pausedUntil = 0;
  private timer: unknown = undefined;
  private timerAt = 0;

  constructor(options: LimiterOptions) {
    if (!(options.perSecond > 0)) throw new RangeError('perSecond must be positive');
    this.perSecond = Math.max(1, Math.floor(options.perSecond));
    this.spacingMs = ((options.windowMs ?? 1000) + (options.guardMs ?? 25)) / this.perSecond;
    this.timers = options.timers ?? realTimers;
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
    return Math.max(this.lastGrant + this.spacingMs, this.pausedUntil);
  }

  private grant(): void {
    // Timers fire a little late; booking the ideal slot (not the late "now") stops that lateness
    // from adding up over a long queue. Any 20 consecutive grants still span >= window + guard - LATE_TOLERANCE_MS.
    const now = this.timers.now();
    const ideal = this.nextFreeAt();
    this.lastGrant = now - ideal <= LATE_TOLERANCE_MS ? ideal : now;
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
