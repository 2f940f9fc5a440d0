/**
 * A client outlives its sign-in for a moment (a call on its way when the user switches). What it
 * renews then must not reach the next sign-in: not its stored record, not the session the new
 * client sends, even when both accounts live at the same service address (the sandbox at the
 * configured address, two accounts one after the other).
 */
import * as assert from 'node:assert/strict';

import { type ClientRecipe, createClient } from '../../src/account/clientFactory';
import { ClientHolder, type SettingsSource } from '../../src/account/clientHolder';
import { CredentialsVault, type MementoLike, type SecretStorageLike } from '../../src/account/vault';
import type { Credentials, CredentialsStore } from '../../src/api/auth/auth';
import { Emitter } from '../../src/platform/emitter';
import { DEFAULT_SETTINGS } from '../../src/platform/settings';

const BASE_URL = 'http://127.0.0.1:9';
const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
const settings: SettingsSource = {
  settings: { ...DEFAULT_SETTINGS, baseUrl: BASE_URL },
  onDidChange: new Emitter<{ changed: [] }>().event,
};
const session = (name: string): Credentials => ({
  kind: 'session',
  session: {
    accessToken: `access-${name}`,
    refreshToken: `refresh-${name}`,
    tokenType: 'Bearer',
    expiresAt: Date.now() + 7_200_000,
  },
});
const sandboxKey: Credentials = { kind: 'apiKey', apiKey: 'op_sandbox_ada_0123456789' };

const memento: MementoLike = { get: () => undefined, update: () => Promise.resolve() };

/** SecretStorage in memory; `hold` keeps the store of one value waiting until released. */
function secrets(values: Map<string, string>) {
  const events = new Emitter<{ key: string }>();
  let held: { match: string; release: Promise<void> } | undefined;
  const storage: SecretStorageLike & { hold(match: string): () => void } = {
    get: (key) => Promise.resolve(values.get(key)),
    store: async (key, value) => {
      values.set(key, value);
      setImmediate(() => events.fire({ key }));
      if (held !== undefined && value.includes(held.match)) await held.release;
    },
    delete: (key) => {
      values.delete(key);
      setImmediate(() => events.fire({ key }));
      return Promise.resolve();
    },
    onDidChange: (listener) => events.event(listener),
    hold: (match) => {
      let release = (): void => undefined;
      held = { match, release: new Promise<void>((r) => (release = r)) };
      return release;
    },
  };
  return storage;
}

function window() {
  const values = new Map<string, string>();
  const storage = secrets(values);
  const vault = new CredentialsVault(storage, memento, log);
  const stores: CredentialsStore[] = [];
  const holder = new ClientHolder({
    vault,
    configuration: settings,
    log,
    createClient: (recipe: ClientRecipe) => {
      stores.push(recipe.credentials);
      return createClient(recipe);
    },
  });
  return { storage, vault, holder, stores, dispose: () => (holder.dispose(), vault.dispose()) };
}

describe('account: the store a client was built with belongs to its sign-in', () => {
  it("an earlier sign-in's client renewing after a switch at the same address changes nothing", async () => {
    const w = window();
    try {
      await w.holder.ready;
      await w.holder.store(session('grace'), { label: 'grace', method: 'password', username: 'grace' });
      const graceStore = w.stores.at(-1);
      await w.holder.store(sandboxKey, { label: 'ada', method: 'sandbox' });
      const adaStore = w.stores.at(-1);
      assert.ok(graceStore && adaStore && graceStore !== adaStore);

      await graceStore.set(session('grace-renewed'));
      assert.deepEqual(
        (await w.vault.read(BASE_URL))?.credentials,
        sandboxKey,
        'the stored record is still the sandbox key',
      );
      assert.deepEqual(await adaStore.get(), sandboxKey, 'the new client still sends the sandbox key');
      assert.equal(await graceStore.get(), undefined, 'the old client reads "signed out"');
      assert.equal(w.holder.account?.method, 'sandbox');
    } finally {
      w.dispose();
    }
  });

  it('a renewal being written when the next sign-in comes in is not taken as the new credentials', async () => {
    const w = window();
    try {
      await w.holder.ready;
      await w.holder.store(session('grace'), { label: 'grace', method: 'password', username: 'grace' });
      const graceStore = w.stores.at(-1);
      assert.ok(graceStore);
      const release = w.storage.hold('grace-renewed');
      const renewing = graceStore.set(session('grace-renewed'));
      await w.holder.store(sandboxKey, { label: 'ada', method: 'sandbox' });
      release();
      await renewing;
      assert.deepEqual(await w.stores.at(-1)?.get(), sandboxKey, 'the new client sends the sandbox key');
      assert.deepEqual((await w.vault.read(BASE_URL))?.credentials, sandboxKey);
    } finally {
      w.dispose();
    }
  });
});
