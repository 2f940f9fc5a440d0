/** Running agent tools in Node against an in-process sandbox, as the adapters do. */
import * as assert from 'node:assert/strict';

import { findTool } from '../../../src/agents/table';
import type { AgentTool, ToolContext, ToolReply } from '../../../src/agents/tool';
import { MemoryCredentialsStore } from '../../../src/api/auth/auth';
import { ScrapedeckClient } from '../../../src/api/client';
import { UnlimitedLimiter } from '../../../src/api/http/limiter';
import { english } from '../../../src/platform/errorText';
import type { RunningSandbox } from '../../../src/sandbox/server';

export const SIGN_IN_HINT = 'Sign in again (test hint).';

export function tool(name: string): AgentTool {
  const found = findTool(name);
  assert.ok(found, `tool ${name}`);
  return found;
}

export function clientFor(sandbox: RunningSandbox, username: string, apiKey?: string): ScrapedeckClient {
  const account = sandbox.info.accounts.find((a) => a.username === username);
  assert.ok(account, username);
  return new ScrapedeckClient({
    baseUrl: sandbox.info.baseUrl,
    datahubUrl: sandbox.info.datahubUrl,
    credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: apiKey ?? account.apiKey }),
    env: {},
    // The tools' answers are under test, not the pacing (the sandboxes run with their limit off).
    limiter: new UnlimitedLimiter(),
  });
}

export function contextFor(client: ScrapedeckClient, now: () => number, extra: Partial<ToolContext> = {}): ToolContext {
  return { client, now, t: english, accountLabel: 'ada (test)', signInHint: SIGN_IN_HINT, ...extra };
}

/** Parses and runs (a change: plans, then executes the plan, as an adapter does once the user agreed); the input must be valid. */
export async function run(name: string, input: unknown, ctx: ToolContext): Promise<ToolReply> {
  const call = tool(name).parse(input, english);
  assert.ok(call.ok, `valid input for ${name}: ${call.ok ? '' : call.text}`);
  if (call.readOnly) return call.run(ctx);
  return (await call.plan(ctx)).execute(ctx);
}

/** The refusal of an input, which must be invalid. */
export function refused(name: string, input: unknown): string {
  const call = tool(name).parse(input, english);
  assert.equal(call.ok, false, `${name} refuses ${JSON.stringify(input)}`);
  return call.ok ? '' : call.text;
}

/** The JSON after a reply's summary line. */
export function dataOf<T = Record<string, unknown>>(reply: ToolReply): T {
  const at = reply.text.indexOf('\n');
  assert.ok(at > 0, `a summary and JSON: ${reply.text}`);
  return JSON.parse(reply.text.slice(at + 1)) as T;
}

export function summaryOf(reply: ToolReply): string {
  const at = reply.text.indexOf('\n');
  return at < 0 ? reply.text : reply.text.slice(0, at);
}
