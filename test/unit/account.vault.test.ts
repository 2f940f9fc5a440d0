/**
 * The vault and the client holder in plain Node, on a SecretStorage stand-in that behaves like
 * VS Code's (one change event per real change, to every window sharing the store, delivered
 * later), against a real sandbox: one sign-in is one write and one read; another window's change
 * is followed with one read; a write that changes nothing is not made.
 */
import * as assert from 'node:assert/strict';

import { ClientHolder, type SettingsSource } from '../../src/account/clientHolder';
import { signIn } from '../../src/account/signIn';
import { CredentialsVault, type MementoLike, type SecretStorageLike } from '../../src/account/vault';
import { Emitter } from '../../src/platform/emitter';
import { DEFAULT_SETTINGS } from '../../src/platform/settings';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';
import { assertOneRenewal } from './helpers/renewals';

/** One machine's secret store, shared by "windows"; each window counts its own calls. */
class SharedSecrets {
  private readonly values = new Map<string, string>();
  private readonly windows = new Set<Emitter<{ key: string }>>();

  window(): SecretStorageLike & { gets: number; stores: number; deletes: number; dispose(): void } {
    const events = new Emitter<{ key: string }>();
    this.windows.add(events);
    const change = (key: string) => setImmediate(() => this.windows.forEach((w) => w.fire({ key })));
    const self = {
      gets: 0,
      stores: 0,
      deletes: 0,
      get: (key: string) => {
        self.gets++;
        return Promise.resolve(this.values.get(key));
      },
      store: (key: string, value: string) => {
        self.stores++;
        const changed = this.values.get(key) !== value;
        this.values.set(key, value);
        if (changed) change(key); // like VS Code's storage: no event for an unchanged value
        return Promise.resolve();
      },
      delete: (key: string) => {
        self.deletes++;
        const had = this.values.delete(key);
        if (had) change(key);
        return Promise.resolve();
      },
      onDidChange: (listener: (e: { key: string }) => unknown) => events.event(listener),
      dispose: () => this.windows.delete(events),
    };
    return self;
  }
}

class MapMemento implements MementoLike {
  constructor(private readonly map = new Map<string, unknown>()) {}
  get(key: string): unknown {
    return this.map.get(key);
  }
  update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.map.delete(key);
    else this.map.set(key, value);
    return Promise.resolve();
  }
}

interface Machine {
  sandbox: RunningSandbox;
  shared: SharedSecrets;
  globalState: MapMemento;
  /** What the test disposes of at its end; each window adds its parts. */
  open: { dispose(): void }[];
  now?: () => number;
}

/** A window of the machine: its view of the shared secrets, a vault on them, a client holder for the sandbox. */
function openWindow({ sandbox, shared, globalState, open, now }: Machine) {
  const secrets = shared.window();
  const settings: SettingsSource = {
    settings: { ...DEFAULT_SETTINGS, baseUrl: sandbox.info.baseUrl, datahubUrl: sandbox.info.datahubUrl },
    onDidChange: new Emitter<{ changed: [] }>().event,
  };
  const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const vault = new CredentialsVault(secrets, globalState, log);
  const holder = new ClientHolder({ vault, configuration: settings, log, ...(now === undefined ? {} : { now }) });
  open.push(holder, vault, secrets);
  return { secrets, vault, holder };
}

/** Lets every queued change event (setImmediate) and what it started run. */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
};

