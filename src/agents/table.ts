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
import { taskHealthTool } from './tools/taskHealth';

export const AGENT_TOOLS: readonly AgentTool[] = [
  listTasksTool,
  taskAnalyticsTool,
  taskHealthTool,
  runStatusTool,
  startRunTool,
  stopRunTool,
  sampleRowsTool,
  deprecateAppTool,
];

/** Names kept for tools that are not built yet; nothing may use them meanwhile. */
export const RESERVED_TOOL_NAMES: readonly string[] = [];

export function findTool(name: string): AgentTool | undefined {
  return AGENT_TOOLS.find((tool) => tool.name === name);
}
