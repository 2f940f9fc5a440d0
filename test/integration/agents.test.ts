/**
 * The agent tools and the MCP server definition inside a real VS Code (code-server) against a
 * sandbox started here. code-server has no language model, but `vscode.lm.invokeTool` runs a
 * registered tool without one: the read tools are invoked that way and compared with what the
 * client reads. Tools that change something are not invoked here (VS Code would ask through a
 * dialog no test can answer); their `prepareInvocation` is called on the tool object as
 * registered (the test seam), and the message is checked. The MCP definition provider is called
 * the same way, and the resolved definition is started and spoken to over stdio.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';

import * as vscode from 'vscode';

import { accountsMenuLabel } from '../../src/account/accountSession';
import { AGENT_TOOLS } from '../../src/agents/table';
import type { ScrapedeckTestApi } from '../../src/extension';
import { assess, DEFAULT_THRESHOLDS, totalsByTask } from '../../src/health/healthModel';
import { startResolvedMcpServer } from '../unit/helpers/mcpSession';
import {
  answerInputs,
  getApi,
  invokeTool as invoke,
  pointAtSandbox,
  type SandboxSession,
  signInWithApiKey,
  signInWithPassword,
} from './viewsHarness';

const READ_TOOLS = AGENT_TOOLS.filter((t) => t.readOnly).map((t) => t.name);

const jsonOf = <T>(text: string): T => {
  const at = text.indexOf('\n');
  assert.ok(at > 0, `a summary and JSON: ${text}`);
  return JSON.parse(text.slice(at + 1)) as T;
};

async function prepare(api: ScrapedeckTestApi, name: string, input: object): Promise<vscode.PreparedToolInvocation> {
  const tool = api.agents.tools.get(name);
  assert.ok(tool?.prepareInvocation, `${name} is registered with prepareInvocation`);
  const source = new vscode.CancellationTokenSource();
  try {
    const prepared = await tool.prepareInvocation({ input }, source.token);
    assert.ok(prepared, `${name} prepared`);
    return prepared;
  } finally {
    source.dispose();
  }
}

/** A confirmation as the person reads it: a MarkdownString's escapes and hard breaks undone. */
const text = (m: string | vscode.MarkdownString | undefined): string =>
  m === undefined
    ? ''
    : typeof m === 'string'
      ? m
      : m.value.replace(/ {2}\n/g, '\n').replace(/\\([!-/:-@[-`{-~])/g, '$1');

describe('Agent tools and the MCP server definition (real VS Code, sandbox)', () => {
  let api: ScrapedeckTestApi;
  let session: SandboxSession;
  let adaKey: string;
  const deprecateCalls = () => session.sandbox.stats.byRoute['POST /datahub/v1/data-apps/{app_id}/deprecate'] ?? 0;

  before(async () => {
    api = await getApi();
    session = await pointAtSandbox(api);
    if (api.account.account !== undefined) await vscode.commands.executeCommand('scrapedeck.signOut');
    adaKey = session.account('ada').apiKey;
    await signInWithApiKey(api, adaKey);
  });

  after(async () => {
    await session.dispose();
  });

  it('VS Code knows every tool of the table, as package.json declares it', () => {
    const known = new Map(vscode.lm.tools.map((t) => [t.name, t]));
    for (const tool of AGENT_TOOLS) {
      const info = known.get(tool.name);
      assert.ok(info, `${tool.name} in vscode.lm.tools`);
      assert.equal(info.description, tool.modelDescription);
      assert.deepEqual(info.inputSchema, tool.jsonSchema());
    }
    assert.deepEqual(
      [...api.agents.tools.keys()],
      AGENT_TOOLS.map((t) => t.name),
    );
  });

  it('scrapedeck_list_tasks through vscode.lm.invokeTool: the total and the first tasks, as the client reads them', async () => {
    const client = api.account.getClient();
    assert.ok(client);
    const groups = (await client.listTaskGroups()).data;
    const all: string[] = [];
    for (const g of groups) for (const t of (await client.searchTasks(g.taskGroupId)).data) all.push(t.taskId);
    const data = jsonOf<{ total: number; tasks: { taskId: string }[] }>(
      await invoke('scrapedeck_list_tasks', { limit: 5 }),
    );
    assert.equal(data.total, all.length);
    assert.deepEqual(
      data.tasks.map((t) => t.taskId),
      all.slice(0, 5),
    );
  });

  it('"which tasks failed most this week": scrapedeck_task_analytics ranks by failures, totals as the client reads them', async () => {
    const reply = await invoke('scrapedeck_task_analytics', { period: 'thisWeek', sortBy: 'failures', limit: 3 });
    const data = jsonOf<{
      range: { start: string; end: string };
      totals: { runs: number; failures: number };
      tasks: { taskId: string; failures: number }[];
    }>(reply);
    const client = api.account.getClient();
    assert.ok(client);
    const records = (await client.queryAllTaskAnalytics({ start: data.range.start, end: data.range.end })).records;
    const failures = new Map<string, number>();
    for (const r of records)
      failures.set(r.taskId, (failures.get(r.taskId) ?? 0) + (r.executionMetrics.failureCount ?? 0));
    assert.equal(
      data.totals.failures,
      [...failures.values()].reduce((n, f) => n + f, 0),
    );
    assert.equal(
      data.totals.runs,
      records.reduce((n, r) => n + (r.executionMetrics.runCount ?? 0), 0),
    );
    assert.equal(data.tasks[0]?.failures, Math.max(...failures.values()));
  });

  it('scrapedeck_task_health through vscode.lm.invokeTool: ada’s three failing and three slowing tasks, as the health model judges the raw records', async () => {
    type Listed = { taskId: string; level: string; runs: number; failures: number };
    const reply = await invoke('scrapedeck_task_health', { limit: 10 });
    const data = jsonOf<{
      window: { current: { start: string; end: string }; previous: { start: string; end: string } };
      counts: { failing: number; slowing: number };
      attention: Listed[];
    }>(reply);
    assert.match(reply, /^Task health of \d+ tasks over the last 7 days .* 3 failing .* 3 slowing/);
    const client = api.account.getClient();
    assert.ok(client);
    const totals = async (w: { start: string; end: string }) =>
      totalsByTask((await client.queryAllTaskAnalytics({ ...w, timeGranularity: 'Day' })).records);
    const [now, before] = await Promise.all([totals(data.window.current), totals(data.window.previous)]);
    const judged = [...now.keys()].map((id) => ({ id, h: assess(now.get(id), before.get(id), DEFAULT_THRESHOLDS) }));
    const ids = (level: string) =>
      judged
        .filter((j) => j.h.level === level)
        .map((j) => j.id)
        .sort();
    assert.deepEqual(
      data.attention
        .filter((a) => a.level === 'failing')
        .map((a) => a.taskId)
        .sort(),
      ids('failing'),
    );
    assert.deepEqual(
      data.attention
        .filter((a) => a.level === 'slowing')
        .map((a) => a.taskId)
        .sort(),
      ids('slowing'),
    );
    for (const a of data.attention.filter((x) => x.level !== 'noRuns'))
      assert.deepEqual([a.runs, a.failures], [now.get(a.taskId)?.runs, now.get(a.taskId)?.failures], a.taskId);
  });

  it('scrapedeck_run_status and scrapedeck_sample_rows through vscode.lm.invokeTool, as the client reads them', async () => {
    const client = api.account.getClient();
    assert.ok(client);
    const status = jsonOf<{ tasks: { taskId: string; status: string }[] }>(
      await invoke('scrapedeck_run_status', { limit: 3 }),
    );
    assert.equal(status.tasks.length, 3);
    const direct = new Map(
      (await client.getTaskStatuses(status.tasks.map((t) => t.taskId))).data.map((s) => [s.taskId, s.status]),
    );
    // A task the statuses leave out never ran in the cloud, and the tool says so.
    for (const t of status.tasks) assert.equal(t.status, direct.get(t.taskId) ?? 'Never run in the cloud');
    const first = status.tasks[0]?.taskId ?? '';
    const rows = jsonOf<{ total: number; columns: string[]; rows: unknown[][] }>(
      await invoke('scrapedeck_sample_rows', { task: first, rows: 3 }),
    );
    const page = (await client.getData(first, { offset: 0, size: 3 })).data;
    assert.equal(rows.total, page.total);
    assert.deepEqual(rows.columns, Object.keys(page.data[0] ?? {}));
    assert.ok(rows.rows.length <= 3);
  });

  it('bad input through vscode.lm.invokeTool is a sentence naming the field, not a throw', async () => {
    for (const name of READ_TOOLS) {
      const reply = await invoke(name, { notAField: true });
      assert.match(reply, new RegExp(`^The input of ${name} was not valid: .*notAField.* Nothing was sent`), name);
    }
  });

  it('start, stop and deprecate: prepareInvocation asks, naming the task or app and what will happen', async () => {
    const list = jsonOf<{ tasks: { taskId: string; taskName: string }[] }>(
      await invoke('scrapedeck_list_tasks', { limit: 1 }),
    );
    const task = list.tasks[0];
    assert.ok(task);
    const start = await prepare(api, 'scrapedeck_start_run', { task: task.taskId });
    assert.equal(start.confirmationMessages?.title, `Start a cloud run of “${task.taskName}”?`);
    assert.match(text(start.confirmationMessages?.message), new RegExp(task.taskId));
    assert.match(text(start.confirmationMessages?.message), /Scrapedeck will start a cloud run of this task/);
    const stop = await prepare(api, 'scrapedeck_stop_run', { task: task.taskId });
    assert.equal(stop.confirmationMessages?.title, `Stop the cloud run of “${task.taskName}”?`);
    assert.match(text(stop.confirmationMessages?.message), /Rows collected so far are kept/);
    const deprecate = await prepare(api, 'scrapedeck_deprecate_app', { app: 'ada/lead-finder' });
    assert.match(text(deprecate.confirmationMessages?.title), /ada\/lead-finder/);
    const account = api.account.account;
    assert.ok(account);
    assert.ok(
      text(deprecate.confirmationMessages?.message).startsWith(`Account ${accountsMenuLabel(account)}.`),
      'names the account',
    );
    assert.match(text(deprecate.confirmationMessages?.message), /The app leaves market search/);
    // Bad input still asks (with the reason), so nothing can slip through unconfirmed.
    const bad = await prepare(api, 'scrapedeck_deprecate_app', { app: 'lead-finder' });
    assert.match(text(bad.confirmationMessages?.message), /namespace\/name/);
    // Read tools never ask.
    assert.equal((await prepare(api, 'scrapedeck_list_tasks', {})).confirmationMessages, undefined);
  });

  it('"deprecate ada/lead-finder" through vscode.lm.invokeTool: VS Code gets the confirmation first, then the app is deprecated', async () => {
    // Outside chat VS Code shows the confirmation as a modal dialog; in extension tests its dialog
    // service answers a confirm() as confirmed by itself, so the call goes on to `invoke`.
    const tool = api.agents.tools.get('scrapedeck_deprecate_app');
    assert.ok(tool?.prepareInvocation);
    const original = tool.prepareInvocation.bind(tool);
    const asked: string[] = [];
    tool.prepareInvocation = async (options, token) => {
      const prepared = await original(options, token);
      asked.push(text(prepared?.confirmationMessages?.title));
      return prepared;
    };
    const before = deprecateCalls();
    try {
      assert.match(
        await invoke('scrapedeck_deprecate_app', { app: 'ada/lead-finder' }),
        /^ada\/lead-finder is deprecated \(/,
      );
    } finally {
      tool.prepareInvocation = original;
    }
    assert.equal(asked.length, 1, 'VS Code asked for the confirmation');
    assert.match(asked[0] ?? '', /ada\/lead-finder/);
    assert.equal(deprecateCalls(), before + 1);
  });

  it('the MCP definition: addresses in its environment, the key only once resolved, and never in its arguments; it runs', async () => {
    const defs = api.agents.mcp.provideMcpServerDefinitions();
    assert.equal(defs.length, 1);
    const def = defs[0];
    assert.ok(def);
    assert.deepEqual(
      def.args.map((a) => path.basename(a)),
      ['mcp.js'],
    );
    assert.equal(def.env.SCRAPEDECK_BASE_URL, session.sandbox.info.baseUrl);
    assert.equal(def.env.SCRAPEDECK_DATAHUB_URL, session.sandbox.info.datahubUrl);
    assert.equal(def.env.SCRAPEDECK_API_KEY, undefined, 'not offered with the key');
    const resolved = await api.agents.mcp.resolveMcpServerDefinition(def);
    assert.ok(resolved);
    assert.equal(resolved.env.SCRAPEDECK_API_KEY, adaKey);
    assert.ok(
      !resolved.args.some((a) => a.includes(adaKey)) && !resolved.command.includes(adaKey),
      'the key is not in the arguments',
    );
    assert.equal(
      typeof vscode.lm.registerMcpServerDefinitionProvider,
      'function',
      'this VS Code has MCP server definition providers',
    );
    // Started as VS Code would start it: the MCP handshake, then a tool call.
    const mcp = await startResolvedMcpServer(resolved);
    try {
      const listed = await mcp.call('scrapedeck_list_tasks', { limit: 1 });
      assert.equal(listed.isError, false, listed.text);
      assert.ok(!mcp.stdout.join('').includes(adaKey) && !mcp.stderr().includes(adaKey), 'no key on stdout or stderr');
    } finally {
      await mcp.close();
    }
  });

  it('a password sign-in: resolving asks for an API key (the session is never shared) and keeps it', async () => {
    await vscode.commands.executeCommand('scrapedeck.signOut');
    const ada = session.account('ada');
    await signInWithPassword(api, ada.username, ada.password);
    const def = api.agents.mcp.provideMcpServerDefinitions()[0];
    assert.ok(def);
    const dismissed = answerInputs(api, [undefined]);
    try {
      assert.equal(await api.agents.mcp.resolveMcpServerDefinition(def), undefined, 'no key given: not started');
    } finally {
      dismissed.restore();
    }
    const given = answerInputs(api, [adaKey]);
    try {
      const resolved = await api.agents.mcp.resolveMcpServerDefinition(def);
      assert.equal(given.asked.length, 1);
      assert.equal(given.asked[0]?.password, true);
      assert.equal(resolved?.env.SCRAPEDECK_API_KEY, adaKey);
      assert.ok(
        !Object.values(resolved?.env ?? {}).some((v) => typeof v === 'string' && /^eyJ/.test(v)),
        'no token in the environment',
      );
    } finally {
      given.restore();
    }
    // Kept: the next start does not ask again.
    const again = answerInputs(api, []);
    try {
      assert.equal((await api.agents.mcp.resolveMcpServerDefinition(def))?.env.SCRAPEDECK_API_KEY, adaKey);
    } finally {
      again.restore();
    }
  });

  it('signed out: a tool says how to sign in, and no MCP server is offered', async () => {
    await vscode.commands.executeCommand('scrapedeck.signOut');
    assert.match(
      await invoke('scrapedeck_list_tasks', {}),
      /^Scrapedeck is not signed in, so nothing was read or changed\. Ask the user to sign in/,
    );
    assert.match(
      await invoke('scrapedeck_task_health', {}),
      /^Scrapedeck is not signed in, so nothing was read or changed\. Ask the user to sign in/,
    );
    assert.deepEqual(api.agents.mcp.provideMcpServerDefinitions(), []);
  });
});