describe('account: the vault and the client holder (Node, sandbox)', () => {
  let sandbox: RunningSandbox;
  let shared: SharedSecrets;
  let globalState: MapMemento;
  const open: { dispose(): void }[] = [];

  const window = () => openWindow({ sandbox, shared, globalState, open });
  const seeded = (plan: string) => {
    const found = sandbox.info.accounts.find((a) => a.plan === plan);
    assert.ok(found);
    return found;
  };

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  after(() => sandbox.close());
  beforeEach(() => {
    shared = new SharedSecrets();
    globalState = new MapMemento();
  });
  afterEach(() => open.splice(0).forEach((d) => d.dispose()));

  it('one API-key sign-in is one write and one read; its own change event is ignored', async () => {
    const { secrets, vault, holder } = window();
    await holder.ready;
    assert.equal(secrets.gets, 1, 'the start reads once');
    const result = await signIn(holder, 'apiKey', { apiKey: seeded('Professional').apiKey });
    assert.equal(result.ok, true);
    await settle();
    assert.equal(secrets.stores, 1, 'one write');
    assert.equal(secrets.gets, 2, 'one read after the write, none for the change event');
    assert.equal(vault.stats.ignoredOwnEvents, 1);
    assert.match(holder.account?.label ?? '', /^API key …/);
    assert.ok(holder.getClient());
  });

  it('a refused key writes nothing and reads nothing', async () => {
    const { secrets, holder } = window();
    await holder.ready;
    const result = await signIn(holder, 'apiKey', { apiKey: 'op_wrong_0000000000000000' });
    assert.equal(result.ok, false);
    assert.equal(secrets.stores, 0);
    assert.equal(secrets.gets, 1);
    assert.equal(holder.account, undefined);
  });

  it("another window's sign-in and sign-out are followed with one read each", async () => {
    const a = window();
    const b = window();
    await Promise.all([a.holder.ready, b.holder.ready]);
    const readsBefore = b.secrets.gets;
    await signIn(a.holder, 'password', {
      username: seeded('Professional').username,
      password: seeded('Professional').password,
    });
    await settle();
    assert.equal(b.secrets.gets, readsBefore + 1, 'window b read once');
    assert.equal(b.holder.account?.method, 'password');
    assert.equal(b.holder.account?.label, seeded('Professional').username);

    await a.holder.clear();
    await settle();
    assert.equal(b.secrets.gets, readsBefore + 2);
    assert.equal(b.holder.account, undefined, 'b follows the sign-out');
    assert.equal(a.vault.stats.ignoredOwnEvents, 2, 'a ignored both of its own events');
  });

  it('a write that changes nothing is not made, and a sign-out of nothing deletes nothing', async () => {
    const { secrets, vault, holder } = window();
    await holder.ready;
    const key = seeded('Standard').apiKey;
    await signIn(holder, 'apiKey', { apiKey: key, label: 'Work' });
    await vault.write(holder.endpoints.baseUrl, { kind: 'apiKey', apiKey: key }, { label: 'Work', method: 'apiKey' });
    assert.equal(secrets.stores, 1, 'the same credentials are not stored again');
    await holder.clear();
    await holder.clear();
    assert.equal(secrets.deletes, 1, 'the second sign-out had nothing to delete');
    await settle();
    assert.equal(vault.stats.ignoredOwnEvents, 2);
    assert.equal(holder.account, undefined);
  });

  it("an API key's label is kept with the account, never the key itself", async () => {
    const { holder } = window();
    await holder.ready;
    const key = seeded('Standard').apiKey;
    await signIn(holder, 'apiKey', { apiKey: key, label: '  Team account  ' });
    assert.equal(holder.account?.label, 'Team account');
    await signIn(holder, 'apiKey', { apiKey: key, label: `mine ${key}` });
    assert.equal(
      holder.account?.label,
      `API key …${key.slice(-4)}`,
      'a label holding the key falls back to the default',
    );
  });
});

describe('account: two windows with one password session renew it without asking to sign in (Node, sandbox)', function () {
  let sandbox: RunningSandbox;
  // The sandbox and both windows read one fake clock: the token turns stale when the test moves
  // it, and no second expiry comes while a loaded machine is slow with the calls.
  let clock = Date.now();
  const now = (): number => clock;
  before(async () => {
    sandbox = await startSandbox({ port: 0, seed: 3, tokenTtlSeconds: 2, rateLimit: 0, now });
  });
  after(() => sandbox.close());

  it('50 calls in each window across an expiry: no failure, no sign-in prompt, at most one refresh grant per window', async () => {
    const shared = new SharedSecrets();
    const globalState = new MapMemento();
    const open: { dispose(): void }[] = [];
    const window = () => openWindow({ sandbox, shared, globalState, open, now }).holder;
    try {
      const ada = sandbox.info.accounts.find((a) => a.username === 'ada');
      assert.ok(ada);
      const a = window();
      const b = window();
      await Promise.all([a.ready, b.ready]);
      let prompts = 0;
      open.push(
        a.onDidExpire(() => prompts++),
        b.onDidExpire(() => prompts++),
      );
      assert.equal((await signIn(a, 'password', { username: ada.username, password: ada.password }, { now })).ok, true);
      await settle();
      const clients = [a.getClient(), b.getClient()];
      assert.ok(clients[0] && clients[1], 'both windows follow the one sign-in');
      const grantsBefore = sandbox.stats.refreshGrants;
      // The 2 s token is within its renewal margin (its last quarter) after 1.5 s: both windows find it so together.
      clock += 1_600;
      const results = await Promise.allSettled(
        clients.flatMap((c) => Array.from({ length: 50 }, () => c!.listTaskGroups())),
      );
      assertOneRenewal(results, prompts, sandbox.stats.refreshGrants - grantsBefore);
    } finally {
      open.splice(0).forEach((d) => d.dispose());
    }
  });
});
