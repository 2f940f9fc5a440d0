/**
 * The 20 requests/second promise through token renewals: 200 calls on a session whose 4-second
 * tokens expire during the burst, each renewal taking 300 ms, against the strict server of the
 * unit tests (its own thread, arrival times on its own clock, 429 beyond 20 in the trailing
 * second, as the service does). Reports the time against the rate bound, the worst one-second
 * window at the server and the 429s.
 */
import { MemoryCredentialsStore, sessionFromToken } from '../src/api/auth/auth';
import { ScrapedeckClient } from '../src/api/client';
import { startStrictServer, worstWindow } from '../test/unit/helpers/strictServer';
import { missed, no429Row } from './judge';
import type { BenchRow, BenchSection } from './types';

const CALLS = 200;
const RATE = 20;
const RENEWAL_MS = 300;
const TOKEN_SECONDS = 4;

export default async function run(): Promise<BenchSection> {
  const server = await startStrictServer({
    seed: 1,
    tokenTtlSeconds: TOKEN_SECONDS,
    refreshDelayMs: RENEWAL_MS,
    refreshFailRate: 0,
    rate429: 0,
    rate5xx: 0,
    rateDrop: 0,
    limitPerSecond: RATE,
  });
  try {
    const signIn = new ScrapedeckClient({ baseUrl: server.baseUrl, credentials: new MemoryCredentialsStore() });
    const token = await signIn.obtainToken('ada', 'pw');
    const session = sessionFromToken(token.data, Date.now()); // its clock starts now, not after the pause
    await signIn.close();
    await new Promise((r) => setTimeout(r, 1100)); // the sign-in leaves the server's trailing second
    const client = new ScrapedeckClient({
      baseUrl: server.baseUrl,
      credentials: new MemoryCredentialsStore({ kind: 'session', session }),
      requestsPerSecond: RATE,
    });
    const t0 = performance.now();
    const outcomes = await Promise.allSettled(Array.from({ length: CALLS }, () => client.listTaskGroups()));
    const elapsed = performance.now() - t0;
    await client.close();
    const report = await server.report();
    const calls = report.arrivals.filter((a) => a.path !== '/token' || a.grant === 'refresh_token');
    const worst = worstWindow(calls, 1000);
    const failed = outcomes.filter((o) => o.status === 'rejected').length;
    const rows = renewalRows({
      elapsed,
      calls: CALLS,
      failed,
      renewals: report.renewals,
      callArrivals: calls.length - report.renewals,
      worst,
      overLimit: report.overLimit,
      expiredTokenCalls: report.expiredTokenCalls,
    });
    return { title: 'API client through token renewals (strict server, its own thread)', rows };
  } finally {
    await server.close();
  }
}

/** What the burst observed, at the strict server and in the client. */
export interface RenewalFigures {
  elapsed: number;
  calls: number;
  /** Calls that rejected in the client. */
  failed: number;
  /** Refresh grants the server answered during the burst. */
  renewals: number;
  /** Calls (not grants) that reached the server. */
  callArrivals: number;
  /** The most requests in any one-second window at the server. */
  worst: number;
  overLimit: number;
  expiredTokenCalls: number;
}

/** Renewals a burst of `calls` at RATE must go through: its length over the tokens' life. */
export function renewalsExpected(calls: number): number {
  return Math.floor((calls - 1) / RATE / TOKEN_SECONDS);
}

/**
 * The section's rows, each judged after every check: a burst without the renewals it exists to
 * measure, or whose calls failed fast (or never reached the server), is not on time, and a quiet
 * window over nothing sent is not kept under the limit.
 */
export function renewalRows(f: RenewalFigures): BenchRow[] {
  const name = `${f.calls} calls across ${f.renewals} renewal(s) of ${RENEWAL_MS} ms (20 req/s)`;
  const wanted = renewalsExpected(f.calls);
  const problems = [
    ...(f.renewals >= wanted ? [] : [`${f.renewals} renewal(s), at least ${wanted} expected`]),
    ...(f.failed === 0 ? [] : [`${f.failed} call(s) failed`]),
    ...(f.callArrivals >= f.calls ? [] : [`${f.callArrivals} of ${f.calls} calls reached the server`]),
  ];
  if (f.callArrivals <= 0) return [missed(name, 'no call reached the server')];
  const why = problems.length > 0 ? ` (${problems.join('; ')})` : '';
  // The bound: every request that had to go out, at 20 a second, plus the renewals' own wait.
  const sent = f.calls + f.renewals;
  const boundMs = ((sent - 1) / RATE) * 1000 + f.renewals * RENEWAL_MS;
  return [
    {
      name,
      value: `${(f.elapsed / 1000).toFixed(2)} s${why}`,
      against: `bound ${(boundMs / 1000).toFixed(2)} s`,
      ratio: f.elapsed / boundMs,
      target: '≤ 1.10 x',
      pass: problems.length === 0 && f.elapsed / boundMs <= 1.1,
    },
    {
      name: '  worst one-second window at the server',
      value: `${f.worst} requests${why}`,
      against: `limit ${RATE}`,
      target: `≤ ${RATE}`,
      pass: problems.length === 0 && f.worst > 0 && f.worst <= RATE,
    },
    no429Row('  429s answered by the server', f.overLimit, f.callArrivals + f.renewals),
    {
      name: '  calls that failed / sent with an expired token',
      value: `${f.failed} / ${f.expiredTokenCalls}`,
      target: '0 / 0',
      pass: f.failed === 0 && f.expiredTokenCalls === 0,
    },
  ];
}
