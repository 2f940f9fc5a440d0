/**
 * Switch Account into the sandbox right after a password sign-in left the window on the earlier
 * account ("Signed in … (sandbox)" in the log, the previous account's name and method shown), in
 * about half the full integration runs. The cause is VS Code's globalState, reproduced here as the
 * extension host keeps it: one object for the whole extension, changed in place by update() and
 * sent whole to the workbench by a flush that runs a task later; the workbench stores it and sends
 * the stored object back, which replaces the extension host's object. When another feature's
 * flush is answered between the vault's update and the vault's own flush, that flush sends the
 * older object and the account's new metadata is lost, in memory and in storage.
 */
import * as assert from 'node:assert/strict';

import { ClientHolder, type SettingsSource } from '../../src/account/clientHolder';
import { CredentialsVault, type SecretStorageLike } from '../../src/account/vault';
import type { Credentials } from '../../src/api/auth/auth';
import { Emitter } from '../../src/platform/emitter';
import { DEFAULT_SETTINGS } from '../../src/platform/settings';
import { EchoingMemento, Loop } from '../shared/echoingMemento';

/** SecretStorage: one change event per real change, a task later. */
function fakeSecrets(loop: Loop, values: Map<string, string>): SecretStorageLike {
  const events = new Emitter<{ key: string }>();
  return {
    get: (key) => Promise.resolve(values.get(key)),
    store: (key, value) => {
      const changed = values.get(key) !== value;
      values.set(key, value);
      if (changed) loop.post(() => events.fire({ key }));
      return Promise.resolve();
    },
    delete: (key) => {
      if (values.delete(key)) loop.post(() => events.fire({ key }));
      return Promise.resolve();
    },
    onDidChange: (listener) => events.event(listener),
  };
}

const BASE_URL = 'http://127.0.0.1:9';
const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
const settings: SettingsSource = {
  settings: { ...DEFAULT_SETTINGS, baseUrl: BASE_URL },
  onDidChange: new Emitter<{ changed: [] }>().event,
};
const graceSession: Credentials = {
  kind: 'session',
  session: {
    accessToken: 'access-grace',
    refreshToken: 'refresh-grace',
    tokenType: 'Bearer',
    expiresAt: Date.now() + 7_200_000,
  },
};
const sandboxKey: Credentials = { kind: 'apiKey', apiKey: 'op_sandbox_ada_0123456789' };

describe('account: a sign-in right after another, while another feature writes globalState', () => {
  it('the window and the next start show the new account, not the previous one', async () => {
    const loop = new Loop();
    const memento = new EchoingMemento(loop);
    const secrets = new Map<string, string>();
    const vault = new CredentialsVault(fakeSecrets(loop, secrets), memento, log);
    const holder = new ClientHolder({ vault, configuration: settings, log });
    try {
      await holder.ready;
      await holder.store(graceSession, { label: 'grace', method: 'password', username: 'grace' });
      await loop.drain();
      assert.equal(holder.account?.label, 'grace');

      // Another feature (the health cache, the attention list) writes its own key, not awaited, and
      // the sandbox's sign-in stores its account the moment that write has reached the workbench.
      const signedIn = new Promise<void>((resolve, reject) => {
        memento.onStored = () => {
          memento.onStored = undefined;
          holder.store(sandboxKey, { label: 'ada', method: 'sandbox' }).then(resolve, reject);
        };
      });
      void memento.update('scrapedeck.health', { seen: ['t1'] });
      await signedIn;
      await loop.drain();

      assert.deepEqual(
        [holder.account?.label, holder.account?.method],
        ['ada', 'sandbox'],
        'the window shows the sandbox account',
      );
      const nextStart = new CredentialsVault(
        fakeSecrets(loop, new Map(secrets)),
        new EchoingMemento(loop, memento.stored),
        log,
      );
      const stored = await nextStart.read(BASE_URL);
      assert.deepEqual(
        [stored?.meta.label, stored?.meta.method],
        ['ada', 'sandbox'],
        'the next start shows the sandbox account',
      );
      assert.deepEqual(stored?.credentials, sandboxKey);
    } finally {
      holder.dispose();
      vault.dispose();
    }
  });

  it('a record an older version wrote (no name in it) keeps the name it kept in globalState', async () => {
    const loop = new Loop();
    const secrets = new Map([[`scrapedeck.credentials:${BASE_URL}`, JSON.stringify(graceSession)]]);
    const memento = new EchoingMemento(loop, {
      [`scrapedeck.account:${BASE_URL}`]: { label: 'grace', method: 'password', username: 'grace' },
    });
    const vault = new CredentialsVault(fakeSecrets(loop, secrets), memento, log);
    try {
      const stored = await vault.read(BASE_URL);
      assert.deepEqual(stored?.meta, { label: 'grace', method: 'password', username: 'grace' });
      await vault.clear(BASE_URL);
      await loop.drain();
      assert.deepEqual(memento.stored, {}, 'a sign-out removes the old name too');
    } finally {
      vault.dispose();
    }
  });
});
