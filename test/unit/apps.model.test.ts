/**
 * Tracked apps and deprecation outcomes in plain Node: parsing refs from settings and storage,
 * grouping by namespace, persistence per hub and per account (never lost by a bad entry; older
 * shared lists adopted once), and the wording the
 * nodes and messages use.
 */
import * as assert from 'node:assert/strict';

import {
  APP_STORE_KEY,
  AppStore,
  hubKey,
  LEGACY_APP_STORE_KEY,
  type MementoLike,
  parseStore,
} from '../../src/apps/appStore';
import {
  confirmationText,
  deprecationDescription,
  missingSecretsWarning,
  recordFromResult,
  versionLabel,
} from '../../src/apps/deprecation';
import {
  groupByNamespace,
  mergeTracked,
  parseAppRef,
  parseSettingsApps,
  validateAppRefInput,
} from '../../src/apps/trackedApps';

class MapMemento implements MementoLike {
  readonly map = new Map<string, unknown>();
  writes = 0;
  failWrites = false;
  get(key: string): unknown {
    return structuredClone(this.map.get(key));
  }
  update(key: string, value: unknown): Promise<void> {
    if (this.failWrites) return Promise.reject(new Error('disk full'));
    this.writes++;
    // A round-trip through JSON, as globalState stores it.
    this.map.set(key, JSON.parse(JSON.stringify(value)));
    return Promise.resolve();
  }
}

const HUB = 'http://127.0.0.1:4000/datahub';
const ADA = { hub: HUB, account: 'acct-ada' };
const GRACE = { hub: HUB, account: 'acct-grace' };

describe('apps: references and settings', () => {
  it('parses namespace/name, trimmed, and rejects everything else', () => {
    assert.deepEqual(parseAppRef('  acme/price-tracker '), {
      ref: 'acme/price-tracker',
      namespace: 'acme',
      name: 'price-tracker',
    });
    for (const bad of ['acme', 'acme/', '/x', 'a/b/c', 'a b/c', '', 42, null])
      assert.equal(parseAppRef(bad), undefined, String(bad));
  });

  it('reads the setting: valid refs deduplicated, invalid ones listed once', () => {
    const r = parseSettingsApps(['acme/a', ' acme/a', 'nope', 7, 'zeta/b']);
    assert.deepEqual(r.refs, ['acme/a', 'zeta/b']);
    assert.deepEqual(r.invalid, ['nope', '7']);
    assert.deepEqual(parseSettingsApps(undefined), { refs: [], invalid: [] });
    assert.deepEqual(parseSettingsApps('acme/a').refs, []);
    assert.equal(parseSettingsApps('acme/a').invalid.length, 1);
  });

  it('validates input: format first, then duplicates, naming the settings source', () => {
    const tracked = mergeTracked(['ada/x'], ['ada/y']);
    const find = (ref: string) => tracked.find((a) => a.ref === ref);
    // A sentence of its own in the input box: it starts upper-case.
    assert.equal(validateAppRefInput('ada', find), 'An app reference is namespace/name, e.g. acme/price-tracker');
    assert.equal(validateAppRefInput('ada/x', find), 'ada/x is already tracked');
    assert.match(
      validateAppRefInput(' ada/y ', find) ?? '',
      /already tracked \(from the scrapedeck\.trackedApps setting\)/,
    );
    assert.equal(validateAppRefInput('ada/z', find), undefined);
  });

  it('merges both sources without duplicates; settings win', () => {
    const m = mergeTracked(['ada/x', 'ada/y', 'bad'], ['ada/y', 'bob/z']);
    assert.deepEqual(m.map((a) => [a.ref, a.source]).sort(), [
      ['ada/x', 'added'],
      ['ada/y', 'settings'],
      ['bob/z', 'settings'],
    ]);
  });

  it('groups by namespace, sorted, apps sorted by name', () => {
    const g = groupByNamespace(mergeTracked(['zeta/b', 'Acme/z', 'acme/b', 'zeta/a', 'acme/a10', 'acme/a9'], []));
    assert.deepEqual(
      g.map((x) => [x.namespace, x.apps.map((a) => a.name)]),
      [
        ['Acme', ['z']],
        ['acme', ['a9', 'a10', 'b']],
        ['zeta', ['a', 'b']],
      ],
    );
  });
});

