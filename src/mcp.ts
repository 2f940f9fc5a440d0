/**
 * `node <extension>/dist/mcp.js`: Scrapedeck's tools as a stdio MCP server. Configured by the
 * environment (SCRAPEDECK_API_KEY, SCRAPEDECK_BASE_URL, SCRAPEDECK_DATAHUB_URL,
 * SCRAPEDECK_REQUESTS_PER_SECOND, and from VS Code SCRAPEDECK_RUN_NOTICES) and one optional argument, `--allow-changes` (a client that
 * cannot ask the user may then change things unasked). stdout carries the protocol and nothing
 * else; log lines go to stderr, each redacted (the client's own lines already are; the key is
 * removed once more here).
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

import { readMcpArgs, readMcpEnv } from './agents/mcpEnv';
import { createMcpServer } from './agents/mcpServer';
import { noticeWriter } from './agents/runNotices';
import { MemoryCredentialsStore } from './api/auth/auth';
import { ScrapedeckClient } from './api/client';
import { errorMessage } from './api/errors/errors';
import { redact } from './api/errors/redact';

declare const SCRAPEDECK_VERSION: string | undefined; // set by esbuild for dist/mcp.js

async function main(): Promise<void> {
  const env = readMcpEnv(process.env);
  const secrets = env.ok && env.config.apiKey !== undefined ? [env.config.apiKey] : [];
  const log = (line: string): void => void process.stderr.write(`scrapedeck-mcp: ${redact(line, secrets)}\n`);

  const args = readMcpArgs(process.argv.slice(2));

  let client: ScrapedeckClient | undefined;
  let unavailable = '';
  let accountLabel = 'the account of SCRAPEDECK_API_KEY';
  if (!args.ok) {
    unavailable = args.problem;
  } else if (!env.ok) {
    unavailable = env.problem;
  } else if (env.config.apiKey === undefined) {
    unavailable =
      'SCRAPEDECK_API_KEY is not set, so the Scrapedeck MCP server cannot act for anyone. Set it to an API key from the service’s account center in this server’s environment (not in its arguments) and restart the server.';
  } else {
    const { apiKey, baseUrl, datahubUrl, requestsPerSecond } = env.config;
    accountLabel = `the account of SCRAPEDECK_API_KEY at ${new URL(baseUrl).host}`;
    client = new ScrapedeckClient({
      baseUrl,
      datahubUrl,
      credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey }),
      requestsPerSecond,
      log,
    });
  }
  if (unavailable !== '') log(unavailable);

  const version = typeof SCRAPEDECK_VERSION === 'string' ? SCRAPEDECK_VERSION : '0.0.0-dev';
  const allowChanges = args.ok && args.allowChanges;
  // Started by VS Code's Scrapedeck: its window follows the runs this server starts or stops.
  const runs = env.ok && env.config.runNotices !== undefined ? noticeWriter(env.config.runNotices, log) : undefined;
  const server = createMcpServer({
    client,
    unavailable,
    accountLabel,
    version,
    allowChanges,
    secrets,
    log,
    ...(runs === undefined ? {} : { runs }),
  });
  const transport = new StdioServerTransport();
  let closing = false;
  const close = async (): Promise<void> => {
    if (closing) return;
    closing = true;
    await server.close().catch(() => undefined);
    await client?.close();
    process.exit(0);
  };
  transport.onclose = () => void close();
  process.stdin.on('end', () => void close());
  process.on('SIGINT', () => void close());
  process.on('SIGTERM', () => void close());
  await server.connect(transport);
  log(
    `serving ${client !== undefined && env.ok ? env.config.baseUrl : 'nothing (misconfigured)'} over stdio${allowChanges ? '; changes allowed without asking when the client cannot ask (--allow-changes)' : ''}`,
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`scrapedeck-mcp: could not start: ${errorMessage(e)}\n`);
  process.exit(1);
});
