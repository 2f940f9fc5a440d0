/**
 * Task health in a real VS Code against a sandbox started here. What the tree shows — the
 * decorations, the descriptions, the view's badge, "Needs attention" — is checked against what the
 * sandbox's data implies, computed here on its own from a raw Day analytics query (not with the
 * extension's model). Also: no request while the view is hidden, a Free plan shown as unavailable
 * once, the notification, new thresholds without a request, and nothing left after sign-out.
 */
import * as assert from 'node:assert/strict';

import * as vscode from 'vscode';

import type { ScrapedeckTestApi } from '../../src/extension';
import { type Expected, expectedHealth } from './healthExpected';
import {
  getApi,
  labelOf,
  pointAtSandbox,
  recordMessages,
  type SandboxSession,
  type ShownMessage,
  signInWithApiKey,
  tooltipText,
  waitFor,
} from './viewsHarness';

const ANALYTICS = 'POST /taskanalytics/queries';

describe('Task health (real VS Code, sandbox)', function () {
  this.timeout(180_000);
  let api: ScrapedeckTestApi;
  let session: SandboxSession;
  let expected: Expected;
  let messages: ShownMessage[] = [];
  let stopRecording: () => void = () => undefined;
  const analyticsRequests = (): number => session.sandbox.stats.byRoute[ANALYTICS] ?? 0;
  const roots = async () => api.views.tasks.getChildren();
  const hideView = async () => {
    await vscode.commands.executeCommand('workbench.view.explorer');
    await waitFor('the Tasks view to be hidden', () => !api.health.tasksViewVisible());
  };
  const showView = async () => {
    await vscode.commands.executeCommand('scrapedeck.tasks.focus');
    await waitFor('the Tasks view to be visible', () => api.health.tasksViewVisible());
  };

  before(async () => {
    api = await getApi();
    session = await pointAtSandbox(api);
    if (api.account.account !== undefined) await vscode.commands.executeCommand('scrapedeck.signOut');
    await hideView();
    ({ messages, stop: stopRecording } = recordMessages(api));
  });

  after(async () => {
    stopRecording();
    await vscode.workspace
      .getConfiguration('scrapedeck.health')
      .update('failureRateThreshold', undefined, vscode.ConfigurationTarget.Global);
    await hideView();
    await session.dispose();
  });

  it('while the Tasks view is hidden, signing in asks nothing of analytics', async () => {
    await signInWithApiKey(api, session.account('ada').apiKey);
    await waitFor('health to follow the account', () => api.health.controller.accountId !== undefined);
    assert.equal(api.health.tasksViewVisible(), false);
    assert.equal(api.health.controller.refreshing, false, 'no refresh started');
    assert.equal(analyticsRequests(), 0);
    assert.equal(api.health.board.snapshot, undefined);
    assert.equal(api.health.tasksViewBadge(), undefined);
  });

  it('when the view shows, health arrives; "Needs attention", the badge and the decorations equal what the data implies', async () => {
    expected = await expectedHealth(session.sandbox.info.baseUrl, session.account('ada').apiKey);
    assert.ok(
      expected.attention.size >= 6,
      `the sandbox seeds 6 tasks over the thresholds (${expected.attention.size})`,
    );
    const mine = analyticsRequests();
    await showView();
    await waitFor('health', () => api.health.board.snapshot !== undefined && !api.health.controller.refreshing, 60_000);
    assert.ok(analyticsRequests() > mine, 'health asked analytics once the view showed');

    const badge = api.health.tasksViewBadge();
    assert.equal(badge?.value, expected.attention.size);
    assert.match(badge?.tooltip ?? '', new RegExp(`${expected.attention.size} tasks need attention`));

    const [first] = await roots();
    assert.ok(first);
    assert.equal(labelOf(first), 'Needs attention');
    assert.equal(first.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
    const listed = await api.views.tasks.getChildren(first);
    const ids = listed.map((n) => (n as unknown as { task: { taskId: string } }).task.taskId);
    assert.deepEqual([...ids].sort(), [...expected.attention.keys()].sort());
    // Failing first, then slowing.
    const kinds = ids.map((id) => expected.attention.get(id));
    assert.deepEqual(
      kinds,
      [...kinds].sort((a, b) => (a === b ? 0 : a === 'failing' ? -1 : 1)),
    );

    for (const node of listed) {
      const id = (node as unknown as { task: { taskId: string } }).task.taskId;
      const figures = expected.tasks.get(id);
      assert.ok(figures && node.resourceUri);
      assert.match(node.contextValue ?? '', /^task\b/, 'the usual task menus (Open Analytics, Copy ID)');
      const deco = api.health.decorations.provideFileDecoration(node.resourceUri) as vscode.FileDecoration | undefined;
      const kind = expected.attention.get(id);
      assert.equal(deco?.badge, kind === 'failing' ? 'F' : 'S');
      assert.equal(
        (deco?.color as vscode.ThemeColor | undefined)?.id,
        kind === 'failing' ? 'testing.iconFailed' : 'charts.yellow',
      );
      // Why it needs attention leads the row (its run state may follow), short (issue 48 item 5).
      assert.ok(
        String(node.description).startsWith(figures.description),
        `${String(node.description)} starts with ${figures.description}`,
      );
      const tip = tooltipText(node);
      assert.ok(
        tip.includes(
          kind === 'failing'
            ? 'F beside the name: failing, more than 20% of its runs failed.'
            : 'S beside the name: slowing',
        ),
        `the letter is explained: ${tip}`,
      );
      assert.ok(tip.includes('Counted from analytics: runs in the cloud and on computers, in this window only.'), tip);
      assert.ok(tip.includes(`${expected.window.start} – ${expected.window.end}`), tip);
      assert.ok(tip.includes(`Failed: ${figures.failures} of ${figures.runs} runs`), tip);
    }
  });

  it('a row under "Needs attention" shows its run state (icon, words, run menus) as the same task does in its group', async () => {
    const [attention] = await roots();
    assert.ok(attention);
    const idOf = (n: vscode.TreeItem): string => (n as unknown as { task: { taskId: string } }).task.taskId;
    const iconOf = (n: vscode.TreeItem): string | undefined =>
      n.iconPath instanceof vscode.ThemeIcon ? n.iconPath.id : undefined;
    // Listing them asks their statuses (as an open group's rows are); when they arrive the rows are
    // drawn again as new items, so each try reads the rows anew.
    let listed = await api.views.tasks.getChildren(attention);
    await waitFor(
      'the run state of the rows under Needs attention',
      async () => {
        listed = await api.views.tasks.getChildren(attention);
        return listed.every((n) => api.runs.present(idOf(n)) !== undefined && iconOf(n) !== 'globe');
      },
      60_000,
    );
    for (const node of listed) {
      const run = api.runs.present(idOf(node));
      assert.ok(run);
      assert.equal(iconOf(node), run.icon.id, "the run state's icon, not the generic task icon");
      assert.ok(
        run.description === '' || String(node.description).includes(run.description),
        `${String(node.description)} holds ${run.description}`,
      );
      assert.match(node.contextValue ?? '', run.flags.includes('running') ? /\brunning\b/ : /\brunnable\b/);
    }
    // The same task in its group reads the same (each one listed on its group's first page).
    let compared = 0;
    for (const node of listed) {
      const groupName = (node as unknown as { group: { taskGroupName: string } }).group.taskGroupName;
      const group = (await roots()).find((n) => labelOf(n) === groupName);
      assert.ok(group, groupName);
      const rowOf = async () =>
        (await api.views.tasks.getChildren(group)).find(
          (n) => n.contextValue?.startsWith('task') && idOf(n) === idOf(node),
        );
      let inGroup = await rowOf();
      if (!inGroup) continue;
      await waitFor("the group row's run state", async () => {
        inGroup = await rowOf();
        return inGroup !== undefined && iconOf(inGroup) !== 'globe';
      });
      if (!inGroup) continue;
      assert.equal(iconOf(inGroup), iconOf(node));
      assert.equal(String(inGroup.description), String(node.description));
      compared++;
    }
    assert.ok(compared > 0, 'a task under Needs attention was compared with its row in its group');
  });

  it('each group shows the worst of its tasks, and a healthy task is left undecorated', async () => {
    const groups = (await roots()).slice(1);
    assert.ok(groups.length >= 5);
    for (const group of groups) {
      const id = (group as unknown as { group: { taskGroupId: string } }).group.taskGroupId;
      const worst = expected.groupWorst.get(id);
      const deco =
        group.resourceUri &&
        (api.health.decorations.provideFileDecoration(group.resourceUri) as vscode.FileDecoration | undefined);
      const letter = { failing: 'F', slowing: 'S', idle: '0', ok: undefined }[worst ?? 'ok'];
      assert.equal(deco?.badge, letter, `${labelOf(group)}: ${worst}`);
    }
    const price = groups.find((g) => labelOf(g) === 'Price monitoring');
    assert.ok(price);
    const tasks = await api.views.tasks.getChildren(price);
    const healthy = tasks.find(
      (n) => expected.tasks.get((n as unknown as { task: { taskId: string } }).task.taskId)?.level === 'ok',
    );
    assert.ok(healthy?.resourceUri);
    assert.equal(api.health.decorations.provideFileDecoration(healthy.resourceUri), undefined);
    const figures = expected.tasks.get((healthy as unknown as { task: { taskId: string } }).task.taskId);
    // After its run state, when that is known (the rows of a group on screen ask for it).
    const run = api.runs.present((healthy as unknown as { task: { taskId: string } }).task.taskId)?.description;
    assert.equal(figures?.description, '');
    assert.equal(
      healthy.description,
      run || undefined,
      'a healthy task says its run state only; its figures are in the tooltip',
    );
    assert.ok(
      tooltipText(healthy).includes('Counted from analytics: runs in the cloud and on computers, in this window only.'),
      tooltipText(healthy),
    );
  });

  it('told the user once, naming the tasks, with "Open Analytics"', async () => {
    const told = messages.filter((m) => /need(s)? attention/.test(m.text));
    assert.equal(told.length, 1, JSON.stringify(told));
    assert.equal(told[0]?.level, 'warning');
    assert.match(told[0]?.text ?? '', new RegExp(`^${expected.attention.size} tasks need attention: `));
    assert.deepEqual(told[0]?.buttons, ['Open Analytics']);
    assert.deepEqual(
      messages.filter((m) => m.level === 'error'),
      [],
      'no error per task',
    );
  });

  it('new thresholds judge again without a request', async () => {
    const before = analyticsRequests();
    await vscode.workspace
      .getConfiguration('scrapedeck.health')
      .update('failureRateThreshold', 0.9, vscode.ConfigurationTarget.Global);
    // Now only a failure rate above 90% or a slowdown counts.
    const over = [...expected.tasks].filter(([, f]) => f.slowing || (f.failureRate ?? 0) > 0.9).map(([id]) => id);
    await waitFor('the new threshold', () => api.health.board.attention().length === over.length);
    assert.deepEqual(
      api.health.board
        .attention()
        .map((i) => i.task.taskId)
        .sort(),
      over.sort(),
    );
    assert.equal(api.health.tasksViewBadge()?.value, over.length);
    assert.equal(analyticsRequests(), before);
    await vscode.workspace
      .getConfiguration('scrapedeck.health')
      .update('failureRateThreshold', undefined, vscode.ConfigurationTarget.Global);
    await waitFor('the default threshold', () => api.health.board.attention().length === expected.attention.size);
  });

  it('signing out leaves nothing of the account; a Free plan shows health unavailable once, asking no analytics', async () => {
    await vscode.commands.executeCommand('scrapedeck.signOut');
    assert.equal(api.health.board.snapshot, undefined);
    assert.equal(api.health.tasksViewBadge(), undefined);
    assert.deepEqual(await roots(), []);

    const before = analyticsRequests();
    messages.length = 0;
    await signInWithApiKey(api, session.account('fiona').apiKey);
    await waitFor('health unavailable', () => api.health.board.status.kind === 'unavailable', 60_000);
    // The Tasks view's welcome area states the plan once (task analytics included): no row, no badge.
    assert.deepEqual(await roots(), [], 'no rows (not one per task), so the plan welcome shows');
    assert.equal(api.views.tasks.planLimited, true);
    assert.equal(analyticsRequests(), before, 'its task list is refused already: analytics is not asked');
    assert.equal(api.health.tasksViewBadge(), undefined);
    await vscode.commands.executeCommand('scrapedeck.health.refresh');
    await waitFor(
      'health unavailable again',
      () => api.health.board.status.kind === 'unavailable' && !api.health.controller.refreshing,
      60_000,
    );
    assert.deepEqual(await roots(), []);
    assert.equal(
      messages.filter((m) => /health/i.test(m.text)).length <= 1,
      true,
      `health says it at most once, when asked: ${JSON.stringify(messages)}`,
    );
  });
});
