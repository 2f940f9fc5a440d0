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
import { MemoryCredentialsStore } from '../src/api/auth/auth';
import { ScrapedeckClient } from '../src/api/client';
import { english } from '../src/platform/errorText';
import { isSandboxChild, startChildSandbox } from './childSandbox';
import { median } from './figures';
import { boundRow, measureCase, missed, worstOf } from './judge';
import type { BenchRow, BenchSection } from './types';

isSandboxChild();

const RUNS = 5;
const RATE = 20;
const ANSWER_TARGET_MS = 2000;
const ANSWER_CHARS_TARGET = 16_000;
const MCP_START_TARGET_MS = 1500;
const ANALYTICS_ROUTE = 'POST /taskanalytics/queries';
const LIMIT = 50;

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
      const call = tool?.parse({ period: 'thisWeek', sortBy: 'failures', limit: LIMIT }, english);
      if (!call?.ok || !call.readOnly)
        throw new Error('the analytics tool refused the bench input, or is not read-only');
      const answers: AnswerFigures[] = [];
      for (let i = 0; i < RUNS; i++) {
        // A new client each run: nothing cached between runs, as for a new conversation.
        const client = new ScrapedeckClient({
          baseUrl: sandbox.info.baseUrl,
          credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: ada.apiKey }),
          env: {},
        });
        const before = (await sandbox.stats()).byRoute[ANALYTICS_ROUTE] ?? 0;
        const t0 = performance.now();
        const reply = await call.run({
          client,
          now: Date.now,
          t: english,
          accountLabel: 'ada (bench)',
          signInHint: '',
        });
        const wall = performance.now() - t0;
        const requests = ((await sandbox.stats()).byRoute[ANALYTICS_ROUTE] ?? 0) - before;
        answers.push({ wall, requests, ok: reply.ok, text: reply.text });
        await client.close();
        await new Promise((r) => setTimeout(r, 1100)); // an empty rate window for the next run
      }
      rows.push(...answerRows(answers));
    }

    // ---- 2. MCP server: spawn to tools/list answered ----------------------------------------
    rows.push(
      ...(await mcpStartRows(path.resolve('dist', 'mcp.js'), {
        PATH: process.env.PATH ?? '',
        SCRAPEDECK_API_KEY: ada.apiKey,
        SCRAPEDECK_BASE_URL: sandbox.info.baseUrl,
      })),
    );
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

/** One answer of the analytics tool, as the bench saw it. */
export interface AnswerFigures {
  wall: number;
  /** Analytics queries the sandbox answered during the call. */
  requests: number;
  ok: boolean;
  /** What the model reads: the summary line, then the JSON digest. */
  text: string;
}

/** The JSON digest after the summary line: what the answer must hold to be one. */
function digestOf(text: string): { withRecords: number; listed: number; runs: number | null } | undefined {
  const newline = text.indexOf('\n');
  if (newline < 0) return undefined;
  try {
    const data = JSON.parse(text.slice(newline + 1)) as {
      tasksWithRecords?: unknown;
      tasks?: unknown;
      totals?: { runs?: unknown };
    };
    if (typeof data.tasksWithRecords !== 'number' || !Array.isArray(data.tasks)) return undefined;
    return {
      withRecords: data.tasksWithRecords,
      listed: data.tasks.length,
      runs: typeof data.totals?.runs === 'number' ? data.totals.runs : null,
    };
  } catch {
    return undefined;
  }
}

/**
 * The answer rows, judged on what came back: each run asked the service and answered the question
 * (tasks with records ranked, up to the limit, the same account figures each run). A refusal, an
 * answer over nothing ("no records") or one sent without a query is quick and small, and met nothing.
 */
export function answerRows(answers: readonly AnswerFigures[], runs = RUNS): BenchRow[] {
  const name = `"which tasks failed most this week" (all tasks, top ${LIMIT}) @ ${RATE} req/s (median of ${runs})`;
  const problems: string[] = [];
  const digests = answers.map((a, i) => {
    const d = a.ok ? digestOf(a.text) : undefined;
    if (!a.ok) problems.push(`run ${i + 1} refused: ${a.text.split('\n')[0] ?? ''}`);
    else if (d === undefined) problems.push(`run ${i + 1}: the answer holds no digest`);
    else if (d.withRecords === 0 || d.runs === null || d.runs === 0)
      problems.push(`run ${i + 1}: the answer covers no run`);
    else if (d.listed !== Math.min(LIMIT, d.withRecords))
      problems.push(`run ${i + 1}: ${d.listed} tasks listed of ${Math.min(LIMIT, d.withRecords)}`);
    if (a.requests <= 0) problems.push(`run ${i + 1}: no analytics query reached the server`);
    return d;
  });
  if (new Set(digests.map((d) => d?.withRecords)).size > 1) problems.push('the runs answered different task counts');
  const walls = answers.map((a) => a.wall);
  const wall = worstOf(walls, runs) === undefined ? undefined : median(walls);
  const chars = Math.max(0, ...answers.map((a) => a.text.length));
  if (wall === undefined)
    return [
      missed(name, `${answers.length} of ${runs} answers timed${problems.length ? `; ${problems.join('; ')}` : ''}`),
    ];
  return [
    boundRow(name, wall, ANSWER_TARGET_MS, ms, { problems }),
    { name: '  spread over the runs (min – max)', value: spread(walls) },
    { name: '  analytics requests per answer', value: answers.map((a) => a.requests).join(', ') },
    { name: '  tasks with records; listed', value: `${digests[0]?.withRecords ?? '?'}; ${digests[0]?.listed ?? '?'}` },
    boundRow(
      '  size of the answer a model reads (the largest)',
      chars,
      ANSWER_CHARS_TARGET,
      (x) => `${x.toLocaleString('en')} chars`,
      { problems },
    ),
  ];
}
