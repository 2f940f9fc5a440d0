/** How an account appears in VS Code's Accounts menu (src/account/accountSession.ts). */
import * as assert from 'node:assert/strict';

import { accountsMenuLabel, accountsMenuSession } from '../../src/account/accountSession';

describe('Accounts menu session', () => {
  const ada = { label: 'ada', method: 'password' as const, baseUrl: 'https://openapi.example.com' };

  it('never carries a secret: the token VS Code (and other extensions) could read is empty', () => {
    const session = accountsMenuSession({
      label: 'API key …Lz8G',
      method: 'apiKey',
      baseUrl: 'https://openapi.example.com',
    });
    assert.equal(session.accessToken, '');
    assert.deepEqual(session.scopes, []);
    assert.equal(session.account.label, 'API key …Lz8G');
  });

  it('has a stable id per address and account, different across either', () => {
    const id = accountsMenuSession(ada).id;
    assert.equal(accountsMenuSession({ ...ada }).id, id);
    assert.notEqual(accountsMenuSession({ ...ada, label: 'grace' }).id, id);
    assert.notEqual(accountsMenuSession({ ...ada, baseUrl: 'http://127.0.0.1:4000' }).id, id);
    assert.match(id, /^[0-9a-f]{24}$/);
    assert.ok(!id.includes('ada'));
  });

  it('says when the account is the sandbox', () => {
    assert.equal(accountsMenuLabel({ ...ada, method: 'sandbox' }), 'ada (sandbox)');
    assert.equal(accountsMenuLabel(ada), 'ada');
  });
});
