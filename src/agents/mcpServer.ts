/**
 * The MCP door: the same tool table served over MCP (no `vscode`). Tool annotations carry the
 * table's flags (readOnlyHint, destructiveHint — true on every tool that changes something —,
 * idempotentHint), and a tool that changes something runs only after the user agreed
 * (`mcpConsent.ts`: elicitation, or the `--allow-changes` opt-in). Arguments are parsed with the
 * tool's zod schema; failures are `isError` results with a sentence, never protocol errors, so the
 * model can read and relay them. Every result is redacted with the server's key before it leaves.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

import type { ScrapedeckClient } from '../api/client';
import { errorMessage } from '../api/errors/errors';
import { redact } from '../api/errors/redact';
import { english } from '../platform/errorText';
import { plainText } from '../platform/plainText';
import { ALLOW_CHANGES_FLAG, askUser, consentRoute, notAllowedText } from './mcpConsent';
import { AGENT_TOOLS, findTool } from './table';
import type { ChangeCall, RunHook, ToolContext, ToolReply } from './tool';

export interface McpServerOptions {
  /** Undefined: no usable API key; every call answers `unavailable`. */
  client: ScrapedeckClient | undefined;
  /** Why the server cannot act (no key, a bad address), said by every call. */
  unavailable: string;
  /** How confirmations and results name the account (no secret): e.g. the service's host. */
  accountLabel: string;
  version: string;
  /** The user started the server with `--allow-changes`: a client that cannot ask may change things. */
  allowChanges: boolean;
  /** Values never to appear in a result (the API key), whatever the service put them in. */
  secrets: readonly string[];
  /** One line per call, to stderr (stdout is the protocol). */
  log: (line: string) => void;
  now?: () => number;
  /** Told of every start and stop request (the extension host that offered the server follows the run: runNotices.ts). */
  runs?: RunHook;
}

export const MCP_SIGN_IN_HINT =
  'The service refused SCRAPEDECK_API_KEY: set a valid API key (from the account center) in the MCP server’s environment and restart it.';

export function mcpTools(): Tool[] {
  return AGENT_TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.modelDescription,
    inputSchema: tool.jsonSchema() as Tool['inputSchema'],
    annotations: {
      title: tool.title,
      readOnlyHint: tool.readOnly,
      destructiveHint: tool.destructive,
      idempotentHint: tool.idempotent,
      openWorldHint: true, // every tool talks to the web service
    },
  }));
}

export function createMcpServer(o: McpServerOptions): Server {
  const server = new Server(
    { name: 'scrapedeck', title: 'Scrapedeck', version: o.version }, // l10n-exempt: MCP protocol text, the product's name
    {
      capabilities: { tools: {} },
      instructions:
        'Scrapedeck tools read and run the web-scraping tasks of one account: find tasks with scrapedeck_list_tasks first, then use their ids with the other tools. ' +
        'Tools that start or stop runs or deprecate data apps change things: ask the user before calling them. ' +
        `The server also asks the user itself (MCP elicitation) before each of them, or runs them unasked only when started with ${ALLOW_CHANGES_FLAG}.`,
    },
  );
  const tools = mcpTools();
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const result = (value: string, isError: boolean): CallToolResult => text(redact(value, o.secrets), isError);
    const name = request.params.name;
    const tool = findTool(name);
    if (tool === undefined)
      return result(
        `There is no Scrapedeck tool named “${plainName(name)}”. The tools are: ${AGENT_TOOLS.map((t) => t.name).join(', ')}.`,
        true,
      );
    const call = tool.parse(request.params.arguments, english);
    if (!call.ok) return result(call.text, true);
    if (o.client === undefined) return result(o.unavailable, true);
    // Decided before anything is read: without a way to agree, not even the lookups are sent.
    if (!call.readOnly && consentRoute(server, o.allowChanges) === 'refuse') {
      o.log(
        `${name}: not run (the client cannot ask the user, and the server was started without ${ALLOW_CHANGES_FLAG})`,
      );
      return result(notAllowedText(name, call.intent, o.accountLabel), true);
    }
    const ctx: ToolContext = {
      client: o.client,
      now: o.now ?? Date.now,
      t: english,
      signal: extra.signal,
      accountLabel: o.accountLabel,
      signInHint: MCP_SIGN_IN_HINT,
      ...(o.runs === undefined ? {} : { runs: o.runs }),
    };
    const started = Date.now();
    try {
      const reply = call.readOnly ? await call.run(ctx) : await change(name, call, ctx, extra.signal);
      o.log(`${name}: ${reply.ok ? 'answered' : 'refused or failed'} in ${Date.now() - started} ms`);
      return result(reply.text, !reply.ok);
    } catch (e) {
      const reason = errorMessage(e);
      o.log(`${name}: failed unexpectedly: ${reason}`);
      return result(`${name} failed unexpectedly inside the Scrapedeck MCP server: ${reason}.`, true);
    }
  });

  /** Plans (reads only), asks when the client can, then executes exactly the plan. */
  async function change(name: string, call: ChangeCall, ctx: ToolContext, signal: AbortSignal): Promise<ToolReply> {
    const plan = await call.plan(ctx);
    // Nothing to act on (the task was not found…): the refusal, with nothing asked or sent.
    if (plan.target === undefined) return plan.execute(ctx);
    if (consentRoute(server, o.allowChanges) === 'ask') {
      const answer = await askUser(server, name, plan.confirmation, signal);
      if (!answer.agreed) {
        o.log(`${name}: the user did not agree; nothing sent`);
        return { ok: false, text: answer.text };
      }
    }
    return plan.execute(ctx);
  }
  return server;
}

/** A tool name as a model sent it, quoted back: one short line. */
function plainName(name: string): string {
  return plainText(name, 80);
}

function text(value: string, isError: boolean): CallToolResult {
  return { content: [{ type: 'text', text: value }], ...(isError ? { isError: true } : {}) };
}
