/**
 * The account boundary of the analytics panel in a real VS Code (issue 16 item 1): linus (the
 * sandbox's heavy account) fetches every row of all tasks, signs out, fiona signs in; nothing of
 * linus can then be seen, exported or restored — the open panel, a fresh `init`, and a panel the
 * serializer restores (what a window reload does) from the state linus's page had saved.
 */
import * as assert from 'node:assert/strict';

import * as vscode from 'vscode';

import { accountKey } from '../../src/account/accountSession';
import type { AnalyticsPanel } from '../../src/analytics/host/panel';
import { ANALYTICS_VIEW_TYPE } from '../../src/analytics/host/panel';
import type { HostMessage, PageState } from '../../src/analytics/protocol';
import type { AnalyticsRecord } from '../../src/api/schemas/schemas';
import type { ScrapedeckTestApi } from '../../src/extension';
import { ask, lastWeekQuery } from './panelHarness';
import { getApi, pointAtSandbox, type SandboxSession, signInWithApiKey, waitFor } from './viewsHarness';

/** The `init` (and `signedIn`) a page gets when it loads now. */
async function initOf(panel: AnalyticsPanel): Promise<HostMessage[]> {
  const seen: HostMessage[] = [];
  const sub = panel.onDidPost((m) => seen.push(m));
  try {
    await panel.handleMessage({ type: 'ready' });
  } finally {
    sub.dispose();
  }
  return seen;
}

describe('Analytics across an account boundary (real VS Code, sandbox)', function () {
  this.timeout(120_000);
  let api: ScrapedeckTestApi;
  let session: SandboxSession;
  let panel: AnalyticsPanel;
  let linusRecords: AnalyticsRecord[] = [];
  let linusResultId = '';
  let linusState: PageState;

  before(async () => {
    api = await getApi();
    session = await pointAtSandbox(api);
    if (api.account.account !== undefined) await vscode.commands.executeCommand('scrapedeck.signOut');
  });

  after(async () => {
    for (const p of api?.analytics.panels() ?? []) p.dispose();
    await session?.dispose();
  });

  /** Every value of linus's rows that must not show up under fiona (names, ids, request ids). */
  const linusMarks = (): string[] => [
    ...new Set(linusRecords.flatMap((r) => [r.taskId, r.taskName ?? ''].filter((v) => v.length > 3))),
  ];

  it('linus opens analytics for all tasks and fetches every row', async () => {
    await signInWithApiKey(api, session.account('linus').apiKey);
    const opened = await vscode.commands.executeCommand<AnalyticsPanel | undefined>('scrapedeck.analytics.open');
    assert.ok(opened);
    panel = opened;
    await panel.pageReady;
    const query = lastWeekQuery();
    const replies = await ask(panel, { type: 'fetchAll', id: 'linus-all', query, scope: 'all' });
    const whole = replies[replies.length - 1];
    assert.ok(whole?.type === 'fetchAllResult', JSON.stringify(whole).slice(0, 300));
    assert.ok(whole.records.length > 100, `linus has many rows (${whole.records.length})`);
    linusRecords = whole.records;
    linusResultId = whole.resultId;
    const key = accountKey(api.account.account ?? assert.fail('signed in'));
    // What linus's page saved (VS Code keeps it for the serializer).
    linusState = {
      version: 2,
      account: key,
      preset: { taskIds: [linusRecords[0]?.taskId ?? 'x'], label: linusRecords[0]?.taskName ?? 'x' },
      result: {
        query,
        total: whole.total,
        records: linusRecords.slice(0, 500),
        requestIds: whole.requestIds.slice(0, 10),
        fetchedAt: new Date().toISOString(),
        resultId: linusResultId,
      },
    };
  });

  it("sign-out, then fiona: the open panel drops linus's results (no export), preset and state, and says so", async () => {
    const posted: HostMessage[] = [];
    const sub = panel.onDidPost((m) => posted.push(m));
    await vscode.commands.executeCommand('scrapedeck.signOut');
    await waitFor('the panel to hear of the sign-out', () => posted.some((m) => m.type === 'signedIn' && !m.signedIn));
    const out = posted.find((m) => m.type === 'signedIn');
    assert.ok(out?.type === 'signedIn' && out.cleared === true && out.account === undefined, JSON.stringify(out));

    await signInWithApiKey(api, session.account('fiona').apiKey);
    await waitFor('the panel to hear of fiona', () => posted.some((m) => m.type === 'signedIn' && m.signedIn));
    sub.dispose();
    const fionaKey = accountKey(api.account.account ?? assert.fail('signed in'));
    assert.notEqual(fionaKey, linusState.account);

    // Linus's held result can no longer be exported.
    const exported = await ask(panel, { type: 'export', id: 'fiona-export', format: 'csv', resultId: linusResultId });
    const reply = exported[exported.length - 1];
    assert.ok(reply?.type === 'error' && reply.error.kind === 'not-found', JSON.stringify(reply));

    // A page loading now gets fiona's tag and nothing of linus.
    const init = (await initOf(panel)).find((m) => m.type === 'init');
    assert.ok(init?.type === 'init');
    assert.equal(init.account, fionaKey);
    assert.equal(init.preset, undefined);
    assert.equal(init.state?.result, undefined);
    const text = JSON.stringify(init);
    for (const mark of linusMarks()) assert.ok(!text.includes(mark), `"${mark}" in init`);
    assert.equal(panel.preset, undefined);
  });

  it("a window reload under fiona restores none of linus's saved state", async () => {
    const webviewPanel = vscode.window.createWebviewPanel(
      ANALYTICS_VIEW_TYPE,
      'Task Analytics',
      vscode.ViewColumn.Active,
      {},
    );
    const restored = await api.analytics.restore(webviewPanel, linusState);
    assert.equal(restored.preset, undefined, 'no preset of linus');
    const init = (await initOf(restored)).find((m) => m.type === 'init');
    assert.ok(init?.type === 'init');
    assert.equal(init.state?.result, undefined, 'no result of linus');
    assert.equal(init.state?.preset, undefined);
    assert.equal(init.cleared, true, 'the page is told why it is empty');
    const text = JSON.stringify(init);
    for (const mark of linusMarks()) assert.ok(!text.includes(mark), `"${mark}" in the restored init`);
    // And the real page loads with it (its script ran under the CSP).
    await restored.pageReady;
  });

  it('signed out, a reload restores none of it either', async () => {
    await vscode.commands.executeCommand('scrapedeck.signOut');
    await waitFor('signed out', () => api.account.account === undefined);
    const webviewPanel = vscode.window.createWebviewPanel(
      ANALYTICS_VIEW_TYPE,
      'Task Analytics',
      vscode.ViewColumn.Active,
      {},
    );
    const restored = await api.analytics.restore(webviewPanel, linusState);
    const init = (await initOf(restored)).find((m) => m.type === 'init');
    assert.ok(init?.type === 'init');
    assert.equal(init.account, undefined);
    assert.equal(init.state?.result, undefined);
    assert.equal(restored.preset, undefined);
  });
});
