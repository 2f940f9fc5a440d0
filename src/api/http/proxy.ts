/**
 * Which connection pool a client uses. One dispatcher per client gives keep-alive pooling;
 * proxies come from an explicit option first, else the standard environment variables. The
 * environment is passed in (not read from process.env here) so the choice is testable.
 */
import type { Dispatcher } from 'undici';

import { ApiError } from '../errors/errors';
import { undici } from './undici';
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
  if (httpProxy !== undefined) config.httpProxy = envProxy(httpProxy, 'HTTP_PROXY');
  if (httpsProxy !== undefined) config.httpsProxy = envProxy(httpsProxy, 'HTTPS_PROXY');
  return config;
}

/** An environment proxy as curl reads it: `host:port` without a scheme means `http://host:port`. */
function envProxy(value: string, name: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  try {
    return checkBaseUrl(withScheme, 'proxyUrl');
  } catch (e) {
    const why = e instanceof ApiError ? e.message.replace(/^proxyUrl /, '') : 'is not a usable proxy address';
    throw new ApiError({
      kind: 'invalid-request',
      field: 'proxyUrl',
      message: `The ${name} environment variable ${why}`,
    });
  }
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
  const { Agent, EnvHttpProxyAgent } = undici();
  if (config === undefined) return new Agent(agentOptions);
  // Every field set explicitly ('' = none) so undici never falls back to reading process.env itself.
  return new EnvHttpProxyAgent({
    ...agentOptions,
    httpProxy: config.httpProxy ?? '',
    httpsProxy: config.httpsProxy ?? config.httpProxy ?? '',
    noProxy: config.noProxy,
  });
}
