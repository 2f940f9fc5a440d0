/**
 * Analytics task chips in a real VS Code against a sandbox started here (issue 21 item 1): "Open
 * Analytics" on a group gives the page its tasks' names from the Tasks view's cache, the real page
 * labels its chips (and so its tab) with them, and another account's cache names none of them.
 */
import * as assert from 'node:assert/strict';

import * as vscode from 'vscode';

import type { AnalyticsPanel } from '../../src/analytics/host/panel';
import type { HostMessage } from '../../src/analytics/protocol';
import type { ScrapedeckTestApi } from '../../src/extension';
import { getApi, labelOf, pointAtSandbox, type SandboxSession, signInWithApiKey, waitFor } from './viewsHarness';

/** linus's group of 60 tasks: the case. */
const GROUP = 'Marketplace crawl';

/** The label of the editor tab showing `panel` (its title, which the page sets from what it shows). */
function tabLabels(): string[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputWebview)
    .map((t) => t.label);
}

describe("Analytics task chips: the analytics page names a group's tasks from the tree (real VS Code, sandbox)", function () {
  this.timeout(60_000);
  let api: ScrapedeckTestApi;
  let session: SandboxSession;
  let panel: AnalyticsPanel;
  let tasks: { taskId: string; taskName: string }[];

  before(async () => {
    api = await getApi();
    session = await pointAtSandbox(api);
    if (api.account.account !== undefined) await vscode.commands.executeCommand('scrapedeck.signOut');
    await signInWithApiKey(api, session.account('linus').apiKey);
  });

  after(async () => {
    for (const p of api?.analytics.panels() ?? []) p.dispose();
    await session?.dispose();
  });

  it('Open Analytics on a group: init names every task of the group, and the page shows the names', async () => {
    const group = (await api.views.tasks.getChildren()).find((n) => labelOf(n) === GROUP);
    assert.ok(group, `group ${GROUP} shown`);
    const before = new Set(api.analytics.panels());
    await vscode.commands.executeCommand('scrapedeck.analytics.openForGroup', group);
    const opened = api.analytics.panels().find((p) => !before.has(p));
    assert.ok(opened, 'a panel opened for the group');
    panel = opened;

    const client = api.account.getClient();
    assert.ok(client);
    const groups = (await client.listTaskGroups()).data;
    const groupId = groups.find((g) => g.taskGroupName === GROUP)?.taskGroupId;
    assert.ok(groupId);
    tasks = (await client.searchTasks(groupId)).data.map((t) => ({ taskId: t.taskId, taskName: t.taskName }));
    assert.equal(tasks.length, 60, 'a group of 60 (chips collapse to "+55 more")');
    assert.deepEqual(
      panel.preset?.taskIds,
      tasks.map((t) => t.taskId),
    );

    // What the page is told on `ready` (the same path the page's own message takes).
    const posted: HostMessage[] = [];
    const sub = panel.onDidPost((m) => posted.push(m));
    await panel.handleMessage({ type: 'ready' });
    sub.dispose();
    const init = posted.find((m) => m.type === 'init');
    assert.ok(init?.type === 'init');
    assert.deepEqual(init.taskNames, tasks, 'every task named, in the group order, from the cache');

    // While the page shows exactly the group's tasks, its tab is named after the group (issue 32 item 9).
    const expected = `Analytics: ${GROUP}`;
    await waitFor(`the tab to read "${expected}"`, () => tabLabels().includes(expected), 20_000);
    assert.ok(!tabLabels().some((l) => l.includes(tasks[0]?.taskId ?? '?')), 'no task id in the tab');
  });

  it("another account's tree names none of the first account's tasks", async () => {
    const ids = tasks.map((t) => t.taskId);
    assert.equal(api.views.tasks.model.knownTaskNames(ids).size, tasks.length);
    await vscode.commands.executeCommand('scrapedeck.signOut');
    assert.equal(api.views.tasks.model.knownTaskNames(ids).size, 0, 'signed out: nothing named');
    await signInWithApiKey(api, session.account('grace').apiKey);
    await api.views.tasks.getChildren();
    assert.equal(api.views.tasks.model.knownTaskNames(ids).size, 0, 'account B: nothing of account A named');
  });
});
