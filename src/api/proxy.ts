/**
 * Which connection pool a client uses. One dispatcher per client gives keep-alive pooling;
 * proxies come from an explicit option first, else the standard environment variables. The
 * environment is passed in (not read from process.env here) so the choice is testable.
 */
import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';
import { checkBaseUrl } from './urls';

export type Env = Readonly<Record<string, string | undefined>>;

export interface ProxyConfig {
  httpProxy?: string;
  httpsProxy?: string;
  /** Comma or space separated hosts that bypass the proxy (`*` = all). */
  noProxy: string;
}

function envValue(env: Env, name: string): string | undefined {
  // Lower case wins, as in curl and undici.
  const v = env[name.toLowerCase()] ?? env[name.toUpperCase()];
  return v !== undefined && v.trim() !== '' ? v.trim() : undefined;
}

/**
 * The proxy settings a client should use, or undefined for a direct connection.
 * An explicit `proxyUrl` is used for both schemes; NO_PROXY is honoured either way.
 */
export function proxyConfig(proxyUrl: string | undefined, env: Env): ProxyConfig | undefined {
  const noProxy = envValue(env, 'no_proxy') ?? '';
  if (proxyUrl !== undefined && proxyUrl.trim() !== '') {
    const uri = checkBaseUrl(proxyUrl.trim(), 'proxyUrl');
    return { httpProxy: uri, httpsProxy: uri, noProxy };
  }
  const httpProxy = envValue(env, 'http_proxy');
  const httpsProxy = envValue(env, 'https_proxy');
  if (httpProxy === undefined && httpsProxy === undefined) return undefined;
  const config: ProxyConfig = { noProxy };
  if (httpProxy !== undefined) config.httpProxy = checkBaseUrl(httpProxy, 'proxyUrl');
  if (httpsProxy !== undefined) config.httpsProxy = checkBaseUrl(httpsProxy, 'proxyUrl');
  return config;
}

export interface PoolOptions {
  /** How long an idle keep-alive socket is kept (ms). */
  keepAliveTimeoutMs?: number;
  /** Upper bound on sockets per origin. */
  connections?: number;
  /** Time allowed to open a connection (ms). */
  connectTimeoutMs?: number;
}

/** The client's one dispatcher: a pooled Agent, or an env-style proxy agent wrapping pooled Agents. */
export function createDispatcher(config: ProxyConfig | undefined, pool: PoolOptions = {}): Dispatcher {
  const agentOptions = {
    keepAliveTimeout: pool.keepAliveTimeoutMs ?? 10_000,
    keepAliveMaxTimeout: 60_000,
    connections: pool.connections ?? 32,
    connect: { timeout: pool.connectTimeoutMs ?? 10_000 },
  };
  if (config === undefined) return new Agent(agentOptions);
  // Every field set explicitly ('' = none) so undici never falls back to reading process.env itself.
  return new EnvHttpProxyAgent({
    ...agentOptions,
    httpProxy: config.httpProxy ?? '',
    httpsProxy: config.httpsProxy ?? config.httpProxy ?? '',
    noProxy: config.noProxy,
  });
}
