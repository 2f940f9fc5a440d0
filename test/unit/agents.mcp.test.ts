/**
 * The stdio MCP server (src/mcp.ts) driven by the MCP SDK's own client against an in-process
 * sandbox: the tools it lists (the table's, with readOnlyHint/destructiveHint), each read tool,
 * "which tasks failed most this week" and "deprecate ada/lead-finder", refusals, a server without
 * a key or with a bad address, and no secret on stdout or stderr. Then the bundled dist/mcp.js,
 * copied away from node_modules as the .vsix ships it.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { readMcpArgs, readMcpEnv } from '../../src/agents/mcpEnv';
import { periodRange } from '../../src/agents/periods';
import { AGENT_TOOLS } from '../../src/agents/table';
import type { ScrapedeckClient } from '../../src/api/client';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';
import { clientFor } from './helpers/agents';
import { type McpSession, startMcpSession } from './helpers/mcpSession';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SERVER = path.join(ROOT, 'out', 'src', 'mcp.js');

const jsonOf = <T>(text: string): T => JSON.parse(text.slice(text.indexOf('\n') + 1)) as T;

describe('agents: the MCP server over stdio (SDK client, sandbox)', function () {
  let sandbox: RunningSandbox;
  let ada: ScrapedeckClient;
  let apiKey: string;
  let session: McpSession;
  const env = () => ({
    SCRAPEDECK_API_KEY: apiKey,
    SCRAPEDECK_BASE_URL: sandbox.info.baseUrl,
    SCRAPEDECK_DATAHUB_URL: sandbox.info.datahubUrl,
  });

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, seed: 7 });
    apiKey = sandbox.info.accounts.find((a) => a.username === 'ada')?.apiKey ?? '';
    ada = clientFor(sandbox, 'ada');
    session = await startMcpSession(SERVER, env());
  });
  after(async () => {
    await session?.close();
    await ada?.close();
    await sandbox?.close();
  });

  it('lists the table’s tools with their schemas, and annotations that mark what changes things', async () => {
    const { tools } = await session.client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      AGENT_TOOLS.map((t) => t.name),
    );
    for (const [i, t] of tools.entries()) {
      const def = AGENT_TOOLS[i];
      assert.ok(def);
      assert.deepEqual(t.inputSchema, def.jsonSchema());
      assert.equal(t.description, def.modelDescription);
      assert.equal(t.annotations?.readOnlyHint, def.readOnly, t.name);
      assert.equal(t.annotations?.destructiveHint, def.destructive, t.name);
    }
    const deprecate = tools.find((t) => t.name === 'scrapedeck_deprecate_app');
    assert.deepEqual(
      [
        deprecate?.annotations?.readOnlyHint,
        deprecate?.annotations?.destructiveHint,
        deprecate?.annotations?.idempotentHint,
      ],
      [false, true, true],
    );
    const health = tools.find((t) => t.name === 'scrapedeck_task_health');
    assert.deepEqual([health?.annotations?.readOnlyHint, health?.annotations?.destructiveHint], [true, false]);
    const stop = tools.find((t) => t.name === 'scrapedeck_stop_run');
    assert.deepEqual([stop?.annotations?.readOnlyHint, stop?.annotations?.destructiveHint], [false, true]);
    assert.match(session.client.getInstructions() ?? '', /ask the user before calling them/);
  });

  it('each read tool answers as the client reads the service', async () => {
    const groups = (await ada.listTaskGroups()).data;
    let total = 0;
    for (const g of groups) total += (await ada.searchTasks(g.taskGroupId)).data.length;
    const listed = await session.call('scrapedeck_list_tasks', { limit: 3 });
    assert.equal(listed.isError, false, listed.text);
    const page = jsonOf<{ total: number; tasks: { taskId: string; taskName: string }[] }>(listed.text);
    assert.equal(page.total, total);
    const first = page.tasks[0];
    assert.ok(first);

    const status = await session.call('scrapedeck_run_status', { tasks: [first.taskId] });
    assert.equal(
      jsonOf<{ tasks: { status: string }[] }>(status.text).tasks[0]?.status,
      (await ada.getTaskStatuses([first.taskId])).data[0]?.status,
    );

    const rows = await session.call('scrapedeck_sample_rows', { task: first.taskId, rows: 3 });
    assert.equal(rows.isError, false, rows.text);
    assert.equal(
      jsonOf<{ total: number }>(rows.text).total,
      (await ada.getData(first.taskId, { offset: 0, size: 1 })).data.total,
    );
  });

  it('"which tasks failed most this week": the analytics ranked by failures', async () => {
    const reply = await session.call('scrapedeck_task_analytics', { period: 'thisWeek', sortBy: 'failures', limit: 3 });
    assert.equal(reply.isError, false, reply.text);
    const { start, end } = periodRange('thisWeek', Date.now());
    const failures = new Map<string, number>();
    for (const r of (await ada.queryAllTaskAnalytics({ start, end })).records)
      failures.set(r.taskId, (failures.get(r.taskId) ?? 0) + (r.executionMetrics.failureCount ?? 0));
    const data = jsonOf<{ range: { start: string }; tasks: { taskId: string; failures: number }[] }>(reply.text);
    assert.equal(data.range.start, start);
    assert.equal(data.tasks[0]?.failures, Math.max(...failures.values()));
  });

  it('"deprecate ada/lead-finder" from a client that cannot ask: not done, and it says how to allow it (the consent rules: agents.mcpConsent.test.ts)', async () => {
    const before = sandbox.stats.byRoute['POST /datahub/v1/data-apps/{app_id}/deprecate'] ?? 0;
    const reply = await session.call('scrapedeck_deprecate_app', { app: 'ada/lead-finder' });
    assert.equal(reply.isError, true);
    assert.match(
      reply.text,
      /^scrapedeck_deprecate_app would deprecate the data app ada\/lead-finder .*--allow-changes/,
    );
    assert.equal(sandbox.stats.byRoute['POST /datahub/v1/data-apps/{app_id}/deprecate'] ?? 0, before);
  });

  it('bad arguments and unknown tools are isError sentences, not protocol errors; nothing is sent', async () => {
    const before = sandbox.stats.requests;
    const bad = await session.call('scrapedeck_sample_rows', { task: 'x', rows: 500 });
    assert.deepEqual(
      [bad.isError, /^The input of scrapedeck_sample_rows was not valid: rows: /.test(bad.text)],
      [true, true],
    );
    const unknown = await session.call('scrapedeck_export_everything', {});
    assert.match(unknown.text, /^There is no Scrapedeck tool named “scrapedeck_export_everything”/);
    assert.equal(sandbox.stats.requests, before);
  });

  it('never writes the API key: not to stdout (only protocol messages), not to stderr (its log)', () => {
    assert.ok(session.stdout.length >= 8, `${session.stdout.length} messages`);
    assert.deepEqual(session.errors, [], 'every stdout line was a protocol message');
    assert.match(session.stderr(), /GET \/taskGroup 200 .*requestId=/, 'the log is on stderr');
    for (const text of [...session.stdout, session.stderr()]) assert.equal(text.includes(apiKey), false);
    assert.equal(session.stderr().includes(apiKey.slice(4, 24)), false, 'not even a part of it');
  });

  it('without SCRAPEDECK_API_KEY it still lists its tools, and every call says how to give it one', async () => {
    const keyless = await startMcpSession(SERVER, { SCRAPEDECK_BASE_URL: sandbox.info.baseUrl });
    try {
      assert.equal((await keyless.client.listTools()).tools.length, AGENT_TOOLS.length);
      const reply = await keyless.call('scrapedeck_list_tasks', {});
      assert.equal(reply.isError, true);
      assert.match(reply.text, /^SCRAPEDECK_API_KEY is not set.*in this server’s environment \(not in its arguments\)/);
    } finally {
      await keyless.close();
    }
  });

  it('a misconfigured address is said by every call, with the key kept out of it', async () => {
    const wrong = await startMcpSession(SERVER, {
      SCRAPEDECK_API_KEY: apiKey,
      SCRAPEDECK_BASE_URL: 'http://example.com',
    });
    try {
      const reply = await wrong.call('scrapedeck_run_status', {});
      assert.match(
        reply.text,
        /^The Scrapedeck MCP server is misconfigured: SCRAPEDECK_BASE_URL must start with https:\/\//,
      );
      assert.equal(reply.text.includes(apiKey) || wrong.stderr().includes(apiKey), false);
    } finally {
      await wrong.close();
    }
  });
});

describe('agents: the MCP server’s environment', () => {
  it('reads the key and addresses; the production address by default', () => {
    assert.deepEqual(readMcpEnv({ SCRAPEDECK_API_KEY: ' sdk_abc ' }), {
      ok: true,
      config: {
        apiKey: 'sdk_abc',
        baseUrl: 'https://openapi.octoparse.com',
        datahubUrl: undefined,
        requestsPerSecond: 20,
        runNotices: undefined,
      },
    });
  });
  it('refuses a key that cannot be a header by position only, never quoting it', () => {
    const r = readMcpEnv({ SCRAPEDECK_API_KEY: 'sdk_sécret\u2603' });
    assert.equal(r.ok, false);
    assert.match(
      r.ok ? '' : r.problem,
      /SCRAPEDECK_API_KEY has a character that cannot be sent in an HTTP header \(at position 11\)/,
    );
    assert.equal(r.ok ? '' : r.problem.includes('\u2603'), false);
  });
  it('refuses a bad rate and a hub address with a password in it', () => {
    const r = readMcpEnv({
      SCRAPEDECK_REQUESTS_PER_SECOND: '50',
      SCRAPEDECK_DATAHUB_URL: 'https://u:p@hub.example.com',
    });
    assert.equal(r.ok, false);
    assert.match(
      r.ok ? '' : r.problem,
      /SCRAPEDECK_DATAHUB_URL must not contain a user name or password; SCRAPEDECK_REQUESTS_PER_SECOND must be a whole number from 1 to 20/,
    );
  });
});

describe('agents: the bundled dist/mcp.js runs without node_modules', function () {
  this.timeout(120_000);
  let sandbox: RunningSandbox;
  let dir: string;

  before(async () => {
    ensureBuilt();
    dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-mcp-'));
    // What the .vsix carries next to it: the server and the undici chunk it loads.
    for (const f of ['mcp.js', 'undici.js']) copyFileSync(path.join(ROOT, 'dist', f), path.join(dir, f));
    sandbox = await startSandbox({ rateLimit: 0 });
  });
  after(async () => {
    await sandbox?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lists the tools and answers a call, from a folder with no node_modules above it', async () => {
    const apiKey = sandbox.info.accounts[0]?.apiKey ?? '';
    const session = await startMcpSession(
      path.join(dir, 'mcp.js'),
      { SCRAPEDECK_API_KEY: apiKey, SCRAPEDECK_BASE_URL: sandbox.info.baseUrl },
      dir,
    );
    try {
      assert.equal((await session.client.listTools()).tools.length, AGENT_TOOLS.length);
      const reply = await session.call('scrapedeck_list_tasks', { limit: 1 });
      assert.equal(reply.isError, false, reply.text);
      assert.equal(
        session.client.getServerVersion()?.version,
        (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
      );
    } finally {
      await session.close();
    }
  });
});

/**
 * Builds dist/ (the real esbuild.mjs) unless its stamp says it holds these sources: the build is
 * by content, not by file times, so a bundle that another tier runs beside this one (npm test's
 * lanes) is never rewritten under it when only the files' times changed.
 */
function ensureBuilt(): void {
  const r = spawnSync(process.execPath, ['esbuild.mjs', '--if-changed'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, `esbuild: ${r.stderr}`);
}

describe('agents: the MCP server’s arguments', () => {
  it('none, or --allow-changes', () => {
    assert.deepEqual(readMcpArgs([]), { ok: true, allowChanges: false });
    assert.deepEqual(readMcpArgs(['--allow-changes']), { ok: true, allowChanges: true });
  });
  it('anything else is refused by name (cut), so a misspelt flag is never taken for no flag', () => {
    const r = readMcpArgs(['--allow-change', `--${'x'.repeat(100)}`]);
    assert.equal(r.ok, false);
    assert.match(
      r.ok ? '' : r.problem,
      /^The Scrapedeck MCP server is misconfigured: it takes no argument but --allow-changes, and was given "--allow-change", "--x{38}"\./,
    );
  });
});
