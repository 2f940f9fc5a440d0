/**
 * The one table of Scrapedeck's agent tools. Both adapters read it: `vscodeTools.ts` (VS Code
 * language-model tools, declared in package.json's `languageModelTools`, checked against this
 * table by test/unit/agents.manifest.test.ts) and `mcpServer.ts` (the stdio MCP server).
 */
import type { AgentTool } from './tool';
import { deprecateAppTool } from './tools/deprecateApp';
import { listTasksTool } from './tools/listTasks';
import { startRunTool, stopRunTool } from './tools/runControl';
import { runStatusTool } from './tools/runStatus';
import { sampleRowsTool } from './tools/sampleRows';
import { taskAnalyticsTool } from './tools/taskAnalytics';

export const AGENT_TOOLS: readonly AgentTool[] = [
  listTasksTool,
  taskAnalyticsTool,
  // ---- RESERVED: `scrapedeck_task_health` (issue 14) -----------------------------------------
  // Task health is being built in src/health (a pure model). When it lands, add its tool here,
  // read-only, built on that model and the client (no second health model in src/agents), add its
  // entry to package.json's languageModelTools (the manifest test says exactly what), and take the
  // name out of RESERVED_TOOL_NAMES.
  // ----------------------------------------------------------------------------------------------
  runStatusTool,
  startRunTool,
  stopRunTool,
  sampleRowsTool,
  deprecateAppTool,
];

/** Names kept for tools that are not built yet; nothing may use them meanwhile. */
export const RESERVED_TOOL_NAMES: readonly string[] = ['scrapedeck_task_health'];

export function findTool(name: string): AgentTool | undefined {
  return AGENT_TOOLS.find((tool) => tool.name === name);
}
