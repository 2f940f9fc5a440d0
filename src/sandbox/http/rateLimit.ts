/**
 * Requests per second per credential, as a sliding one-second window. Refused requests do not
 * count, so a client that waits `retryAfterMs` gets through.
 */

export type RateDecision = { ok: true } | { ok: false; retryAfterMs: number };

export class RateLimiter {
  private readonly windows = new Map<string, number[]>();

  /** `limit` 0 turns limiting off. */
  constructor(
    private readonly limit: number,
    private readonly now: () => number,
  ) {}

  /** `at`: when the request arrived (defaults to now), so time spent reading its body does not count. */
  take(key: string, at?: number): RateDecision {
    if (this.limit <= 0) return { ok: true };
    const now = at ?? this.now();
    const since = now - 1000;
    const stamps = (this.windows.get(key) ?? []).filter((t) => t > since);
    if (stamps.length >= this.limit) {
      this.windows.set(key, stamps);
      // Arrival order can differ from handling order, so the oldest is the minimum, not the first.
      return { ok: false, retryAfterMs: Math.max(1, Math.min(...stamps) + 1000 - now) };
    }
    stamps.push(now);
    this.windows.set(key, stamps);
    if (this.windows.size > 5_000) this.sweep(since);
    return { ok: true };
  }

  /** Forget idle credentials. */
  private sweep(since: number): void {
    for (const [key, stamps] of this.windows) if ((stamps[stamps.length - 1] ?? 0) <= since) this.windows.delete(key);
  }
}
