/**
 * What package.json must declare for the tool table: `contributes.languageModelTools` (VS Code
 * reads names, descriptions and input schemas from the manifest, not from code) and the English
 * display names in package.nls.json. `scripts/sync-agent-manifest.mjs` writes them;
 * test/unit/agents.manifest.test.ts checks both files against the table, both ways.
 */
import { AGENT_TOOLS } from './table';

export const MCP_PROVIDER_ID = 'scrapedeck.mcpServers';

export const displayNameKey = (name: string): string => `languageModelTools.${name}.displayName`;
export const userDescriptionKey = (name: string): string => `languageModelTools.${name}.userDescription`;

export function languageModelToolsContribution(): Record<string, unknown>[] {
  return AGENT_TOOLS.map((tool) => ({
    name: tool.name,
    displayName: `%${displayNameKey(tool.name)}%`,
    userDescription: `%${userDescriptionKey(tool.name)}%`,
    toolReferenceName: tool.reference,
    canBeReferencedInPrompt: true,
    modelDescription: tool.modelDescription,
    tags: ['scrapedeck', tool.readOnly ? 'read' : 'change'],
    inputSchema: tool.jsonSchema(),
  }));
}

export function languageModelToolsNls(): Record<string, string> {
  return Object.fromEntries(
    AGENT_TOOLS.flatMap((tool) => [
      [displayNameKey(tool.name), tool.title],
      [userDescriptionKey(tool.name), tool.userDescription],
    ]),
  );
}
