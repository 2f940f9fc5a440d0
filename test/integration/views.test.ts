/**
 * The Tasks view inside a real VS Code against a sandbox started here: signed out it is empty
 * (the welcome shows), signed in it lists the seeded groups and tasks, pages the big group,
 * filters, copies ids, opens analytics, explains a plan refusal, and keeps its rows when the
 * service goes away. Only input-box answers are replaced.
 */
import * as assert from 'node:assert/strict';

import * as vscode from 'vscode';

import type { ScrapedeckTestApi } from '../../src/extension';
import { RUN_ICONS } from '../../src/runs/runKinds';
import {
  answerInputs,
  getApi,
  labelOf,
  pointAtSandbox,
  recordMessages,
  type SandboxSession,
  signInWithApiKey,
  tooltipText,
  waitFor,
} from './viewsHarness';

const SEEDED_GROUPS = [
  'Price monitoring',
  'Lead generation',
  'News & media',
  'Product catalog',
  'Social listening',
  'Drafts',
];

describe('Tasks view (real VS Code, sandbox)', () => {
  let api: ScrapedeckTestApi;
  let session: SandboxSession;
  let sandboxClosed = false;
  const roots = async () => api.views.tasks.getChildren();
  /** The rows the listing draws: the root without health's own rows (Needs attention shows once health has found something). */
  const listed = async () =>
    (await roots()).filter((n) => n.contextValue !== 'healthAttention' && n.contextValue !== 'healthUnavailable');
  const groupNode = async (name: string) => {
    const node = (await roots()).find((n) => labelOf(n) === name);
    assert.ok(node, `group ${name} shown`);
    return node;
  };

  before(async () => {
    api = await getApi();
    session = await pointAtSandbox(api);
    if (api.account.account !== undefined) await vscode.commands.executeCommand('scrapedeck.signOut');
  });

  after(async () => {
    await vscode.commands.executeCommand('scrapedeck.tasks.clearFilter');
    if (sandboxClosed) {
      // dispose() closes the sandbox; a closed one only needs the rest undone.
      session.sandbox.close = () => Promise.resolve();
    }
    await session.dispose();
  });

  it('signed out, it has no rows, so the sign-in welcome shows', async () => {
    assert.equal(api.account.account, undefined);
    assert.deepEqual(await roots(), []);
  });

  it('after signing in with an API key, it lists the seeded task groups', async () => {
    await signInWithApiKey(api, session.account('ada').apiKey);
    const groups = await roots();
    assert.deepEqual(groups.map(labelOf), SEEDED_GROUPS);
    for (const g of groups) {
      assert.equal(g.contextValue, 'taskGroup');
      assert.equal(g.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
      assert.ok(g.iconPath instanceof vscode.ThemeIcon);
      assert.equal(g.iconPath.id, 'folder-library', 'a group of tasks');
      assert.equal(g.iconPath.color, undefined, 'no colour: room for health colours');
    }
  });

  const SEEDED_COUNTS = ['14 tasks', '9 tasks', '22 tasks', '160 tasks', '6 tasks', '0 tasks'];
  /** Each group row's count, the first part of its description (health may add its own). */
  const countsShown = (groups: readonly vscode.TreeItem[]): string[] =>
    groups.map((g) => String(g.description ?? '').split(' · ')[0] ?? '');

  it('every group shows its task count without being opened (the group listing carries none: each group is listed in the background)', async () => {
    // The view is told each row's count as it arrives (VS Code then draws it again); read the rows anew.
    await waitFor("every group's count", async () => countsShown(await listed()).every((c) => /^\d+ tasks?$/.test(c)));
    assert.deepEqual(countsShown(await listed()), SEEDED_COUNTS);
  });

  it('after an extension-host restart (nothing listed yet) the counts come back without opening a group or a task-health refresh', async () => {
    await waitFor('task health to settle', () => !api.health.controller.refreshing, 90_000);
    const refreshes = api.health.controller.stats.refreshes;
    api.views.tasks.reset(); // what a new extension host starts from: no task listed
    await waitFor("every group's count", async () => countsShown(await listed()).every((c) => /^\d+ tasks?$/.test(c)));
    assert.deepEqual(countsShown(await listed()), SEEDED_COUNTS);
    assert.equal(
      api.health.controller.stats.refreshes,
      refreshes,
      "the counts are the tree's own, not a health refresh's",
    );
  });

  it('a group expands to its tasks, each with a task icon and a tooltip naming id and group', async () => {
    const price = await groupNode('Price monitoring');
    const tasks = await api.views.tasks.getChildren(price);
    assert.equal(tasks.length, 14);
    assert.match(String(price.description), /^14 tasks( · |$)/, "its count (then health's part, once health has run)");
    const first = tasks[0];
    assert.ok(first);
    assert.match(first.contextValue ?? '', /^task\b/);
    assert.ok(first.iconPath instanceof vscode.ThemeIcon);
    // A web-extraction task's globe until its run state arrives (the expanded group asked for it);
    // from then on that state's icon, with its words in the description.
    const icon = first.iconPath.id;
    const runIcon = Object.values(RUN_ICONS).some((i) => i.id === icon);
    assert.ok(
      icon === 'globe' || (runIcon && first.description !== undefined),
      `a web-extraction task (globe) or its run state, not ${icon} (${String(first.description)})`,
    );
    const task = (first as unknown as { task: { taskId: string; taskName: string } }).task;
    const tip = tooltipText(first);
    assert.ok(tip.includes(task.taskId), tip);
    assert.ok(tip.includes('Price monitoring'), tip);
  });

  it('a click on a task only selects it (several can be picked); Enter on the selected task opens its analytics (issue 48 item 11)', async () => {
    const [task] = await api.views.tasks.getChildren(await groupNode('Lead generation'));
    assert.ok(task);
    assert.equal(task.command, undefined, 'a click runs no command: it selects the row');
    const enter = (
      vscode.extensions.getExtension('scrapedeck.scrapedeck')?.packageJSON as {
        contributes: { keybindings: { key: string; command: string; when: string }[] };
      }
    ).contributes.keybindings.find((k) => k.key === 'enter');
    assert.equal(enter?.command, 'scrapedeck.tasks.openSelected');
    assert.match(enter?.when ?? '', /focusedView == scrapedeck\.tasks/);
    const t = (task as unknown as { task: { taskId: string } }).task;
    const panelsBefore = api.analytics.panels().length;
    // The workbench tells the extension host of a selection in a message of its own, after
    // reveal() has resolved. With every tier running, one reveal was followed by no selection in
    // 30 s, and another threw "Cannot resolve tree item": the tree had been drawn again in between
    // (a run's state, health), and reveal() knows only the nodes of the latest drawing. So the
    // reveal, which stands in for the user's click, is made again with the task's current node, at
    // most three times; what the test judges comes after it.
    const selected = (): (string | undefined)[] => api.tasksView.selection.map((n) => (n as vscode.TreeItem).id);
    for (let attempt = 1; ; attempt++) {
      try {
        const current = (await api.views.tasks.getChildren(await groupNode('Lead generation'))).find(
          (n) => n.id === task.id,
        );
        assert.ok(current, 'the task is still in its group');
        await api.tasksView.reveal(current, { select: true, focus: true });
        await waitFor('the revealed task as the selection', () => selected().includes(task.id), 10_000);
        break;
      } catch (err) {
        if (attempt === 3) throw err;
      }
    }
    assert.deepEqual(selected(), [task.id]);
    assert.equal(api.analytics.panels().length, panelsBefore, 'selecting opened nothing');
    await vscode.commands.executeCommand('scrapedeck.tasks.openSelected');
    assert.deepEqual(api.analytics.panels().at(-1)?.preset?.taskIds, [t.taskId]);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('an empty group says so instead of showing nothing', async () => {
    const rows = await api.views.tasks.getChildren(await groupNode('Drafts'));
    assert.deepEqual(rows.map(labelOf), ['No tasks in this group']);
  });

  it('the big group pages 50 at a time with "Load more…"', async () => {
    const big = await groupNode('Product catalog');
    let rows = await api.views.tasks.getChildren(big);
    assert.equal(rows.length, 51);
    let more = rows[50];
    assert.ok(more);
    assert.equal(labelOf(more), 'Load more… (50 of 160)');
    assert.equal(more.command?.command, 'scrapedeck.tasks.loadMore');
    for (const expected of ['Load more… (100 of 160)', 'Load more… (150 of 160)']) {
      await vscode.commands.executeCommand('scrapedeck.tasks.loadMore', ...(more.command?.arguments ?? []));
      rows = await api.views.tasks.getChildren(big);
      more = rows[rows.length - 1];
      assert.ok(more);
      assert.equal(labelOf(more), expected);
    }
    await vscode.commands.executeCommand('scrapedeck.tasks.loadMore', ...(more.command?.arguments ?? []));
    rows = await api.views.tasks.getChildren(big);
    assert.equal(rows.length, 160);
    assert.ok(rows.every((r) => /^task\b/.test(r.contextValue ?? '')));
  });

  it('filters groups and tasks by name, case-insensitively, and clears', async () => {
    const { asked, restore } = answerInputs(api, ['CATEGORY 15']);
    try {
      await vscode.commands.executeCommand('scrapedeck.tasks.filter');
    } finally {
      restore();
    }
    assert.equal(asked[0]?.value, '', 'the box starts with the current filter');
    const groups = await listed();
    assert.deepEqual(groups.map(labelOf), ['Product catalog']);
    assert.equal(groups[0]?.description, '10 of 160 match');
    const tasks = await api.views.tasks.getChildren(groups[0]);
    assert.deepEqual(
      tasks.map(labelOf),
      Array.from({ length: 10 }, (_, i) => `Catalog — category 15${i}`),
    );

    const none = answerInputs(api, ['no such thing']);
    try {
      await vscode.commands.executeCommand('scrapedeck.tasks.filter');
    } finally {
      none.restore();
    }
    assert.equal(none.asked[0]?.value, 'CATEGORY 15');
    assert.deepEqual((await listed()).map(labelOf), ['No task or group name contains “no such thing”']);

    await vscode.commands.executeCommand('scrapedeck.tasks.clearFilter');
    assert.deepEqual((await listed()).map(labelOf), SEEDED_GROUPS);
  });

  it('copies a task id to the clipboard', async () => {
    const [task] = await api.views.tasks.getChildren(await groupNode('Lead generation'));
    assert.ok(task);
    const id = (task as unknown as { task: { taskId: string } }).task.taskId;
    await vscode.commands.executeCommand('scrapedeck.tasks.copyId', task);
    assert.equal(await vscode.env.clipboard.readText(), id);
  });

  it('opens analytics for a task, and for a big group with the first 100 ids and a note', async () => {
    const [task] = await api.views.tasks.getChildren(await groupNode('Social listening'));
    assert.ok(task);
    const t = (task as unknown as { task: { taskId: string; taskName: string } }).task;
    await vscode.commands.executeCommand('scrapedeck.analytics.openForTask', task);
    const panel = api.analytics.panels().at(-1);
    assert.deepEqual(panel?.preset?.taskIds, [t.taskId]);

    const { messages, stop } = recordMessages(api);
    try {
      await vscode.commands.executeCommand('scrapedeck.analytics.openForGroup', await groupNode('Product catalog'));
    } finally {
      stop();
    }
    const groupPanel = api.analytics.panels().at(-1);
    assert.equal(groupPanel?.preset?.taskIds?.length, 100);
    assert.ok(
      messages.some((m) => /160 tasks.*at most 100/.test(m.text)),
      JSON.stringify(messages),
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('a Free plan gets one plain statement in the welcome area, not a row, an error and a warning', async () => {
    // Health's look at ada's tasks may still be on its way on a loaded machine; its notice is another fact, said before this window.
    await waitFor('health done with the account signed in before', () => !api.health.controller.refreshing, 90_000);
    const { messages, stop } = recordMessages(api);
    try {
      await vscode.commands.executeCommand('scrapedeck.signOut');
      await signInWithApiKey(api, session.account('fiona').apiKey);
      assert.deepEqual(await roots(), [], 'no rows, so the welcome area shows');
      assert.equal(api.views.tasks.planLimited, true, 'the context key behind the plan welcome is set');
      await vscode.commands.executeCommand('scrapedeck.tasks.refresh');
      assert.deepEqual(await roots(), []);
    } finally {
      stop();
    }
    assert.deepEqual(
      messages.map((m) => `${m.level}: ${m.text}`),
      [
        'info: Signed out of Scrapedeck (API key …' + session.account('ada').apiKey.slice(-4) + ').',
        `info: Signed in to Scrapedeck with API key …${session.account('fiona').apiKey.slice(-4)}.`,
      ],
      'sign-out and sign-in are said; the plan only in the welcome area',
    );
  });

  it('signing out empties the tree; another account starts fresh', async () => {
    await vscode.commands.executeCommand('scrapedeck.signOut');
    assert.deepEqual(await roots(), []);
    assert.equal(api.views.tasks.planLimited, false, 'the plan statement went with the account');
    await signInWithApiKey(api, session.account('grace').apiKey);
    assert.deepEqual((await listed()).map(labelOf), ['Reviews', 'Job boards', 'Real estate']);
  });

  it('when the service goes away, a refresh keeps the last good rows and reports', async function () {
    this.timeout(120_000);
    const before = (await listed()).map(labelOf);
    await api.views.tasks.getChildren((await listed())[0]);
    await session.sandbox.close();
    sandboxClosed = true;
    const { messages, stop } = recordMessages(api);
    try {
      await vscode.commands.executeCommand('scrapedeck.tasks.refresh');
      assert.deepEqual((await roots()).map(labelOf), before);
      await waitFor('the error message', () => messages.some((m) => m.level === 'error'), 90_000);
    } finally {
      stop();
    }
    assert.ok(messages.find((m) => m.level === 'error')?.buttons.includes('Show Log'));
  });
});
