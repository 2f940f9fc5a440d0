/**
 * The MCP server's rule for tools that change something, driven by the SDK's own client over
 * stdio against a sandbox: a client that can ask (form elicitation) asks the user, and only
 * "accept" lets the change through; a client that cannot ask changes nothing unless the server was
 * started with --allow-changes, and then says what it would have done and sends nothing at all.
 * Also: hints and descriptions say the same, an unknown argument is refused, and a request id the
 * service sends never carries the key into a result.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';

import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';

import { AGENT_TOOLS } from '../../src/agents/table';
import type { ScrapedeckClient } from '../../src/api/client';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';
import { clientFor } from './helpers/agents';
import { type McpSession, startMcpSession } from './helpers/mcpSession';
import { RecordingServer } from './helpers/recordingServer';

const SERVER = path.join(__dirname, '..', '..', 'src', 'mcp.js');
const START = 'POST /cloudextraction/start';
const STOP = 'POST /cloudextraction/stop';
const DEPRECATE = 'POST /datahub/v1/data-apps/{app_id}/deprecate';

describe('agents: the MCP server asks before it changes anything (SDK client over stdio, sandbox)', function () {
  let sandbox: RunningSandbox;
  let ada: ScrapedeckClient;
  let apiKey: string;
  let task: { taskId: string; taskName: string; groupName: string };
  const sessions: McpSession[] = [];
  const env = () => ({
    SCRAPEDECK_API_KEY: apiKey,
    SCRAPEDECK_BASE_URL: sandbox.info.baseUrl,
    SCRAPEDECK_DATAHUB_URL: sandbox.info.datahubUrl,
  });
  const count = (route: string) => sandbox.stats.byRoute[route] ?? 0;
  const status = async () => (await ada.getTaskStatuses([task.taskId])).data[0]?.status;
  const open = async (options: Parameters<typeof startMcpSession>[2]) => {
    const s = await startMcpSession(SERVER, env(), options);
    sessions.push(s);
    return s;
  };

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, seed: 11, runSeconds: 600, queueSeconds: 0 }); // no queue: the run is under way as soon as it is started
    apiKey = sandbox.info.accounts.find((a) => a.username === 'ada')?.apiKey ?? '';
    ada = clientFor(sandbox, 'ada');
    const group = (await ada.listTaskGroups()).data[0];
    assert.ok(group);
    const statuses = new Map<string, string>();
    const tasks = (await ada.searchTasks(group.taskGroupId)).data;
    for (const s of (await ada.getTaskStatuses(tasks.map((t) => t.taskId))).data) statuses.set(s.taskId, s.status);
    const idle = tasks.find((t) => statuses.get(t.taskId) !== 'Extracting');
    assert.ok(idle, 'a task that is not running');
    task = { ...idle, groupName: group.taskGroupName };
  });
  after(async () => {
    for (const s of sessions) await s.close();
    await ada?.close();
    await sandbox?.close();
  });

  it('every tool that changes something carries destructiveHint true, and its description says the user confirms', async () => {
    const s = await open({});
    const { tools } = await s.client.listTools();
    const changing = tools.filter((t) => t.annotations?.readOnlyHint === false);
    assert.deepEqual(
      changing.map((t) => t.name),
      AGENT_TOOLS.filter((t) => !t.readOnly).map((t) => t.name),
    );
    assert.deepEqual(changing.map((t) => t.name).sort(), [
      'scrapedeck_deprecate_app',
      'scrapedeck_start_run',
      'scrapedeck_stop_run',
    ]);
    for (const t of changing) {
      assert.equal(t.annotations?.destructiveHint, true, t.name);
      assert.match(t.description ?? '', /after the user confirms/, t.name);
    }
    for (const t of tools.filter((x) => x.annotations?.readOnlyHint === true))
      assert.equal(t.annotations?.destructiveHint, false, t.name);
    assert.match(s.client.getInstructions() ?? '', /asks the user itself \(MCP elicitation\).*--allow-changes/);
  });

  it('a client that can ask: the user sees the task’s real name, group and status; “accept” starts the run', async () => {
    const asked: ElicitRequest['params'][] = [];
    const s = await open({ elicit: (p) => (asked.push(p), { action: 'accept', content: {} }) });
    const before = count(START);
    const reply = await s.call('scrapedeck_start_run', { task: task.taskId });
    assert.equal(reply.isError, false, reply.text);
    assert.match(reply.text, /^Started a cloud run of/);
    assert.equal(asked.length, 1, 'asked once');
    assert.match(
      asked[0]?.message ?? '',
      new RegExp(
        `^Start a cloud run of “${escape(task.taskName)}”\\?\\n\\nTask “${escape(task.taskName)}” \\(id ${task.taskId}\\) in the group “${escape(task.groupName)}”`,
      ),
    );
    assert.equal(count(START), before + 1);
    assert.equal(await status(), 'Extracting');
  });

  it('“decline” and “cancel”: nothing is changed and no stop is sent', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      let asked = 0;
      const s = await open({ elicit: (): ElicitResult => (asked++, { action }) });
      const before = count(STOP);
      const reply = await s.call('scrapedeck_stop_run', { task: task.taskId });
      assert.equal(reply.isError, true);
      assert.match(
        reply.text,
        new RegExp(
          `^The user ${action === 'decline' ? 'declined' : 'dismissed'} scrapedeck_stop_run .*nothing was sent`,
        ),
      );
      assert.equal(asked, 1);
      assert.equal(count(STOP), before, 'no stop sent');
      assert.equal(await status(), 'Extracting', 'still running');
    }
  });

  it('asking fails (the client answers the elicitation with an error): nothing is changed and no stop is sent', async () => {
    let asked = 0;
    const s = await open({
      elicit: (): ElicitResult => {
        asked++;
        throw new Error('the dialog could not be shown');
      },
    });
    const before = count(STOP);
    const reply = await s.call('scrapedeck_stop_run', { task: task.taskId });
    assert.equal(reply.isError, true);
    assert.match(
      reply.text,
      /^scrapedeck_stop_run needs the user’s agreement, and asking the user through the MCP client failed \(.*the dialog could not be shown.*\), so nothing was changed and nothing was sent\.$/,
    );
    assert.equal(asked, 1);
    assert.equal(count(STOP), before, 'no stop sent');
  });

  it('a client that cannot ask, without --allow-changes: it says what it would do and how to allow it, and the sandbox sees no request at all', async () => {
    const s = await open({});
    await s.client.listTools();
    const before = sandbox.stats.requests;
    const stop = await s.call('scrapedeck_stop_run', { task: task.taskName });
    assert.equal(stop.isError, true);
    assert.match(
      stop.text,
      new RegExp(
        `^scrapedeck_stop_run would stop the cloud run of the task “${escape(task.taskName)}” for the account of SCRAPEDECK_API_KEY at [\\w.:]+\\. It was not run, and nothing was sent to the service`,
      ),
    );
    assert.match(stop.text, /MCP elicitation.*restart the server with the --allow-changes argument/);
    const deprecate = await s.call('scrapedeck_deprecate_app', { app: 'ada/lead-finder' });
    assert.match(deprecate.text, /^scrapedeck_deprecate_app would deprecate the data app ada\/lead-finder /);
    assert.equal(sandbox.stats.requests, before, 'not even a read was sent');
    assert.equal(await status(), 'Extracting');
  });

  it('started with --allow-changes, a client that cannot ask changes things without asking', async () => {
    const s = await open({ args: ['--allow-changes'] });
    const before = count(DEPRECATE);
    const reply = await s.call('scrapedeck_deprecate_app', { app: 'ada/lead-finder' });
    assert.equal(reply.isError, false, reply.text);
    assert.match(reply.text, /^ada\/lead-finder is deprecated/);
    assert.equal(count(DEPRECATE), before + 1);
    assert.match(s.stderr(), /changes allowed without asking when the client cannot ask \(--allow-changes\)/);
  });

  it('a task that cannot be found is refused without asking the user', async () => {
    let asked = 0;
    const s = await open({ elicit: (): ElicitResult => (asked++, { action: 'accept', content: {} }) });
    const reply = await s.call('scrapedeck_start_run', { task: 'No task has this name' });
    assert.equal(reply.isError, true);
    assert.match(reply.text, /^No task of this account has the id or name “No task has this name”/);
    assert.equal(asked, 0);
  });

  it('an argument it does not know (a misspelt flag) is said by every call; nothing is sent', async () => {
    const s = await open({ args: ['--allow-change'] });
    const before = sandbox.stats.requests;
    const reply = await s.call('scrapedeck_list_tasks', {});
    assert.equal(reply.isError, true);
    assert.match(
      reply.text,
      /^The Scrapedeck MCP server is misconfigured: it takes no argument but --allow-changes, and was given "--allow-change"/,
    );
    assert.equal(sandbox.stats.requests, before);
  });
});

describe('agents: a request id from the service never carries the key into an MCP result', function () {
  const server = new RecordingServer();
  const apiKey = 'sdk_mcpRequestIdSecret0123456789abcdef';
  before(() => server.start());
  after(() => server.close());

  it('the id is redacted in the result and the log, the rest of the sentence kept', async () => {
    server.handler = () => ({
      status: 500,
      body: { error: { code: 'InternalError', message: 'Something broke' }, requestId: `req-${apiKey}-9` },
    });
    const s = await startMcpSession(SERVER, { SCRAPEDECK_API_KEY: apiKey, SCRAPEDECK_BASE_URL: server.baseUrl });
    try {
      const reply = await s.call('scrapedeck_list_tasks', {});
      assert.equal(reply.isError, true);
      assert.match(
        reply.text,
        /^Could not list the task groups\. .*Something broke\..*Request ID \(for support\): req-\[redacted\]-9\.$/,
      );
      assert.equal(reply.text.includes(apiKey), false);
      for (const text of [...s.stdout, s.stderr()]) assert.equal(text.includes(apiKey), false);
    } finally {
      await s.close();
    }
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
