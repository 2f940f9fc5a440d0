/**
 * The MCP server's configuration, from its environment only (a key in the arguments would show in
 * process listings and in the MCP client's configuration UI). Checked with the extension's own
 * rules; a problem is a sentence that never quotes the key.
 */
import { isAbsolute } from 'node:path';

import { checkServiceAddress } from '../api/http/urls';
import { headerValueIssue } from '../api/schemas/headerValues';
import { DEFAULT_BASE_URL } from '../platform/settings';

export const MCP_ENV = {
  apiKey: 'SCRAPEDECK_API_KEY',
  baseUrl: 'SCRAPEDECK_BASE_URL',
  datahubUrl: 'SCRAPEDECK_DATAHUB_URL',
  requestsPerSecond: 'SCRAPEDECK_REQUESTS_PER_SECOND',
  /** The file the server tells the extension host of runs it starts or stops (runNotices.ts); set by the provider. */
  runNotices: 'SCRAPEDECK_RUN_NOTICES',
} as const;

export interface McpConfig {
  /** Undefined: the server runs, and every tool says how to give it a key. */
  apiKey: string | undefined;
  baseUrl: string;
  datahubUrl: string | undefined;
  requestsPerSecond: number;
  /** An absolute path, or undefined (another MCP client: nobody to tell). */
  runNotices: string | undefined;
}

export type McpEnvResult = { ok: true; config: McpConfig } | { ok: false; problem: string };

export function readMcpEnv(env: Readonly<Record<string, string | undefined>>): McpEnvResult {
  const problems: string[] = [];
  const rawKey = env[MCP_ENV.apiKey]?.trim();
  const apiKey = rawKey === undefined || rawKey === '' ? undefined : rawKey;
  if (apiKey !== undefined) {
    const issue = headerValueIssue(apiKey);
    // Where, never what: even one character of a key is not for a log.
    const at = issue === undefined ? undefined : /position (\d+)/.exec(issue)?.[1];
    if (issue !== undefined)
      problems.push(
        `${MCP_ENV.apiKey} has a character that cannot be sent in an HTTP header (at position ${at ?? '?'}): copy the key again`,
      );
  }
  const address = (name: string, raw: string | undefined): string | undefined => {
    if (raw === undefined || raw.trim() === '') return undefined;
    const checked = checkServiceAddress(raw);
    if (checked.ok) return checked.url;
    problems.push(`${name} ${checked.reason}`);
    return undefined;
  };
  const baseUrl = address(MCP_ENV.baseUrl, env[MCP_ENV.baseUrl]) ?? DEFAULT_BASE_URL;
  const datahubUrl = address(MCP_ENV.datahubUrl, env[MCP_ENV.datahubUrl]);
  let requestsPerSecond = 20;
  const rawRps = env[MCP_ENV.requestsPerSecond]?.trim();
  if (rawRps !== undefined && rawRps !== '') {
    const n = Number(rawRps);
    if (Number.isInteger(n) && n >= 1 && n <= 20) requestsPerSecond = n;
    else problems.push(`${MCP_ENV.requestsPerSecond} must be a whole number from 1 to 20`);
  }
  if (problems.length > 0)
    return { ok: false, problem: `The Scrapedeck MCP server is misconfigured: ${problems.join('; ')}.` };
  // Only a courtesy to VS Code's Scrapedeck: anything but an absolute path is left unused, not refused.
  const rawNotices = env[MCP_ENV.runNotices]?.trim();
  const runNotices = rawNotices !== undefined && isAbsolute(rawNotices) ? rawNotices : undefined;
  return { ok: true, config: { apiKey, baseUrl, datahubUrl, requestsPerSecond, runNotices } };
}

/** The command-line argument that lets a client without elicitation change things unasked. */
export const ALLOW_CHANGES_FLAG = '--allow-changes';

export type McpArgsResult = { ok: true; allowChanges: boolean } | { ok: false; problem: string };

/**
 * The server's arguments: only `--allow-changes`. Anything else is refused, so a misspelt flag is
 * said by every call instead of silently leaving the server in a mode the user did not mean.
 */
export function readMcpArgs(argv: readonly string[]): McpArgsResult {
  const unknown = argv.filter((a) => a !== ALLOW_CHANGES_FLAG);
  if (unknown.length > 0) {
    const shown = unknown
      .slice(0, 3)
      .map((a) => JSON.stringify(a.slice(0, 40)))
      .join(', ');
    return {
      ok: false,
      problem: `The Scrapedeck MCP server is misconfigured: it takes no argument but ${ALLOW_CHANGES_FLAG}, and was given ${shown}. Fix the server's arguments and restart it.`,
    };
  }
  return { ok: true, allowChanges: argv.includes(ALLOW_CHANGES_FLAG) };
}