describe('apps: store in globalState', () => {
  it('adds, rejects duplicates and invalid refs, removes, and notifies', async () => {
    const m = new MapMemento();
    const store = new AppStore(m);
    let changes = 0;
    store.onDidChange(() => changes++);
    assert.equal(await store.add(ADA, 'ada/price-tracker'), true);
    assert.equal(await store.add(ADA, ' ada/price-tracker '), false);
    assert.equal(await store.add(ADA, 'not a ref'), false);
    assert.equal(await store.add(ADA, 'ada/news-digest'), true);
    assert.deepEqual(store.apps(ADA), ['ada/price-tracker', 'ada/news-digest']);
    assert.equal(await store.remove(ADA, 'ada/news-digest'), true);
    assert.equal(await store.remove(ADA, 'ada/news-digest'), false);
    assert.equal(changes, 3);
    // Survives a restart: a new store over the same memento.
    assert.deepEqual(new AppStore(m).apps(ADA), ['ada/price-tracker']);
  });

  it('keeps apps per hub, with equivalent URLs sharing one key', async () => {
    const store = new AppStore(new MapMemento());
    await store.add(ADA, 'ada/a');
    await store.add({ ...ADA, hub: 'https://hub.example.com/' }, 'acme/b');
    assert.deepEqual(store.apps({ ...ADA, hub: `${HUB}/` }), ['ada/a']);
    assert.deepEqual(store.apps({ ...ADA, hub: 'HTTPS://HUB.example.com' }), ['acme/b']);
    assert.equal(hubKey('https://Hub.Example.com/x/'), 'https://hub.example.com/x');
  });

  it('keeps what each account added and was told apart: another account at the same hub sees none of it', async () => {
    const m = new MapMemento();
    const store = new AppStore(m);
    await store.add(ADA, 'ada/price-tracker');
    await store.recordDeprecation(ADA, 'ada/price-tracker', {
      status: 'deprecated',
      version: '1.2.0',
      missingSecrets: ['PROXY_TOKEN', 'SLACK_WEBHOOK'],
      at: 9,
    });
    await store.recordDeprecation(ADA, 'shared/from-settings', { status: 'deprecated', missingSecrets: [], at: 9 });
    await store.recordNotFound(ADA, 'grace/review-miner', { at: 3, requestId: 'r-1' });
    const again = new AppStore(m);
    assert.deepEqual(again.apps(GRACE), []);
    assert.equal(again.deprecation(GRACE, 'ada/price-tracker'), undefined);
    assert.equal(
      again.deprecation(GRACE, 'shared/from-settings'),
      undefined,
      'an app both see: its outcome is the account’s',
    );
    assert.equal(again.notFound(GRACE, 'grace/review-miner'), undefined, 'another account may be the author');
    assert.deepEqual(again.apps(ADA), ['ada/price-tracker']);
    assert.deepEqual(again.deprecation(ADA, 'ada/price-tracker')?.missingSecrets, ['PROXY_TOKEN', 'SLACK_WEBHOOK']);
    assert.deepEqual(again.notFound(ADA, 'grace/review-miner'), { at: 3, requestId: 'r-1' });
    await again.add(GRACE, 'grace/review-miner');
    assert.deepEqual(again.apps(ADA), ['ada/price-tracker'], 'grace’s add is hers');
  });

  it('lists kept before accounts were told apart: adopted once per hub by the first account, left in place for older versions', async () => {
    const m = new MapMemento();
    const legacy = {
      version: 1,
      hubs: {
        [hubKey(HUB)]: {
          apps: ['ada/price-tracker', 'ada/ghost'],
          deprecations: { 'ada/price-tracker': { status: 'deprecated', version: '1.0.0', missingSecrets: [], at: 5 } },
          notFound: { 'ada/ghost': { at: 4, account: ADA.account }, 'grace/x': { at: 4, account: GRACE.account } },
        },
      },
    };
    m.map.set(LEGACY_APP_STORE_KEY, legacy);
    const store = new AppStore(m);
    assert.deepEqual(store.apps(ADA), [], 'not shown to anyone before it is adopted');
    assert.equal(await store.adoptLegacy(ADA), true);
    assert.deepEqual(store.apps(ADA), ['ada/price-tracker', 'ada/ghost']);
    assert.equal(store.deprecation(ADA, 'ada/price-tracker')?.version, '1.0.0');
    assert.deepEqual(store.notFound(ADA, 'ada/ghost'), { at: 4 });
    assert.equal(store.notFound(ADA, 'grace/x'), undefined, 'a mark recorded for another account is not adopted');
    assert.equal(await store.adoptLegacy(GRACE), false, 'once per hub');
    assert.deepEqual(store.apps(GRACE), []);
    assert.deepEqual(m.get(LEGACY_APP_STORE_KEY), legacy, 'the older key is left as it was');
  });

  it('serialises concurrent changes so none is lost', async () => {
    const store = new AppStore(new MapMemento());
    await Promise.all(['a/1', 'a/2', 'a/3', 'a/4'].map((r) => store.add(ADA, r)));
    assert.deepEqual(store.apps(ADA).sort(), ['a/1', 'a/2', 'a/3', 'a/4']);
  });

  it('a failed write rejects, keeps what was stored, and later writes still work', async () => {
    const m = new MapMemento();
    const store = new AppStore(m);
    await store.add(ADA, 'ada/a');
    m.failWrites = true;
    await assert.rejects(store.add(ADA, 'ada/b'), /disk full/);
    m.failWrites = false;
    assert.deepEqual(store.apps(ADA), ['ada/a']);
    assert.equal(await store.add(ADA, 'ada/c'), true);
    assert.deepEqual(store.apps(ADA), ['ada/a', 'ada/c']);
  });

  it('reads corrupt storage leniently: bad entries dropped, good ones kept', () => {
    const parsed = parseStore({
      version: 2,
      hubs: {
        [hubKey(HUB)]: {
          [ADA.account]: {
            apps: ['ada/a', 12, 'bad', 'ada/a', 'ada/b'],
            deprecations: {
              'ada/a': { status: 'deprecated', version: '1.0.0', missingSecrets: [], at: 5 },
              'ada/b': { status: 3 },
              nope: { status: 'deprecated', at: 1 },
            },
          },
          other: 'garbage',
        },
      },
    });
    assert.deepEqual(parsed.hubs[hubKey(HUB)]?.[ADA.account]?.apps, ['ada/a', 'ada/b']);
    assert.deepEqual(Object.keys(parsed.hubs[hubKey(HUB)]?.[ADA.account]?.deprecations ?? {}), ['ada/a']);
    assert.equal(parsed.hubs[hubKey(HUB)]?.other, undefined);
    assert.deepEqual(parseStore('nonsense').hubs, {});
    assert.deepEqual(parseStore(undefined).hubs, {});
  });

  it('remembers the deprecation outcome, also after stop tracking and re-adding', async () => {
    const m = new MapMemento();
    const store = new AppStore(m);
    await store.add(ADA, 'ada/a');
    const rec = recordFromResult(
      { app_name: 'a', namespace: 'ada', version: '1.2.0', status: 'deprecated', missing_secrets: ['X'] },
      1000,
    );
    await store.recordDeprecation(ADA, 'ada/a', rec);
    const again = new AppStore(m);
    assert.deepEqual(again.deprecation(ADA, 'ada/a'), {
      status: 'deprecated',
      version: '1.2.0',
      missingSecrets: ['X'],
      at: 1000,
    });
    await again.remove(ADA, 'ada/a');
    await again.add(ADA, 'ada/a');
    assert.equal(again.deprecation(ADA, 'ada/a')?.status, 'deprecated');
    assert.equal(m.get(APP_STORE_KEY) !== undefined, true);
  });
});

