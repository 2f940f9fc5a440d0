/**
 * The MCP server as an MCP client sees it: spawned over stdio and driven by the SDK's own Client.
 * Every message read from the server's stdout and every byte of its stderr is kept, so a test can
 * scan them for secrets; a line on stdout that is not protocol fails the parse and is kept too.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  type CallToolResult,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';

export interface McpSession {
  client: Client;
  /** Every JSON-RPC message the server wrote to stdout, as JSON text. */
  stdout: string[];
  /** Transport errors (e.g. a stdout line that is not JSON-RPC). */
  errors: string[];
  stderr(): string;
  call(name: string, args: unknown): Promise<{ text: string; isError: boolean }>;
  close(): Promise<void>;
}

export interface McpSessionOptions {
  cwd?: string;
  /** The server's arguments after the script (e.g. `--allow-changes`). */
  args?: string[];
  /** Given: the client declares form elicitation and answers each request with this. */
  elicit?: (request: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;
}

export async function startMcpSession(
  script: string,
  env: Record<string, string>,
  cwdOrOptions?: string | McpSessionOptions,
): Promise<McpSession> {
  const options: McpSessionOptions = typeof cwdOrOptions === 'string' ? { cwd: cwdOrOptions } : (cwdOrOptions ?? {});
  const { cwd } = options;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [script, ...(options.args ?? [])],
    // Only what the server needs: no SCRAPEDECK_* from the machine running the tests.
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
    ...(cwd === undefined ? {} : { cwd }),
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const elicit = options.elicit;
  const client = new Client(
    { name: 'scrapedeck-tests', version: '1.0.0' },
    elicit === undefined ? {} : { capabilities: { elicitation: { form: {} } } },
  );
  if (elicit !== undefined) client.setRequestHandler(ElicitRequestSchema, async (request) => elicit(request.params));
  const stdout: string[] = [];
  const errors: string[] = [];
  await client.connect(transport);
  // Wrapped after connect (the client installs its handlers then): records, then hands on.
  const onmessage = transport.onmessage;
  transport.onmessage = (message) => {
    stdout.push(JSON.stringify(message));
    onmessage?.(message);
  };
  const onerror = transport.onerror;
  transport.onerror = (error) => {
    errors.push(String(error));
    onerror?.(error);
  };
  return {
    client,
    stdout,
    errors,
    stderr: () => stderr,
    async call(name, args) {
      const result = (await client.callTool({ name, arguments: args as Record<string, unknown> })) as CallToolResult;
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      return { text, isError: result.isError === true };
    },
    close: () => client.close(),
  };
}

/**
 * Starts a server definition the extension resolved, as VS Code starts it: its first argument is
 * the script, and only the string values of its environment are passed on.
 */
export function startResolvedMcpServer(resolved: {
  args: readonly string[];
  env: Readonly<Record<string, unknown>>;
}): Promise<McpSession> {
  const env = Object.fromEntries(
    Object.entries(resolved.env).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  return startMcpSession(resolved.args[0] ?? '', env);
}
