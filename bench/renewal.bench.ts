/**
 * The 20 requests/second promise through token renewals: 200 calls on a session whose 4-second
 * tokens expire during the burst, each renewal taking 300 ms, against the strict server of the
 * unit tests (its own thread, arrival times on its own clock, 429 beyond 20 in the trailing
 * second, as the service does). Reports the time against the rate bound, the worst one-second
 * window at the server and the 429s.
 */
import { MemoryCredentialsStore, sessionFromToken } from '../src/api/auth';
import { ScrapedeckClient } from '../src/api/client';
import { startStrictServer, worstWindow } from '../test/unit/helpers/strictServer';
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
    // The bound: every request that had to go out, at 20 a second, plus the renewals' own wait.
    const sent = CALLS + report.renewals;
    const boundMs = ((sent - 1) / RATE) * 1000 + report.renewals * RENEWAL_MS;
    const rows: BenchRow[] = [
      {
        name: `${CALLS} calls across ${report.renewals} renewal(s) of ${RENEWAL_MS} ms (20 req/s)`,
        value: `${(elapsed / 1000).toFixed(2)} s`,
        against: `bound ${(boundMs / 1000).toFixed(2)} s`,
        ratio: elapsed / boundMs,
        target: '≤ 1.10 x',
        pass: elapsed / boundMs <= 1.1,
      },
      { name: '  worst one-second window at the server', value: `${worst} requests`, against: `limit ${RATE}`, target: `≤ ${RATE}`, pass: worst <= RATE },
      { name: '  429s answered by the server', value: `${report.overLimit} x 429`, target: '0', pass: report.overLimit === 0 },
      { name: '  calls that failed / sent with an expired token', value: `${failed} / ${report.expiredTokenCalls}`, target: '0 / 0', pass: failed === 0 && report.expiredTokenCalls === 0 },
    ];
    return { title: 'API client through token renewals (strict server, its own thread)', rows };
  } finally {
    await server.close();
  }
}
