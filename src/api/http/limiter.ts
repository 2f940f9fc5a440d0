/**
 * The client-side rate limit: at most `perSecond` requests in any window of one second at the
 * server, FIFO, never failing — a burst waits its turn. The service's limit is "20 requests per
 * second" (spec/interface.md, Limits), a count per second, and the sandbox counts it as a sliding
 * window: 20 at once are within it, so an idle limiter grants 20 at once and then one each time an
 * earlier request stops counting. (Spacing every grant 51.25 ms apart, as before, wasted whatever
 * a slow reply or a busy caller left unused: 10 pages took 9 gaps, 461 ms, however fast the server.)
 *
 * The server counts a request when it reads it, which is anywhere between our send and our
 * receiving its reply. So every grant is a lease: it counts from its grant until its reply has
 * arrived plus one window and the guard (`release()`), the latest moment the server can have
 * counted it; a new grant waits while `perSecond` leases count. Of any 21 requests the server
 * reads within one window, the last granted was granted before it was read, and each of the 20
 * others was read, hence released, after the window began: their leases all counted at that grant.
 * So a server that reads requests late (busy, loaded: issue 18) never sees 21 in a window.
 * A 429 pauses the whole limiter, so every queued call slows down, not just the refused one.
 */
import { ApiError } from '../errors/errors';

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
   * Extra ms a released lease keeps counting beyond the window: room for a server that stamps
   * arrivals by a coarser or slightly different clock. Default 25; it costs only when 20 requests
   * in a row are waiting on the window.
   */
  guardMs?: number;
  timers?: Timers;
}

/**
 * Says the granted request is over: its reply (or failure) has arrived, so the server has read it
 * by now, if at all. `'unsent'`: nothing went out (the caller gave the slot up before sending), so
 * the server can never count it and the slot is free at once. Call it once; later calls do nothing.
 */
export type Release = (outcome?: 'unsent') => void;

/** What the transport needs from a limiter; a shared or custom limiter can be injected. */
export interface RequestLimiter {
  /**
   * Resolves when the caller may send. `priority` jumps the queue (token renewal that others wait
   * on). A limiter that counts requests until their replies returns a `Release`.
   */
  acquire(signal?: AbortSignal, priority?: boolean): Promise<Release | void>;
  /** Grants nothing for the next `ms` (the server asked us to slow down). */
  pause(ms: number): void;
}

interface Waiter {
  resolve: (release: Release) => void;
  reject: (e: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

export class RateLimiter implements RequestLimiter {
  readonly perSecond: number;
  private readonly timers: Timers;
  private readonly queue: Waiter[] = [];
  private pausedUntil = 0;
  private timer: unknown = undefined;
  private timerAt = 0;
  /** How long a released lease keeps counting: the window plus the guard. */
  private readonly holdMs: number;
  /** Leases not released yet (no reply yet): each counts until its release plus a window. */
  private inFlight = 0;
  /**
   * Released leases that may still count at the server: when each stops counting, in order
   * (each is stamped "now + window" as it is released), read from `head`. Every grant looks at
   * these, so dropping the ones that stopped counting, and finding the n-th to stop, cost O(1).
   */
  private ends: number[] = [];
  private head = 0;

  constructor(options: LimiterOptions) {
    if (!(options.perSecond > 0)) throw new RangeError('perSecond must be positive');
    this.perSecond = Math.max(1, Math.floor(options.perSecond));
    this.holdMs = (options.windowMs ?? 1000) + Math.max(0, options.guardMs ?? 25);
    this.timers = options.timers ?? realTimers;
  }

  /** Number of callers waiting for a grant. */
  get pending(): number {
    return this.queue.length;
  }

  /** Grants whose leases still count (in flight, or replied within the last window). */
  get leased(): number {
    this.prune();
    return this.inFlight + this.ends.length - this.head;
  }

  acquire(signal?: AbortSignal, priority = false): Promise<Release> {
    if (signal?.aborted) return Promise.reject(cancelled());
    // Fast path: nobody waiting and a slot free now.
    if (this.queue.length === 0 && this.nextFreeAt() <= this.timers.now()) {
      return Promise.resolve(this.grant());
    }
    return new Promise<Release>((resolve, reject) => {
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

  /** The earliest time a new grant is allowed (Infinity: when a lease is released). */
  private nextFreeAt(): number {
    return Math.max(this.pausedUntil, this.leaseFreeAt());
  }

  /** When fewer than perSecond leases will count; -Infinity if that is already so. */
  private leaseFreeAt(): number {
    const over = this.leased - this.perSecond;
    if (over < 0) return -Infinity;
    // Released leases stop counting first, in order; the ones in flight only once released.
    return this.head + over < this.ends.length ? (this.ends[this.head + over] as number) : Infinity;
  }

  private prune(): void {
    const now = this.timers.now();
    while (this.head < this.ends.length && (this.ends[this.head] as number) <= now) this.head++;
    if (this.head > 64 && this.head * 2 > this.ends.length) {
      this.ends = this.ends.slice(this.head);
      this.head = 0;
    }
  }

  /** A lease released now stops counting a window (and the guard) from now; `ends` stays in order. */
  private released(until: number): void {
    let i = this.ends.length;
    // Only a clock that went back puts it before the last (a fake clock in tests): walk back to its place.
    while (i > this.head && (this.ends[i - 1] as number) > until) i--;
    this.ends.splice(i, 0, until);
  }

  private grant(): Release {
    this.inFlight++;
    let done = false;
    return (outcome) => {
      if (done) return;
      done = true;
      this.inFlight--;
      // The server read it before it replied: one window from now it no longer counts there. (A server
      // that stamps whole milliseconds only rounds both ends down, which keeps them a window apart.)
      // A request never sent is never read: holding its slot a window would waste it (a renewal
      // made every queued call give its slot up: a whole window of them lost, issue 47).
      if (outcome !== 'unsent') this.released(this.timers.now() + this.holdMs);
      this.schedule();
    };
  }

  private drain = (): void => {
    this.timer = undefined;
    while (this.queue.length > 0 && this.nextFreeAt() <= this.timers.now()) {
      const waiter = this.queue.shift() as Waiter;
      if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort);
      waiter.resolve(this.grant());
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
    if (at === Infinity) {
      // Waiting for a reply: its release schedules again.
      if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
      this.timer = undefined;
      return;
    }
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
  acquire(signal?: AbortSignal): Promise<Release> {
    return signal?.aborted ? Promise.reject(cancelled()) : Promise.resolve(() => undefined);
  }
  pause(): void {}
}

function cancelled(): ApiError {
  return new ApiError({ kind: 'cancelled', message: 'The request was cancelled before it was sent' });
}
