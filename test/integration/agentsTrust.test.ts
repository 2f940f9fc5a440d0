/**
 * What agents may change, in a real VS Code against sandboxes started here: a language-model
 * tool's `invoke` runs only what its `prepareInvocation` confirmed (refused after an account switch
 * or when the name now means another task), confirmations show service and model text as plain
 * text (as do the Remove Data modal and its typed step), and the MCP server definition never
 * pairs the current key with another account's or another address's definition.
 *
 * `vscode.lm.invokeTool` asks VS Code to run the tool as chat would: prepareInvocation, the
 * confirmation (which VS Code's dialog service answers itself in extension tests), then invoke.
 * A test changes the world between the first and the last by wrapping the registered tool's
 * prepareInvocation, which VS Code calls through the registration.
 */
import * as assert from 'node:assert/strict';

import * as vscode from 'vscode';

import type { Task } from '../../src/api/schemas/schemas';
import type { ScrapedeckTestApi } from '../../src/extension';
import { startSandbox } from '../../src/sandbox/server';
import { startResolvedMcpServer } from '../unit/helpers/mcpSession';
import {
  answerInputs,
  getApi,
  invokeTool as invoke,
  pointAtSandbox,
  replaceUi,
  type SandboxSession,
  signInWithApiKey,
  signInWithPassword,
  waitFor,
} from './viewsHarness';

const START = 'POST /cloudextraction/start';

/** Runs `between` after the tool's confirmation was prepared and before VS Code invokes it. */
async function invokeWith(
  api: ScrapedeckTestApi,
  name: string,
  input: object,
  between: () => Promise<void>,
): Promise<{ reply: string; titles: string[] }> {
  const tool = api.agents.tools.get(name);
  assert.ok(tool?.prepareInvocation);
  const original = tool.prepareInvocation.bind(tool);
  const titles: string[] = [];
  tool.prepareInvocation = async (options, token) => {
    const prepared = await original(options, token);
    titles.push(prepared?.confirmationMessages?.title ?? '');
    await between();
    return prepared;
  };
  try {
    return { reply: await invoke(name, input), titles };
  } finally {
    tool.prepareInvocation = original;
  }
}

async function prepare(api: ScrapedeckTestApi, name: string, input: object): Promise<vscode.PreparedToolInvocation> {
  const tool = api.agents.tools.get(name);
  assert.ok(tool?.prepareInvocation);
  const source = new vscode.CancellationTokenSource();
  try {
    const prepared = await tool.prepareInvocation({ input }, source.token);
    assert.ok(prepared);
    return prepared;
  } finally {
    source.dispose();
  }
}

