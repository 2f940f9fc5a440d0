/**
 * Switch Account, an API key's name, and the request ID on an input box, in a real VS Code against
 * a sandbox started here. Only quick-pick and input-box answers are replaced; the sandbox's stored
 * secrets are read back through the test seam.
 */
import * as assert from 'node:assert/strict';

import * as vscode from 'vscode';

import { AUTH_PROVIDER_ID } from '../../src/account/authProvider';
import { statusBarText } from '../../src/account/statusBar';
import type { ScrapedeckTestApi } from '../../src/extension';
import {
  answerInputs,
  answerPicks,
  getApi,
  KEEP_VALUE,
  pointAtSandbox,
  recordMessages,
  type SandboxSession,
  signInWithApiKey,
  waitFor,
} from './viewsHarness';

describe('Switch Account and account names (real VS Code, sandbox)', () => {
  let api: ScrapedeckTestApi;
  let session: SandboxSession;

  before(async () => {
    api = await getApi();
    session = await pointAtSandbox(api);
    if (api.account.account !== undefined) await vscode.commands.executeCommand('scrapedeck.signOut');
  });

  after(async () => {
    await session.dispose();
  });

  /** Runs Switch Account with these quick-pick and input-box answers. */
  const switchWith = async (pick: string | undefined, inputs: Parameters<typeof answerInputs>[1] = []) => {
    const picks = answerPicks(api, [pick]);
    const boxes = answerInputs(api, inputs);
    try {
      return await vscode.commands.executeCommand<boolean>('scrapedeck.switchAccount');
    } finally {
      boxes.restore();
      picks.restore();
    }
  };

  it('an API key can be given a name: status bar, account menu title and Accounts menu show it', async () => {
    await signInWithApiKey(api, session.account('ada').apiKey, 'Ada — production');
    assert.equal(api.account.account?.label, 'Ada — production');
    assert.equal(statusBarText(api.account.account, api.account.endpoints.baseUrl).text, '$(account) Ada — production');
    await waitFor(
      'the Accounts menu',
      async () => (await vscode.authentication.getAccounts(AUTH_PROVIDER_ID))[0]?.label === 'Ada — production',
    );
    const titles = answerPicks(api, [undefined]);
    try {
      await vscode.commands.executeCommand('scrapedeck.accountMenu');
    } finally {
      titles.restore();
    }
    assert.deepEqual(titles.asked, ['Scrapedeck: Ada — production']);
  });

  it('the name box refuses a name holding the key, and suggests "API key …abcd"', async () => {
    const key = session.account('grace').apiKey;
    const { asked, restore } = answerInputs(api, [key, undefined]);
    try {
      await vscode.commands.executeCommand('scrapedeck.signInWithApiKey');
    } finally {
      restore();
    }
    const nameBox = asked[1];
    assert.equal(nameBox?.value, `API key …${key.slice(-4)}`);
    assert.match(String(await nameBox?.validateInput?.(`key ${key}`)), /must not contain the API key/);
    assert.equal(api.account.account?.label, 'Ada — production', 'Escape at the name changed nothing');
  });

  it('Escape at the choice, at the key box, or after a refused key changes nothing', async () => {
    const before = await api.accountHooks.readStoredCredentials();
    assert.equal(await switchWith(undefined), false);
    assert.equal(await switchWith('Sign In with API Key', [undefined]), false);
    assert.equal(await switchWith('Sign In with API Key', ['op_wrong_key_000000000000', KEEP_VALUE, undefined]), false);
    assert.equal(await switchWith('Sign In with Username and Password', ['grace', undefined]), false);
    assert.equal(api.account.account?.label, 'Ada — production');
    assert.deepEqual(await api.accountHooks.readStoredCredentials(), before, 'the stored sign-in is untouched');
  });

  it('a new sign-in that succeeds replaces the old one: no signed-out moment, the old key gone', async () => {
    const seen: (string | undefined)[] = [];
    const listening = api.account.onDidChange((a) => seen.push(a?.label));
    const grace = session.account('grace');
    try {
      assert.equal(await switchWith('Sign In with Username and Password', [grace.username, grace.password]), true);
    } finally {
      listening.dispose();
    }
    assert.equal(api.account.account?.label, grace.username);
    assert.equal(api.account.account?.method, 'password');
    assert.ok(!seen.includes(undefined), `never signed out on the way: ${JSON.stringify(seen)}`);
    const stored = await api.accountHooks.readStoredCredentials();
    assert.equal(stored?.kind, 'session', "ada's key is no longer stored");
  });

  it('into the sandbox and out again: the old sign-in ends only once the new one is in', async () => {
    const { stop } = recordMessages(api);
    try {
      assert.equal(await switchWith('Try the Sandbox'), true);
      // Right after the previous test's password sign-in: the window is in the sandbox at once.
      assert.equal(
        api.account.account?.method,
        'sandbox',
        `the window's account: ${JSON.stringify(api.account.account)}`,
      );
      assert.equal(api.account.account?.label, session.account('ada').username);
      const linus = session.account('linus');
      assert.equal(await switchWith('Sign In with API Key', [linus.apiKey, 'Linus']), true);
    } finally {
      stop();
    }
    assert.equal(api.account.account?.label, 'Linus');
    assert.equal(api.account.account?.method, 'apiKey');
    assert.equal(api.account.usingSandboxOverride, false);
    assert.deepEqual(await api.accountHooks.readStoredCredentials(), {
      kind: 'apiKey',
      apiKey: session.account('linus').apiKey,
    });
  });

  it('an input box with a request ID: a real box that accepts a valid value and refuses an invalid one', async () => {
    const valid = api.ui.showInputBox({
      title: 'Request ID box',
      value: 'abc',
      requestId: 'req-42',
      validateInput: (v) => (v === 'abc' ? undefined : 'no'),
    });
    await new Promise((r) => setTimeout(r, 300));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.equal(await valid, 'abc');

    const invalid = api.ui.showInputBox({
      title: 'Request ID box',
      value: 'x',
      requestId: 'req-43',
      validateInput: () => 'not this',
    });
    await new Promise((r) => setTimeout(r, 300));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    // Had Enter been taken, the box would have answered 'x' before it was closed.
    assert.equal(await invalid, undefined, 'Enter is refused while the value is invalid');
  });
});
