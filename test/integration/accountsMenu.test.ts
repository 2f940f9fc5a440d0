/**
 * Scrapedeck in VS Code's Accounts menu: the provider is registered, its account is named as the
 * status bar names it and follows sign-in and sign-out, and nothing VS Code holds of it is a
 * secret. (Reading a session itself needs the user's consent, even for Scrapedeck, so the test
 * reads the accounts VS Code lists; accountSession.test.ts checks the session carries no token.)
 */
import * as assert from 'node:assert/strict';

import * as vscode from 'vscode';

import { AUTH_PROVIDER_ID } from '../../src/account/authProvider';
import type { ScrapedeckTestApi } from '../../src/extension';
import {
  getApi,
  pointAtSandbox,
  type SandboxSession,
  signInWithApiKey,
  signInWithPassword,
  waitFor,
} from './viewsHarness';

describe('Accounts menu (real VS Code, sandbox)', () => {
  let api: ScrapedeckTestApi;
  let session: SandboxSession;
  const events: vscode.AuthenticationSessionsChangeEvent[] = [];
  let listening: vscode.Disposable | undefined;

  before(async () => {
    api = await getApi();
    session = await pointAtSandbox(api);
    if (api.account.account !== undefined) await vscode.commands.executeCommand('scrapedeck.signOut');
    listening = vscode.authentication.onDidChangeSessions((e) => {
      if (e.provider.id === AUTH_PROVIDER_ID) events.push(e);
    });
  });

  after(async () => {
    listening?.dispose();
    await vscode.commands.executeCommand('scrapedeck.signOut');
    await session.dispose();
  });

  const current = async () => (await vscode.authentication.getAccounts(AUTH_PROVIDER_ID))[0];

  it('lists no account while signed out', async () => {
    assert.equal(await current(), undefined);
  });

  it('lists the password account by name, with no token, and follows a sign-out', async () => {
    const ada = session.account('ada');
    await signInWithPassword(api, ada.username, ada.password);
    await waitFor('the Accounts menu session', async () => (await current()) !== undefined);
    const signedIn = await current();
    assert.equal(signedIn?.label, ada.username);
    const stored = await api.accountHooks.readStoredCredentials();
    assert.equal(stored?.kind, 'session');
    if (stored?.kind === 'session') {
      assert.ok(!JSON.stringify(signedIn).includes(stored.session.accessToken));
      assert.ok(!JSON.stringify(signedIn).includes(stored.session.refreshToken));
    }

    await vscode.commands.executeCommand('scrapedeck.signOut');
    await waitFor('the session to go', async () => (await current()) === undefined);
    assert.ok(
      events.some((e) => e.provider.id === AUTH_PROVIDER_ID),
      'VS Code heard of the change',
    );
  });

  it("names an API-key account by its key's last characters only", async () => {
    const grace = session.account('grace');
    await signInWithApiKey(api, grace.apiKey);
    await waitFor('the Accounts menu session', async () => (await current()) !== undefined);
    const signedIn = await current();
    assert.match(signedIn?.label ?? '', /^API key ….{4}$/);
    assert.ok(!JSON.stringify(signedIn).includes(grace.apiKey), 'the key itself is not in what VS Code lists');
  });
});
