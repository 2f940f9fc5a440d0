/**
 * Sign-in and account inside a real VS Code against a sandbox started here: API key and password
 * sign-in (wrong then right), the hub key, sign-out clearing every secret, "Try the sandbox" both
 * ways, refused settings, the single "Sign In Again" notification, and, last, a log with no
 * secret in it. Only `ui` answers are replaced.
 */
import * as assert from 'node:assert/strict';

import * as vscode from 'vscode';

import { statusBarText } from '../../src/account/statusBar';
import type { ScrapedeckTestApi } from '../../src/extension';
import {
  answerInputs,
  getApi,
  KEEP_VALUE,
  pointAtSandbox,
  recordMessages,
  replaceUi,
  type SandboxSession,
  signInWithApiKey,
  waitFor,
  workspaceFolder,
} from './viewsHarness';

describe('Sign-in and account (real VS Code, sandbox)', () => {
  let api: ScrapedeckTestApi;
  let session: SandboxSession;
  /** Every secret the suite handled, checked against the log at the end. */
  const secrets = new Set<string>();

  before(async () => {
    api = await getApi();
    session = await pointAtSandbox(api);
    for (const a of session.sandbox.info.accounts) secrets.add(a.apiKey).add(a.password);
    if (api.account.account !== undefined) await vscode.commands.executeCommand('scrapedeck.signOut');
  });

  after(async () => {
    await session.dispose();
  });

  const remember = async () => {
    const stored = await api.accountHooks.readStoredCredentials();
    if (stored?.kind === 'session') secrets.add(stored.session.accessToken).add(stored.session.refreshToken);
    return stored;
  };

  it('starts signed out: no account, no client', () => {
    assert.equal(api.account.account, undefined);
    assert.equal(api.account.getClient(), undefined);
  });

  it('API key: a wrong key is refused with the reason and the box comes back with it, its request ID copyable; the right key signs in', async () => {
    const ada = session.account('ada');
    const wrong = 'op_wrong_key_000000000000';
    secrets.add(wrong);
    const { asked, restore } = answerInputs(api, [wrong, KEEP_VALUE, ada.apiKey, KEEP_VALUE]);
    try {
      await vscode.commands.executeCommand('scrapedeck.signInWithApiKey');
    } finally {
      restore();
    }
    assert.equal(asked.length, 4, 'key, name, key again, name again');
    assert.equal(asked[0]?.password, true, 'a password box');
    assert.equal(asked[0]?.requestId, undefined, 'no error yet, so nothing to copy');
    assert.equal(asked[1]?.value, `API key …${wrong.slice(-4)}`, 'the suggested name');
    const retry = asked[2];
    assert.ok(retry);
    assert.equal(retry.value, wrong, 'the rejected value is kept');
    assert.match(retry.prompt ?? '', /^That API key was not accepted\. .+\. Check the key and try again\.$/);
    assert.doesNotMatch(retry.prompt ?? '', /\.\./);
    assert.ok(retry.requestId, "the refusal's request ID is offered on the box");
    assert.ok(!(retry.prompt ?? '').includes(retry.requestId ?? '-'), 'as a button, not as text');
    assert.equal(await retry.validateInput?.('   '), 'Enter an API key.');

    const account = api.account.account;
    assert.ok(account);
    assert.equal(account.method, 'apiKey');
    assert.equal(account.label, `API key …${ada.apiKey.slice(-4)}`);
    assert.equal(account.baseUrl, session.sandbox.info.baseUrl);
    assert.equal(account.hasHubKey, true, 'the API key is the hub key');
    assert.ok(api.account.getClient());
    assert.deepEqual(await remember(), { kind: 'apiKey', apiKey: ada.apiKey });
    const groups = await api.account.getClient()?.listTaskGroups();
    assert.ok((groups?.data.length ?? 0) > 0, 'the stored key works');
  });

  it('sign-out clears every secret, and the client goes', async () => {
    const { messages, stop } = recordMessages(api);
    try {
      await vscode.commands.executeCommand('scrapedeck.signOut');
    } finally {
      stop();
    }
    assert.equal(api.account.account, undefined);
    assert.equal(api.account.getClient(), undefined);
    assert.equal(await api.accountHooks.readStoredCredentials(), undefined);
    assert.ok(messages.some((m) => /Signed out/.test(m.text)));
  });

  it('username and password: wrong credentials say so and keep the username; the right ones store only a session', async () => {
    const grace = session.account('grace');
    const { asked, restore } = answerInputs(api, [grace.username, 'not-her-password', grace.username, grace.password]);
    try {
      await vscode.commands.executeCommand('scrapedeck.signInWithPassword');
    } finally {
      restore();
    }
    assert.equal(asked.length, 4);
    assert.equal(asked[1]?.password, true);
    assert.equal(asked[2]?.value, grace.username, 'the username is kept');
    assert.match(
      asked[2]?.prompt ?? '',
      /^The username or password was not accepted\. .*username or password.*\. Check them and try again\.$/i,
    );
    assert.ok(asked[2]?.requestId, 'the request ID is offered on the box');

    const account = api.account.account;
    assert.ok(account);
    assert.equal(account.method, 'password');
    assert.equal(account.label, grace.username);
    assert.equal(account.hasHubKey, false);
    const stored = await remember();
    assert.equal(stored?.kind, 'session');
    assert.ok(!JSON.stringify(stored).includes(grace.password), 'the password is never stored');
  });

  it('hub key: set after a password sign-in, stored with the session, cleared by sign-out', async () => {
    const grace = session.account('grace');
    const { asked, restore } = answerInputs(api, [grace.apiKey]);
    try {
      await vscode.commands.executeCommand('scrapedeck.setHubApiKey');
    } finally {
      restore();
    }
    assert.equal(asked[0]?.title, 'Data-App Hub API Key');
    assert.equal(api.account.account?.hasHubKey, true);
    const stored = await remember();
    assert.equal(stored?.kind === 'session' ? stored.hubApiKey : undefined, grace.apiKey);

    await vscode.commands.executeCommand('scrapedeck.signOut');
    assert.equal(await api.accountHooks.readStoredCredentials(), undefined, 'session and hub key both gone');
  });

  it('a session that cannot be renewed brings one "Sign In Again" notification, however many calls fail', async () => {
    await api.accountHooks.store(
      {
        kind: 'session',
        session: {
          accessToken: 'dead-access-token',
          refreshToken: 'dead-refresh-token',
          tokenType: 'Bearer',
          expiresAt: 0,
        },
      },
      { label: 'grace', method: 'password', username: 'grace' },
    );
    secrets.add('dead-access-token').add('dead-refresh-token');
    let release: (v: string | undefined) => void = () => undefined;
    const shown: string[][] = [];
    const restore = replaceUi(api, {
      showWarningMessage: (_text, ...buttons) => {
        shown.push(buttons);
        return new Promise((resolve) => (release = resolve));
      },
    });
    try {
      const client = api.account.getClient();
      assert.ok(client);
      const failures = await Promise.allSettled([
        client.listTaskGroups(),
        client.listTaskGroups(),
        client.listTaskGroups(),
      ]);
      for (const f of failures) assert.equal(f.status, 'rejected');
      for (const f of failures) {
        if (f.status === 'rejected') void api.reporter.report(f.reason, 'loadGroups');
      }
      await waitFor('the notification', () => shown.length > 0);
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(shown, [['Sign In Again']]);
      release(undefined);
    } finally {
      restore();
    }
    await vscode.commands.executeCommand('scrapedeck.signOut');
  });

  it('a bad setting is refused with a message naming it, and the last good value stays', async () => {
    const config = vscode.workspace.getConfiguration('scrapedeck');
    const { messages, stop } = recordMessages(api);
    try {
      await config.update('requestsPerSecond', 50, vscode.ConfigurationTarget.Global);
      await waitFor('the warning', () => messages.some((m) => m.text.includes('scrapedeck.requestsPerSecond')));
      assert.equal(api.configuration.settings.requestsPerSecond, 20);
      await config.update('baseUrl', 'ftp://files.example.com', vscode.ConfigurationTarget.Global);
      await waitFor('the warning', () => messages.some((m) => m.text.includes('scrapedeck.baseUrl')));
      assert.equal(api.account.endpoints.baseUrl, session.sandbox.info.baseUrl, 'the last good address is kept');
      const warning = messages.find((m) => m.text.includes('scrapedeck.baseUrl'));
      assert.deepEqual(warning?.buttons, ['Open Settings']);
    } finally {
      stop();
      await config.update('requestsPerSecond', undefined, vscode.ConfigurationTarget.Global);
      await config.update('baseUrl', session.sandbox.info.baseUrl, vscode.ConfigurationTarget.Global);
    }
  });

  it('a workspace cannot choose where credentials go: its baseUrl, datahubUrl and proxy are ignored', async () => {
    const file = vscode.Uri.joinPath(workspaceFolder(), '.vscode', 'settings.json');
    const hostile = {
      'scrapedeck.baseUrl': 'https://collector.example',
      'scrapedeck.datahubUrl': 'https://collector.example/hub',
      'scrapedeck.proxy': 'http://collector.example:3128',
      'scrapedeck.requestsPerSecond': 7, // not about credentials: a workspace may set it
    };
    await vscode.workspace.fs.writeFile(file, Buffer.from(JSON.stringify(hostile)));
    try {
      const config = () => vscode.workspace.getConfiguration('scrapedeck');
      await waitFor('the workspace file to be read', () => config().get('requestsPerSecond') === 7);
      assert.equal(config().get('baseUrl'), session.sandbox.info.baseUrl);
      assert.equal(config().get('datahubUrl'), session.sandbox.info.datahubUrl);
      assert.equal(config().get('proxy'), '');
      assert.equal(api.account.endpoints.baseUrl, session.sandbox.info.baseUrl);
      assert.equal(api.account.endpoints.datahubUrl, session.sandbox.info.datahubUrl);
    } finally {
      await vscode.workspace.fs.delete(file);
      await waitFor(
        'the workspace value to go',
        () => vscode.workspace.getConfiguration('scrapedeck').get('requestsPerSecond') === 20,
      );
    }
  });

  it('"Try the sandbox" uses a configured sandbox and signs in with its first account', async () => {
    const { messages, stop } = recordMessages(api);
    try {
      await vscode.commands.executeCommand('scrapedeck.trySandbox');
    } finally {
      stop();
    }
    const first = session.sandbox.info.accounts[0];
    assert.ok(first);
    assert.equal(api.account.account?.method, 'sandbox');
    assert.equal(api.account.account?.label, first.username);
    assert.equal(api.account.account?.datahubUrl, session.sandbox.info.datahubUrl);
    assert.ok(
      messages.some((m) => m.text.includes(first.username)),
      'the info message names the account',
    );
    assert.equal(
      statusBarText(api.account.account, api.account.endpoints.baseUrl).text,
      `$(beaker) ${first.username} (sandbox)`,
      'the status bar says who and how',
    );
    await vscode.commands.executeCommand('scrapedeck.signOut');
    assert.equal(api.account.account, undefined);
  });

  it('"Try the sandbox" starts one in the extension host when the address is not a sandbox, without writing settings', async () => {
    const config = vscode.workspace.getConfiguration('scrapedeck');
    await config.update('baseUrl', 'http://127.0.0.1:9', vscode.ConfigurationTarget.Global);
    await waitFor('the new address', () => api.account.endpoints.baseUrl === 'http://127.0.0.1:9');
    const { stop } = recordMessages(api);
    try {
      await vscode.commands.executeCommand('scrapedeck.trySandbox');
      const account = api.account.account;
      assert.equal(account?.method, 'sandbox');
      assert.notEqual(account?.baseUrl, 'http://127.0.0.1:9');
      assert.equal(config.inspect('baseUrl')?.globalValue, 'http://127.0.0.1:9', 'settings untouched');
      const groups = await api.account.getClient()?.listTaskGroups();
      assert.ok((groups?.data.length ?? 0) > 0, 'the embedded sandbox answers');
      await vscode.commands.executeCommand('scrapedeck.signOut');
      assert.equal(api.account.account, undefined);
      assert.equal(api.account.endpoints.baseUrl, 'http://127.0.0.1:9', 'back to the configured address');
    } finally {
      stop();
      await config.update('baseUrl', session.sandbox.info.baseUrl, vscode.ConfigurationTarget.Global);
      await waitFor('the sandbox address', () => api.account.endpoints.baseUrl === session.sandbox.info.baseUrl);
    }
  });

  it("one sign-in is one write and one read of the secret storage; the write's own change event is ignored", async () => {
    if (api.account.account !== undefined) await vscode.commands.executeCommand('scrapedeck.signOut');
    await api.account.idle(); // the settings changes of `before` are read first
    const before = api.accountHooks.vaultStats();
    await signInWithApiKey(api, session.account('ada').apiKey);
    await waitFor(
      'the change event of the write',
      () => api.accountHooks.vaultStats().ignoredOwnEvents > before.ignoredOwnEvents,
    );
    const after = api.accountHooks.vaultStats();
    assert.equal(after.writes - before.writes, 1, 'one write');
    assert.equal(after.reads - before.reads, 1, 'one read');
    await vscode.commands.executeCommand('scrapedeck.signOut');
  });

  it('the log received request lines and no secret', () => {
    const text = api.logLines.join('\n');
    assert.ok(
      api.logLines.some((l) => l.includes('/token')),
      'token requests were logged',
    );
    for (const secret of secrets) assert.ok(!text.includes(secret), `a secret (…${secret.slice(-4)}) reached the log`);
  });
});
