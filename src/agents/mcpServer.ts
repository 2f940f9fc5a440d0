/**
 * The MCP door: the same tool table served over MCP (no `vscode`). Tool annotations carry the
 * table's flags (readOnlyHint, destructiveHint, idempotentHint) so MCP clients ask before the
 * tools that change anything. Arguments are parsed with the tool's zod schema; failures are
 * `isError` results with a sentence, never protocol errors, so the model can read and relay them.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ScrapedeckClient } from '../api/client';
import { english } from '../platform/errorText';
import { AGENT_TOOLS, findTool } from './table';
import type { ToolContext } from './tool';

export interface McpServerOptions {
  /** Undefined: no usable API key; every call answers `unavailable`. */
  client: ScrapedeckClient | undefined;
  /** Why the server cannot act (no key, a bad address), said by every call. */
  unavailable: string;
  /** How confirmations and results name the account (no secret): e.g. the service's host. */
  accountLabel: string;
  version: string;
  /** One line per call, to stderr (stdout is the protocol). */
  log: (line: string) => void;
  now?: () => number;
}

export const MCP_SIGN_IN_HINT = 'The service refused SCRAPEDECK_API_KEY: set a valid API key (from the account center) in the MCP server’s environment and restart it.';

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
    { name: 'scrapedeck', title: 'Scrapedeck', version: o.version },
    {
      capabilities: { tools: {} },
      instructions:
        'Scrapedeck tools read and run the web-scraping tasks of one account: find tasks with scrapedeck_list_tasks first, then use their ids with the other tools. ' +
        'Tools that start or stop runs or deprecate data apps change things: ask the user before calling them.',
    },
  );
  const tools = mcpTools();
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const name = request.params.name;
    const tool = findTool(name);
    if (tool === undefined) return text(`There is no Scrapedeck tool named “${name}”. The tools are: ${AGENT_TOOLS.map((t) => t.name).join(', ')}.`, true);
    const call = tool.parse(request.params.arguments, english);
    if (!call.ok) return text(call.text, true);
    if (o.client === undefined) return text(o.unavailable, true);
    const ctx: ToolContext = {
      client: o.client,
      now: o.now ?? Date.now,
      t: english,
      signal: extra.signal,
      accountLabel: o.accountLabel,
      signInHint: MCP_SIGN_IN_HINT,
    };
    const started = Date.now();
    try {
      const reply = await call.run(ctx);
      o.log(`${name}: ${reply.ok ? 'answered' : 'refused or failed'} in ${Date.now() - started} ms`);
      return text(reply.text, !reply.ok);
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      o.log(`${name}: failed unexpectedly: ${reason}`);
      return text(`${name} failed unexpectedly inside the Scrapedeck MCP server: ${reason}.`, true);
    }
  });
  return server;
}

function text(value: string, isError: boolean): CallToolResult {
  return { content: [{ type: 'text', text: value }], ...(isError ? { isError: true } : {}) };
}