describe('apps: an app the hub says does not exist (404)', () => {
  it('is marked for the account that asked, forgotten on stop tracking or adding again', async () => {
    const m = new MapMemento();
    const store = new AppStore(m);
    await store.add(ADA, 'ada/ghost');
    await store.recordNotFound(ADA, 'ada/ghost', { at: 5, requestId: 'req-9' });
    assert.deepEqual(new AppStore(m).notFound(ADA, 'ada/ghost'), { at: 5, requestId: 'req-9' });
    assert.equal(store.notFound(GRACE, 'ada/ghost'), undefined, 'another account may be the author');
    await store.remove(ADA, 'ada/ghost');
    await store.add(ADA, 'ada/ghost');
    assert.equal(store.notFound(ADA, 'ada/ghost'), undefined, 'adding again asks the hub again');
  });

  it('a later deprecation replaces the mark; a corrupt mark is dropped, the rest kept', async () => {
    const m = new MapMemento();
    const store = new AppStore(m);
    await store.add(ADA, 'ada/a');
    await store.recordNotFound(ADA, 'ada/a', { at: 1 });
    await store.recordDeprecation(ADA, 'ada/a', { status: 'deprecated', missingSecrets: [], at: 2 });
    assert.equal(store.notFound(ADA, 'ada/a'), undefined);
    const parsed = parseStore({
      hubs: {
        [hubKey(HUB)]: {
          [ADA.account]: {
            apps: ['ada/a'],
            deprecations: {},
            notFound: { 'ada/a': { at: 'soon' }, 'ada/b': { at: 3 } },
          },
        },
      },
    });
    assert.deepEqual(Object.keys(parsed.hubs[hubKey(HUB)]?.[ADA.account]?.notFound ?? {}), ['ada/b']);
  });
});

