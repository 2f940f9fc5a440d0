/**
 * `--faults RATE`: that fraction of responses fail the way real networks do. Decided from the
 * seed before the request is handled, so a failed POST /token never consumes a refresh token and a
 * given seed yields the same sequence of faults for the same sequence of requests.
 */
import { floatBetween, intBetween, pick, type Rng, rngFor } from '../seed/prng';
import { errorReply, type Iface, type Reply, retryAfter } from './respond';

export type Fault =
  | { kind: 'error500' }
  | { kind: 'error503'; retryAfterMs: number }
  | { kind: 'drop' }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'not-json' }
  | { kind: 'burst429'; retryAfterMs: number };

const KINDS = ['error500', 'error503', 'drop', 'slow', 'not-json', 'burst429'] as const;

/** Requests answered 429 in a row once a burst starts (the first one included). */
export const BURST_LENGTH = 3;

export class FaultInjector {
  private readonly rng: Rng;
  private burstLeft = 0;

  constructor(
    private readonly rate: number,
    seed: number,
  ) {
    this.rng = rngFor(seed, 'faults');
  }

  get enabled(): boolean {
    return this.rate > 0;
  }

  next(): Fault | undefined {
    if (this.burstLeft > 0) {
      this.burstLeft--;
      return { kind: 'burst429', retryAfterMs: 1000 };
    }
    if (this.rate <= 0 || this.rng() >= this.rate) return undefined;
    const kind = pick(this.rng, KINDS);
    switch (kind) {
      case 'error503':
        return { kind, retryAfterMs: intBetween(this.rng, 1, 2) * 1000 };
      case 'slow':
        return { kind, delayMs: Math.round(floatBetween(this.rng, 1500, 3000)) };
      case 'burst429':
        this.burstLeft = BURST_LENGTH - 1;
        return { kind, retryAfterMs: 1000 };
      default:
        return { kind };
    }
  }
}

/** The reply a fault stands for (a drop or a slow answer is the server's to play). */
export function faultReply(fault: Fault, iface: Iface): Reply {
  switch (fault.kind) {
    case 'error500':
      return errorReply(iface, 'internal', 'Internal server error (sandbox fault injection).');
    case 'error503':
      return retryAfter(
        iface,
        'unavailable',
        'Service temporarily unavailable (sandbox fault injection).',
        fault.retryAfterMs,
      );
    case 'burst429':
      return retryAfter(iface, 'rate-limited', 'Too many requests (sandbox fault injection).', fault.retryAfterMs);
    default:
      // A proxy's error page: 200 but not JSON.
      return {
        status: 200,
        text: {
          contentType: 'text/html; charset=utf-8',
          content: '<html><body><h1>502 Bad Gateway</h1><p>upstream hiccup</p></body></html>',
        },
      };
  }
}
