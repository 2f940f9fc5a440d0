/**
 * The agent tools: how long "which tasks failed most this week" takes through the tool (at the
 * service's 20 req/s) and how big its answer is, and how long the bundled MCP server (dist/mcp.js)
 * takes from spawn to answering tools/list. Targets are what keeps an agent conversation fluid.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { findTool } from '../src/agents/table';
import { MemoryCredentialsStore } from '../src/api/auth';
import { ScrapedeckClient } from '../src/api/client';
import { english } from '../src/platform/errorText';
import { isSandboxChild, startChildSandbox } from './childSandbox';
import { boundRow, measureCase, missed, worstOf } from './judge';
import type { BenchRow, BenchSection } from './types';

isSandboxChild();

const RUNS = 5;
const RATE = 20;
const ANSWER_TARGET_MS = 2000;
const ANSWER_CHARS_TARGET = 16_000;
const MCP_START_TARGET_MS = 1500;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const ms = (x: number): string => `${x.toFixed(0)} ms`;
const spread = (xs: number[]): string => `${ms(Math.min(...xs))} – ${ms(Math.max(...xs))}`;

export default async function run(): Promise<BenchSection> {
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  const sandbox = await startChildSandbox(__filename, { rateLimit: RATE, seed: 7 });
  try {
    const ada = sandbox.info.accounts.find((a) => a.username === 'ada');
    if (!ada) throw new Error('the sandbox has no ada');

    // ---- 1. "which tasks failed most this week", through the tool, at 20 req/s --------------
    {
      const tool = findTool('scrapedeck_task_analytics');
      const call = tool?.parse({ period: 'thisWeek', sortBy: 'failures', limit: 50 }, english);
      if (!call?.ok || !call.readOnly) throw new Error('the analytics tool refused the bench input, or is not read-only');
      const walls: number[] = [];
      let chars = 0;
      let requests = 0;
      for (let i = 0; i < RUNS; i++) {
        // A new client each run: nothing cached between runs, as for a new conversation.
        const client = new ScrapedeckClient({ baseUrl: sandbox.info.baseUrl, credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: ada.apiKey }), env: {} });
        const before = (await sandbox.stats()).requests;
        const t0 = performance.now();
        const reply = await call.run({ client, now: Date.now, t: english, accountLabel: 'ada (bench)', signInHint: '' });
        walls.push(performance.now() - t0);
        requests = (await sandbox.stats()).requests - before;
        if (!reply.ok) throw new Error(reply.text);
        chars = reply.text.length;
        await client.close();
        await new Promise((r) => setTimeout(r, 1100)); // an empty rate window for the next run
      }
      const wall = median(walls);
      rows.push({
        name: `"which tasks failed most this week" (all tasks, top 50) @ ${RATE} req/s (median of ${RUNS})`,
        value: ms(wall),
        against: `bound ${ms(ANSWER_TARGET_MS)}`,
        ratio: wall / ANSWER_TARGET_MS,
        target: '≤ 1.00 x',
        pass: wall <= ANSWER_TARGET_MS,
      });
      rows.push({ name: '  spread over the runs (min – max)', value: spread(walls) });
      rows.push({ name: '  requests sent per answer', value: String(requests) });
      rows.push({
        name: '  size of the answer a model reads',
        value: `${chars.toLocaleString('en')} chars`,
        against: `bound ${ANSWER_CHARS_TARGET.toLocaleString('en')}`,
        ratio: chars / ANSWER_CHARS_TARGET,
        target: '≤ 1.00 x',
        pass: chars <= ANSWER_CHARS_TARGET,
      });
    }

    // ---- 2. MCP server: spawn to tools/list answered ----------------------------------------
    rows.push(...(await mcpStartRows(path.resolve('dist', 'mcp.js'), { PATH: process.env.PATH ?? '', SCRAPEDECK_API_KEY: ada.apiKey, SCRAPEDECK_BASE_URL: sandbox.info.baseUrl })));
  } finally {
    await sandbox.close();
  }
  return { title: 'Agents: tool answers and the MCP server', rows, notes };
}

/**
 * The bundled MCP server from spawn to tools/list answered, RUNS times. Without the bundle (or
 * when a start fails, or lists no tool) the row is MISSED: a start that was not measured is not met.
 */
export async function mcpStartRows(server: string, env: Record<string, string>, runs = RUNS): Promise<BenchRow[]> {
  const name = `MCP server (dist/mcp.js): spawn to tools/list answered (median of ${runs})`;
  if (!existsSync(server)) return [missed(name, `${server} is missing: run \`npm run build\``)];
  return measureCase(name, async () => {
    const walls: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const transport = new StdioClientTransport({ command: process.execPath, args: [server], env, stderr: 'ignore' });
      const client = new Client({ name: 'scrapedeck-bench', version: '1.0.0' });
      try {
        await client.connect(transport);
        const { tools } = await client.listTools();
        walls.push(performance.now() - t0);
        if (tools.length === 0) throw new Error('the MCP server listed no tools');
      } finally {
        await client.close();
      }
    }
    return [
      boundRow(name, worstOf(walls, runs) === undefined ? undefined : median(walls), MCP_START_TARGET_MS, ms),
      { name: '  spread over the runs (min – max)', value: spread(walls) },
    ];
  });
}