describe('Agents change only what was confirmed, shown as plain text (real VS Code, sandbox)', function () {
  this.timeout(120_000);
  let api: ScrapedeckTestApi;
  let session: SandboxSession;
  const starts = () => session.sandbox.stats.byRoute[START] ?? 0;

  /** Every task of an account, with its group, as the client reads them. */
  const tasksOf = async (): Promise<Task[]> => {
    const client = api.account.getClient();
    assert.ok(client);
    const all: Task[] = [];
    for (const g of (await client.listTaskGroups()).data) all.push(...(await client.searchTasks(g.taskGroupId)).data);
    return all;
  };
  const signInAs = async (username: string) => {
    if (api.account.account !== undefined) await vscode.commands.executeCommand('scrapedeck.signOut');
    await signInWithApiKey(api, session.account(username).apiKey);
  };

  before(async () => {
    api = await getApi();
    session = await pointAtSandbox(api);
    await signInAs('ada');
  });

  after(async () => {
    await session.dispose();
  });

  it('a start confirmed for ada’s task is refused after a switch to linus, even for linus’s task of the same name: nothing is started', async () => {
    const ada = await tasksOf();
    await signInAs('linus');
    const linus = await tasksOf();
    await signInAs('ada');
    const count = (list: Task[], name: string) =>
      list.filter((t) => t.taskName.toLowerCase() === name.toLowerCase()).length;
    const shared = ada.find((t) => count(ada, t.taskName) === 1 && count(linus, t.taskName) === 1);
    assert.ok(shared, 'ada and linus each have one task of the same name');
    const before = starts();
    const { reply, titles } = await invokeWith(api, 'scrapedeck_start_run', { task: shared.taskName }, () =>
      signInAs('linus'),
    );
    assert.deepEqual(titles, [`Start a cloud run of “${shared.taskName}”?`], 'VS Code asked, for ada’s task');
    assert.match(
      reply,
      new RegExp(
        `^The user confirmed “Start a cloud run of “${escape(shared.taskName)}”\\?” for the account .+, but the account signed in now is .+, so nothing was changed or sent\\.`,
      ),
    );
    assert.equal(starts(), before, 'no start sent, for either account');
    await signInAs('ada');
  });

  it('a start confirmed when the name meant nothing is refused once the name means a task: what runs is what was confirmed', async () => {
    const client = api.account.getClient();
    assert.ok(client);
    const tasks = await tasksOf();
    const source = tasks.find((t) => !tasks.some((o) => o.taskName === `${t.taskName} (copy)`));
    assert.ok(source);
    const name = `${source.taskName} (copy)`;
    const before = starts();
    const { reply, titles } = await invokeWith(api, 'scrapedeck_start_run', { task: name }, async () => {
      // Between the question and the call, the name comes to mean a task (the service copies one).
      await client.copyTask(source.taskId);
    });
    assert.deepEqual(titles, ['Start a cloud run?'], 'the confirmation said nothing would be started');
    assert.match(
      reply,
      new RegExp(
        `^The user confirmed “Start a cloud run\\?”, but the call now resolves to something else \\(“Start a cloud run of “${escape(name)}”\\?”\\), so nothing was changed or sent\\.`,
      ),
    );
    assert.equal(starts(), before);
    // Asked again, it is confirmed for that task and runs.
    const again = await invoke('scrapedeck_start_run', { task: name });
    assert.match(again, new RegExp(`^Started a cloud run of “${escape(name)}”`));
    assert.equal(starts(), before + 1);
  });

  /** VS Code's invoke alone, as a caller that skipped prepareInvocation would call it. */
  const invokeOnly = async (name: string, input: object): Promise<string> => {
    const tool = api.agents.tools.get(name);
    assert.ok(tool);
    const source = new vscode.CancellationTokenSource();
    try {
      const result = await tool.invoke(
        { input, toolInvocationToken: undefined } as vscode.LanguageModelToolInvocationOptions<unknown>,
        source.token,
      );
      return (result?.content ?? [])
        .map((p) =>
          p instanceof vscode.LanguageModelTextPart || (typeof p === 'object' && p !== null && 'value' in p)
            ? String((p as { value: unknown }).value)
            : '',
        )
        .join('');
    } finally {
      source.dispose();
    }
  };

  it('a change invoked without a prepared confirmation is refused: nothing is started', async () => {
    // The last task: no other test of this window prepares a call for it, so nothing confirmed is left for it.
    const task = (await tasksOf()).at(-1);
    assert.ok(task);
    const before = starts();
    const reply = await invokeOnly('scrapedeck_start_run', { task: task.taskId });
    assert.match(
      reply,
      /^scrapedeck_start_run was not confirmed by the user \(VS Code did not ask first\), so nothing was changed or sent\./,
    );
    assert.equal(starts(), before);
  });

  it('a change confirmed while signed out is refused after a sign-in; invoked while signed out, it says how to sign in: nothing is started', async () => {
    const task = (await tasksOf())[0];
    assert.ok(task);
    const before = starts();
    await vscode.commands.executeCommand('scrapedeck.signOut');
    try {
      const prepared = await prepare(api, 'scrapedeck_start_run', { task: task.taskId });
      assert.match(
        String(
          (prepared.confirmationMessages?.message as vscode.MarkdownString | undefined)?.value ??
            prepared.confirmationMessages?.message,
        ),
        /not signed in/,
      );
      assert.match(
        await invokeOnly('scrapedeck_start_run', { task: task.taskId }),
        /^Scrapedeck is not signed in, so nothing was read or changed\./,
        'signed out still',
      );
      // Confirmed while signed out again, then signed in before the call.
      await prepare(api, 'scrapedeck_start_run', { task: task.taskId });
    } finally {
      await signInAs('ada');
    }
    const reply = await invokeOnly('scrapedeck_start_run', { task: task.taskId });
    assert.match(
      reply,
      /^The user confirmed “.*” while Scrapedeck was signed out, but the account signed in now is .+, so nothing was changed or sent\./,
    );
    assert.equal(starts(), before);
  });

  it('service and model text in confirmations is plain text: no line breaks, links, command: URIs or bidi characters; long names cut', async () => {
    const client = api.account.getClient();
    assert.ok(client);
    const tasks = await tasksOf();
    // A task the Tasks view has not read (its cache would name it as the service first did).
    const target = tasks.find((t) => api.views.tasks.model.knownTaskNames([t.taskId]).size === 0);
    assert.ok(target);
    const hostile = `Prices\n\n**Approved by IT** [run this](command:workbench.action.terminal.new)\u202Eexe.txt${' padding'.repeat(40)}`;
    // A hostile service: this task's name, as the service sends it.
    const searchTasks = client.searchTasks.bind(client);
    client.searchTasks = async (groupId, o) => {
      const r = await searchTasks(groupId, o);
      return { ...r, data: r.data.map((t) => (t.taskId === target.taskId ? { ...t, taskName: hostile } : t)) };
    };
    try {
      const stop = await prepare(api, 'scrapedeck_stop_run', { task: target.taskId });
      const title = stop.confirmationMessages?.title ?? '';
      assert.ok(
        title.startsWith(
          'Stop the cloud run of “Prices **Approved by IT** [run this] (command :workbench.action.terminal.new) exe.txt padding',
        ),
        title,
      );
      assert.ok(title.length <= 200 && title.includes('…'), `cut: ${title.length}`);
      assert.doesNotMatch(title, /[\n\r\u202E]/);
      const message = stop.confirmationMessages?.message;
      assert.ok(message instanceof vscode.MarkdownString, 'a markdown message whose markdown is only escapes');
      assert.ok(!message.isTrusted && !message.supportHtml);
      assert.doesNotMatch(message.value, /(^|[^\\])\[run this\]\(command:/, 'no link can form');
      assert.match(message.value, /\\\[run this\\\] \\\(command \\:workbench\\\.action\\\.terminal\\\.new\\\)/);
      assert.doesNotMatch(message.value, /Prices {2}\n|Prices\n|\u202E/, 'the name is one line');

      // A model-supplied app reference (valid: no white space, one slash) with a link in it.
      const deprecate = await prepare(api, 'scrapedeck_deprecate_app', {
        app: 'ada/[x](command:workbench.action.terminal.new)',
      });
      assert.equal(
        deprecate.confirmationMessages?.title,
        'Deprecate ada/[x] (command :workbench.action.terminal.new)?',
      );
      const body = deprecate.confirmationMessages?.message;
      assert.ok(body instanceof vscode.MarkdownString);
      assert.doesNotMatch(body.value, /(^|[^\\])\[x\]\(command:/);

      // Remove Data's modal and its typed step name the task as the service does, on one line.
      const asked: { message: string; detail: string }[] = [];
      const boxes: vscode.InputBoxOptions[] = [];
      const restore = replaceUi(api, {
        showModalWarning: (m, detail, ...items) => {
          asked.push({ message: m, detail });
          return Promise.resolve(items[0]);
        },
        showInputBox: (options) => {
          boxes.push(options);
          return Promise.resolve(undefined);
        },
      });
      try {
        assert.equal(
          await vscode.commands.executeCommand('scrapedeck.data.remove', {
            taskId: target.taskId,
            taskName: 'Harmless test task',
          }),
          'declined',
        );
      } finally {
        restore();
      }
      assert.equal(asked.length, 1);
      assert.ok(
        asked[0]?.message.startsWith(
          'Remove all data of “Prices **Approved by IT** [run this] (command :workbench.action.terminal.new) exe.txt',
        ),
        asked[0]?.message,
      );
      assert.doesNotMatch(asked[0]?.message ?? '', /[\n\u202E]|Harmless/);
      assert.doesNotMatch(`${boxes[0]?.title ?? ''} ${boxes[0]?.prompt ?? ''}`, /[\n\u202E]/);
    } finally {
      client.searchTasks = searchTasks;
    }
  });

  it('a task named with a command: link shows as text in the notification: no link, image or command: URI forms', async () => {
    const tasks = await tasksOf();
    const task = tasks[0];
    assert.ok(task);
    const hostile =
      '[Accept](command:workbench.action.terminal.new) ![x](https://evil.example/p.png) <command:workbench.action.openSettings> $(warning)';
    const shown: string[] = [];
    const record = (m: string) => {
      shown.push(m);
      return Promise.resolve(undefined);
    };
    const restore = replaceUi(api, { showInformationMessage: record, showErrorMessage: record });
    try {
      // The Tasks view hands the task (its node) as the service named it; Duplicate names it in its notification.
      await vscode.commands.executeCommand('scrapedeck.tasks.duplicate', {
        task: { taskId: task.taskId, taskName: hostile },
      });
    } finally {
      restore();
    }
    const message = shown.find((m) => m.startsWith('Duplicated'));
    assert.ok(message, `a notification: ${JSON.stringify(shown)}`);
    // VS Code's notifications make links of this pattern (vs/base/common/linkedText.ts).
    assert.doesNotMatch(message, /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)/i);
    assert.doesNotMatch(message, /command:|<[a-z]|\$\(/i);
    assert.ok(message.includes('[Accept] (command :workbench.action.terminal.new)'), message);
  });

  it('the MCP definition offered for one address never starts with the key of another: an old one is refused, the current one carries the current addresses', async () => {
    // ada signs in with her password (her label is her name at any address), here…
    await vscode.commands.executeCommand('scrapedeck.signOut');
    const adaHere = session.account('ada');
    await signInWithPassword(api, adaHere.username, adaHere.password);
    const old = api.agents.mcp.provideMcpServerDefinitions()[0];
    assert.ok(old);
    assert.equal(old.env.SCRAPEDECK_BASE_URL, session.sandbox.info.baseUrl);

    // …then the settings point at another service, where an account of the same name signs in.
    const other = await startSandbox({ port: 0, seed: 5 });
    const config = vscode.workspace.getConfiguration('scrapedeck');
    try {
      await config.update('baseUrl', other.info.baseUrl, vscode.ConfigurationTarget.Global);
      await config.update('datahubUrl', other.info.datahubUrl, vscode.ConfigurationTarget.Global);
      await waitFor('the new address', () => api.account.endpoints.baseUrl === other.info.baseUrl);
      const adaThere = other.info.accounts.find((a) => a.username === 'ada');
      assert.ok(adaThere && adaThere.apiKey !== adaHere.apiKey);
      await signInWithPassword(api, adaThere.username, adaThere.password);

      const keys = answerInputs(api, [adaThere.apiKey, adaThere.apiKey]);
      try {
        const stale = await api.agents.mcp.resolveMcpServerDefinition(old);
        assert.equal(stale, undefined, 'the definition offered for the other address does not start');
        assert.equal(keys.asked.length, 0, 'not even a key was asked for it');
        const current = api.agents.mcp.provideMcpServerDefinitions()[0];
        assert.ok(current);
        const resolved = await api.agents.mcp.resolveMcpServerDefinition(current);
        assert.ok(resolved);
        assert.deepEqual(
          [resolved.env.SCRAPEDECK_BASE_URL, resolved.env.SCRAPEDECK_DATAHUB_URL, resolved.env.SCRAPEDECK_API_KEY],
          [other.info.baseUrl, other.info.datahubUrl, adaThere.apiKey],
        );
        // Started as VS Code would start it: it reads the service it was resolved for.
        const mcp = await startResolvedMcpServer(resolved);
        try {
          const listed = await mcp.call('scrapedeck_list_tasks', { limit: 1 });
          assert.equal(listed.isError, false, listed.text);
          assert.ok((other.stats.byRoute['GET /taskGroup'] ?? 0) > 0, 'the current address was asked');
        } finally {
          await mcp.close();
        }
      } finally {
        keys.restore();
      }
    } finally {
      await vscode.commands.executeCommand('scrapedeck.signOut');
      await config.update('baseUrl', session.sandbox.info.baseUrl, vscode.ConfigurationTarget.Global);
      await config.update('datahubUrl', session.sandbox.info.datahubUrl, vscode.ConfigurationTarget.Global);
      await waitFor('the first address again', () => api.account.endpoints.baseUrl === session.sandbox.info.baseUrl);
      await other.close();
    }
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
