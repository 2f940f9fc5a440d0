/**
 * package.json declares exactly the agent tool table (src/agents/table.ts), both ways: every tool
 * with its name, display name, model description and input schema, and nothing the table lacks.
 * VS Code reads these from the manifest, so a tool changed in code only would show the model a
 * stale description or schema. Fix a failure with `npm run compile-tests && node scripts/sync-agent-manifest.mjs`.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import * as z from 'zod';

import { languageModelToolsContribution, languageModelToolsNls, MCP_PROVIDER_ID } from '../../src/agents/manifest';
import { AGENT_TOOLS, RESERVED_TOOL_NAMES } from '../../src/agents/table';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const json = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, unknown>;

const manifestSchema = z.object({
  bin: z.record(z.string(), z.string()).optional(),
  contributes: z.object({
    languageModelTools: z.array(z.object({ name: z.string() }).passthrough()),
    mcpServerDefinitionProviders: z.array(z.object({ id: z.string(), label: z.string() })),
  }),
});

describe('agents: package.json follows the tool table', () => {
  const pkg = manifestSchema.parse(json('package.json'));
  const declared = pkg.contributes.languageModelTools;
  const FIX = 'run `npm run compile-tests && node scripts/sync-agent-manifest.mjs`';

  it('declares every tool of the table, and no other', () => {
    assert.deepEqual(
      declared.map((t) => t.name),
      AGENT_TOOLS.map((t) => t.name),
      FIX,
    );
  });

  it('each declaration is the table’s: display name, model description, schema, tags', () => {
    const expected = languageModelToolsContribution();
    for (const [i, tool] of declared.entries()) assert.deepEqual(tool, expected[i], `${tool.name}: ${FIX}`);
  });

  it('display names and user descriptions are in package.nls.json, with the table’s English', () => {
    const nls = json('package.nls.json');
    for (const [key, text] of Object.entries(languageModelToolsNls())) assert.equal(nls[key], text, `${key}: ${FIX}`);
    const stale = Object.keys(nls).filter(
      (k) => k.startsWith('languageModelTools.') && !(k in languageModelToolsNls()),
    );
    assert.deepEqual(stale, []);
  });

  it('a reserved name is not declared until its tool exists', () => {
    for (const name of RESERVED_TOOL_NAMES) {
      assert.equal(
        declared.some((t) => t.name === name),
        false,
        name,
      );
      assert.equal(
        AGENT_TOOLS.some((t) => t.name === name),
        false,
        name,
      );
    }
  });

  it('offers the MCP server: the provider id the code registers; dist/mcp.js is run by its path, never by a registry name', () => {
    assert.deepEqual(
      pkg.contributes.mcpServerDefinitionProviders.map((p) => p.id),
      [MCP_PROVIDER_ID],
    );
    // A `bin` name invites `npx <name>`, which runs whatever the registry holds under that name.
    assert.equal(pkg.bin, undefined);
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    assert.doesNotMatch(readme, /npx scrapedeck/);
    assert.match(readme, /`node <extension folder>\/dist\/mcp\.js`/);
    assert.match(readme, /`--allow-changes`/);
    const ignore = readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8');
    assert.match(ignore, /^!dist\/mcp\.js$/m, 'the .vsix carries the MCP server');
  });
});

describe('agents: the tool table', () => {
  it('names are unique, `scrapedeck_…`, and fit both VS Code and MCP (letters, digits, _ and -; at most 64)', () => {
    const names = AGENT_TOOLS.map((t) => t.name);
    assert.equal(new Set(names).size, names.length);
    for (const name of names) assert.match(name, /^scrapedeck_[a-z_]{1,53}$/);
    assert.equal(new Set(AGENT_TOOLS.map((t) => t.reference)).size, names.length, 'reference names are unique');
  });

  it('flags: reads are read-only; every tool that changes something (start, stop, deprecate) is destructive', () => {
    const flags = Object.fromEntries(AGENT_TOOLS.map((t) => [t.name, [t.readOnly, t.destructive]]));
    assert.deepEqual(flags, {
      scrapedeck_list_tasks: [true, false],
      scrapedeck_task_analytics: [true, false],
      scrapedeck_task_health: [true, false],
      scrapedeck_run_status: [true, false],
      scrapedeck_start_run: [false, true],
      scrapedeck_stop_run: [false, true],
      scrapedeck_sample_rows: [true, false],
      scrapedeck_deprecate_app: [false, true],
    });
  });

  it('every input schema is a closed JSON object schema with a description per property', () => {
    for (const tool of AGENT_TOOLS) {
      const schema = tool.jsonSchema();
      assert.equal(schema.type, 'object', tool.name);
      assert.equal(schema.additionalProperties, false, tool.name);
      assert.equal('$schema' in schema, false, tool.name);
      const props = schema.properties as Record<string, { description?: string }>;
      for (const [key, prop] of Object.entries(props))
        assert.ok(prop.description, `${tool.name}.${key} has a description`);
    }
  });

  it('model descriptions say what comes back and stay short enough for a model’s tool list', () => {
    for (const tool of AGENT_TOOLS) {
      assert.ok(
        tool.modelDescription.length > 150 && tool.modelDescription.length < 1200,
        `${tool.name}: ${tool.modelDescription.length} characters`,
      );
      assert.match(tool.modelDescription, /Returns|returns|Fails|answers/i, tool.name);
    }
  });
});
