/**
 * The two queries both whole-query sections time, sized against the sandbox they run on: the
 * issue's (all tasks, the last 7 days, Day) and the longest range ending today with at most
 * 10,000 rows, the most `scrapedeck.analytics.autoFetchRows` fetches by default.
 */
import { MemoryCredentialsStore } from '../src/api/auth/auth';
import { ScrapedeckClient } from '../src/api/client';
import { addDays, todayUtc } from '../src/api/schemas/dates';

export interface QueryCase {
  label: string;
  start: string;
}

/** A client of the bench's own for the sandbox's account, at the bench's rate. */
export const benchClient = (baseUrl: string, apiKey: string, requestsPerSecond: number): ScrapedeckClient =>
  new ScrapedeckClient({
    baseUrl,
    credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey }),
    env: {},
    requestsPerSecond,
  });

export async function wholeQueryCases(client: ScrapedeckClient, today = todayUtc()): Promise<QueryCase[]> {
  const rowsIn = async (d: number): Promise<number> =>
    (
      await client.queryTaskAnalytics({
        start: addDays(today, -(d - 1)),
        end: today,
        timeGranularity: 'Day',
        pageSize: 1,
      })
    ).data.total;
  let days = 60;
  while (days > 7 && (await rowsIn(days)) > 10_000) days--;
  while (days < 90 && (await rowsIn(days + 1)) <= 10_000) days++;
  return [
    { label: 'the last 7 days', start: addDays(today, -6) },
    { label: `the last ${days} days`, start: addDays(today, -(days - 1)) },
  ];
}
