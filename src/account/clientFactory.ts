/**
 * Builds the client for the current endpoints and validated settings. The log hook is the one
 * "Scrapedeck" channel; the client redacts every line before it gets there.
 */
import type { CredentialsStore } from '../api/auth/auth';
import { ScrapedeckClient } from '../api/client';
import type { ServiceRoutes } from '../api/ops/serviceRoutes';
import { isLoopbackHost, type Settings } from '../platform/settings';

export interface ClientRecipe {
  endpoints: { baseUrl: string; datahubUrl: string | undefined };
  settings: Settings;
  credentials: CredentialsStore;
  /** The "Scrapedeck" channel; the client redacts every line before it gets here. */
  log: { info(line: string): void };
  now: () => number;
  onSessionExpired: () => void;
  /** Shared by every client the window builds: what each service address showed of uncertain routes. */
  routes?: ServiceRoutes;
}

/** Which settings a client is built from; a change in any of them means a new client. */
export const CLIENT_SETTINGS: ReadonlySet<keyof Settings> = new Set<keyof Settings>([
  'baseUrl',
  'datahubUrl',
  'requestsPerSecond',
  'externalUserId',
  'proxy',
]);

export function createClient(recipe: ClientRecipe): ScrapedeckClient {
  const { baseUrl, datahubUrl } = recipe.endpoints;
  const s = recipe.settings;
  return new ScrapedeckClient({
    baseUrl,
    datahubUrl,
    credentials: recipe.credentials,
    requestsPerSecond: s.requestsPerSecond,
    externalUserId: s.externalUserId,
    // A loopback service (a sandbox) never goes through a proxy, whatever the settings or environment say.
    ...(isLoopbackHost(new URL(baseUrl).hostname) ? { env: {} } : { proxyUrl: s.proxy }),
    log: (line) => recipe.log.info(line),
    now: recipe.now,
    onSessionExpired: recipe.onSessionExpired,
    routes: recipe.routes,
  });
}
