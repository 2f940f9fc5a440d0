/**
 * The account boundary of the Data Apps view, in a real VS Code against a sandbox started here:
 * ada adds and deprecates an app and is told another app is not hers; after switching to grace,
 * grace's view lists none of ada's apps and none of what the hub told ada, also for an app both
 * see because the `scrapedeck.trackedApps` setting lists it. Switching back shows ada's again.
 */
import * as assert from 'node:assert/strict';

import * as vscode from 'vscode';

import type { ScrapedeckTestApi } from '../../src/extension';
import {
  answerInputs,
  getApi,
  pointAtSandbox,
  replaceUi,
  type SandboxSession,
  signInWithApiKey,
  tooltipText,
  waitFor,
} from './viewsHarness';

const SHARED = 'linus/catalog-sync';

describe('Data apps per account (real VS Code, sandbox)', function () {
  this.timeout(120_000);
  let api: ScrapedeckTestApi;
  let session: SandboxSession;

  const signInAs = async (username: string) => {
    if (api.account.account !== undefined) await vscode.commands.executeCommand('scrapedeck.signOut');
    await signInWithApiKey(api, session.account(username).apiKey);
  };
  const refs = () =>
    api.views.apps
      .tracked()
      .map((a) => a.ref)
      .sort();
  const deprecate = async (ref: string): Promise<string | undefined> => {
    const restore = replaceUi(api, { showModalWarning: (_m, _d, ...items) => Promise.resolve(items[0]) });
    const typed = answerInputs(api, [ref]);
    try {
      return await vscode.commands.executeCommand<string>('scrapedeck.apps.deprecate', ref);
    } finally {
      typed.restore();
      restore();
    }
  };
  /** The app's node as the view draws it (its tooltip: what the hub told this account). */
  const nodeOf = async (ref: string): Promise<vscode.TreeItem | undefined> => {
    for (const ns of await api.views.apps.getChildren()) {
      for (const node of await api.views.apps.getChildren(ns)) if ((node as { ref?: string }).ref === ref) return node;
    }
    return undefined;
  };

  before(async () => {
    api = await getApi();
    session = await pointAtSandbox(api);
    await vscode.workspace
      .getConfiguration('scrapedeck')
      .update('trackedApps', [SHARED], vscode.ConfigurationTarget.Global);
    await signInAs('ada');
  });

  after(async () => {
    await session.dispose();
  });

  it('what ada added and what the hub told her stays hers after Switch Account to grace; the setting’s app is shared, its outcome is not', async () => {
    const added = answerInputs(api, ['ada/price-tracker']);
    try {
      assert.equal(await vscode.commands.executeCommand('scrapedeck.apps.add'), 'ada/price-tracker');
    } finally {
      added.restore();
    }
    assert.equal(await deprecate('ada/price-tracker'), 'deprecated');
    assert.equal(await deprecate(SHARED), 'not-found', 'ada is not the author of linus’s app');
    assert.deepEqual(refs(), ['ada/price-tracker', SHARED]);
    const adaNode = await nodeOf('ada/price-tracker');
    assert.match(tooltipText(adaNode ?? new vscode.TreeItem('')), /Missing secrets: PROXY_TOKEN, SLACK_WEBHOOK/);
    assert.equal(api.views.apps.stateOf(SHARED).kind, 'unknown');

    await signInAs('grace');
    await waitFor('grace’s view', () => !refs().includes('ada/price-tracker'));
    assert.deepEqual(refs(), [SHARED], 'only the setting’s app');
    assert.equal(api.views.apps.stateOf('ada/price-tracker').kind, 'idle', 'nothing the hub told ada');
    assert.equal(api.views.apps.stateOf(SHARED).kind, 'idle', 'ada’s 404 is not grace’s');
    const shared = await nodeOf(SHARED);
    assert.ok(shared);
    assert.doesNotMatch(tooltipText(shared), /PROXY_TOKEN|SLACK_WEBHOOK|404|Deprecated on/);
    assert.match(String(shared.contextValue), /deprecatable/, 'grace may ask the hub herself');

    await signInAs('ada');
    await waitFor('ada’s view', () => refs().includes('ada/price-tracker'));
    assert.equal(api.views.apps.stateOf('ada/price-tracker').kind, 'deprecated');
    assert.equal(api.views.apps.stateOf(SHARED).kind, 'unknown');
  });
});