describe('apps: deprecation wording', () => {
  it('describes status and version', () => {
    const base = { status: 'deprecated', missingSecrets: [], at: 0 };
    assert.equal(deprecationDescription({ ...base, version: '1.2.0' }), 'deprecated · v1.2.0');
    assert.equal(deprecationDescription({ ...base, version: 'v2.0' }), 'deprecated · v2.0');
    assert.equal(deprecationDescription({ ...base, version: undefined }), 'deprecated · no version');
    assert.equal(deprecationDescription({ ...base, status: '' }), 'deprecated · no version');
    assert.equal(versionLabel('  '), 'no version');
  });

  it('turns an empty version and absent secrets into "none"', () => {
    const r = recordFromResult(
      { app_name: 'n', version: '', status: 'deprecated', namespace: undefined, missing_secrets: undefined },
      7,
    );
    assert.deepEqual(r, { status: 'deprecated', version: undefined, missingSecrets: [], at: 7 });
  });

  it('warns about missing secrets only when there are some', () => {
    const r = { status: 'deprecated', missingSecrets: ['A', 'B'], at: 0 };
    assert.equal(missingSecretsWarning('ada/x', r), 'ada/x is deprecated, but these secrets are missing: A, B');
    assert.equal(missingSecretsWarning('ada/x', { ...r, missingSecrets: [] }), undefined);
  });

  it('the confirmation says what deprecation means and that there is no undeprecate', () => {
    const { message, detail } = confirmationText('ada/x');
    assert.match(message, /ada\/x/);
    for (const phrase of [
      /no longer maintained/,
      /migrat/,
      /leaves market search/,
      /New releases .* rejected/,
      /Runs .* still allowed/,
      /readable/,
      /Supply is not cut/,
      /maintenance switch/,
      /undeprecate/,
    ]) {
      assert.match(detail, phrase);
    }
  });
});
