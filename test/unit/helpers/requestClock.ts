/**
 * A clock for a client and a sandbox to share in tests about token lifetimes. Time moves only
 * when the test moves it: `advance` at once, or `jumpAfter`, from the moment the sandbox has
 * received so many more requests. A token then expires between the same two requests however
 * slowly a loaded machine runs them, so "one renewal" is a count, not a race. (The sandbox needs
 * `rateLimit: 0` with it: a stopped clock puts every request in the same second.)
 */
import type { RunningSandbox } from '../../../src/sandbox/server';

interface Jump {
  sandbox: RunningSandbox;
  atRequests: number;
  ms: number;
}

export class RequestClock {
  private ms: number;
  private readonly jumps: Jump[] = [];

  constructor(start: number) {
    this.ms = start;
  }

  readonly now = (): number =>
    this.jumps.reduce((t, j) => (j.sandbox.stats.requests >= j.atRequests ? t + j.ms : t), this.ms);

  advance(ms: number): void {
    this.ms += ms;
  }

  /** `ms` later from the moment `sandbox` has received `requests` more requests than it has now. */
  jumpAfter(sandbox: RunningSandbox, requests: number, ms: number): void {
    this.jumps.push({ sandbox, atRequests: sandbox.stats.requests + requests, ms });
  }
}
