/** The settings rules (src/platform/settings.ts): good values used, bad ones named and not used. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { MemoryCredentialsStore } from '../../src/api/auth/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { checkBaseUrl } from '../../src/api/http/urls';
import {
  changedSettings,
  checkServiceUrl,
  DEFAULT_SETTINGS,
  type Settings,
  validateSettings,
} from '../../src/platform/settings';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';

const good: Settings = {
  baseUrl: 'https://api.example.com',
  datahubUrl: 'https://hub.example.com',
  requestsPerSecond: 5,
  externalUserId: 'u-1',
  trackedApps: ['acme/prices'],
  proxy: undefined,
  analyticsAutoFetchRows: 500,
};

describe('settings validation', () => {
  it('uses the defaults for an empty configuration, with no problems', () => {
    const { values, problems } = validateSettings({});
    assert.deepEqual(values, { ...DEFAULT_SETTINGS, trackedApps: [] });
    assert.deepEqual(problems, []);
    assert.equal(values.baseUrl, 'https://openapi.octoparse.com');
    assert.equal(values.datahubUrl, undefined);
    assert.equal(values.requestsPerSecond, 20);
  });

  it('accepts good values and normalises addresses (no trailing slash, trimmed)', () => {
    const { values, problems } = validateSettings({
      baseUrl: ' https://API.example.com/ ',
      datahubUrl: 'https://hub.example.com/base/',
      requestsPerSecond: 7,
      externalUserId: '  ext-42 ',
      trackedApps: ['acme/prices', ' acme/prices ', 'zed/app'],
      proxy: 'http://proxy.local:8080',
    });
    assert.deepEqual(problems, []);
    assert.equal(values.baseUrl, 'https://api.example.com');
    assert.equal(values.datahubUrl, 'https://hub.example.com/base');
    assert.equal(values.requestsPerSecond, 7);
    assert.equal(values.externalUserId, 'ext-42');
    assert.deepEqual(values.trackedApps, ['acme/prices', 'zed/app']);
    assert.equal(values.proxy, 'http://proxy.local:8080/');
  });

  it('allows plain http only for loopback addresses', () => {
    for (const url of ['http://localhost:4000', 'http://127.0.0.1:9', 'http://[::1]:80']) {
      assert.equal(checkServiceUrl(url).ok, true, url);
    }
    // *.localhost goes to the system resolver, which may send it elsewhere: not loopback for plain http.
    for (const url of [
      'http://example.com',
      'http://10.0.0.1',
      'ftp://example.com',
      'not a url',
      'https://h/x?y=1',
      'http://sandbox.localhost',
    ]) {
      assert.equal(checkServiceUrl(url).ok, false, url);
    }
  });

  it('agrees with the client on every odd address (one validator for both)', () => {
    const odd = [
      'http://sandbox.localhost:4000',
      'https://user:secret@api.example.com',
      'http://user@127.0.0.1:4000',
      'https://api.example.com/#frag',
      'http://127.1.2.3:80',
      'http://[::1]:4000/base/',
      'https://API.example.com/v1/',
      'http://0.0.0.0:80',
      ' https://padded.example.com ',
    ];
    for (const url of odd) {
      const settings = checkServiceUrl(url);
      let client: string | undefined;
      try {
        client = checkBaseUrl(url, 'baseUrl');
      } catch {
        client = undefined;
      }
      assert.equal(settings.ok ? settings.url : undefined, client, url);
    }
    assert.equal(checkServiceUrl('https://user:secret@api.example.com').ok, false);
  });

  for (const [name, raw, setting] of [
    ['a base URL that is not a URL', { baseUrl: 'not a url' }, 'scrapedeck.baseUrl'],
    ['an ftp base URL', { baseUrl: 'ftp://files.example.com' }, 'scrapedeck.baseUrl'],
    ['a plain-http remote base URL', { baseUrl: 'http://api.example.com' }, 'scrapedeck.baseUrl'],
    ['a hub URL that is not a URL', { datahubUrl: 'hub' }, 'scrapedeck.datahubUrl'],
    ['0 requests per second', { requestsPerSecond: 0 }, 'scrapedeck.requestsPerSecond'],
    ['50 requests per second', { requestsPerSecond: 50 }, 'scrapedeck.requestsPerSecond'],
    ['a non-number rate', { requestsPerSecond: '10' }, 'scrapedeck.requestsPerSecond'],
    ['NaN requests per second', { requestsPerSecond: Number.NaN }, 'scrapedeck.requestsPerSecond'],
    ['an external user id with a newline', { externalUserId: 'a\nb' }, 'scrapedeck.externalUserId'],
    ['a tracked-apps value that is not a list', { trackedApps: 'acme/prices' }, 'scrapedeck.trackedApps'],
    ['an ftp proxy', { proxy: 'ftp://proxy.example' }, 'scrapedeck.proxy'],
    ['a bad http.proxy when ours is empty', { proxy: '', httpProxy: 'socks5://p:1080' }, 'http.proxy'],
    [
      '50 rows to fetch by itself (less than one page)',
      { analyticsAutoFetchRows: 50 },
      'scrapedeck.analytics.autoFetchRows',
    ],
    ['a fractional row count', { analyticsAutoFetchRows: 1000.5 }, 'scrapedeck.analytics.autoFetchRows'],
    ['a million rows to fetch by itself', { analyticsAutoFetchRows: 1_000_000 }, 'scrapedeck.analytics.autoFetchRows'],
  ] as const) {
    it(`refuses ${name}, names the setting, and keeps the last good value`, () => {
      const { values, problems } = validateSettings(raw, good);
      assert.equal(problems.length, 1, JSON.stringify(problems));
      const problem = problems[0];
      assert.ok(problem);
      assert.equal(problem.setting, setting);
      assert.match(problem.message, new RegExp(setting.replace('.', '\\.')));
      assert.match(problem.message, /Using|ignored/);
      const key =
        setting === 'http.proxy'
          ? 'proxy'
          : setting === 'scrapedeck.analytics.autoFetchRows'
            ? 'analyticsAutoFetchRows'
            : (setting.slice('scrapedeck.'.length) as keyof Settings);
      assert.deepEqual(values[key], good[key], `${key} must fall back`);
    });
  }

  it('falls back to the defaults when there is no last good value', () => {
    const { values, problems } = validateSettings({ baseUrl: 'ftp://x', requestsPerSecond: 50 });
    assert.equal(problems.length, 2);
    assert.equal(values.baseUrl, DEFAULT_SETTINGS.baseUrl);
    assert.equal(values.requestsPerSecond, 20);
    assert.match(
      problems.map((p) => p.message).join('\n'),
      /is 50, which is not a number from 1 to 20.*Using 20 instead/,
    );
  });

  it('keeps the valid tracked apps and names the invalid ones', () => {
    const { values, problems } = validateSettings({ trackedApps: ['acme/prices', 'no-slash', 42, 'a/b/c'] });
    assert.deepEqual(values.trackedApps, ['acme/prices']);
    assert.equal(problems.length, 1);
    assert.match(problems[0]?.message ?? '', /"no-slash", 42, "a\/b\/c"/);
  });

  it("uses VS Code's http.proxy when scrapedeck.proxy is empty, and ours when set", () => {
    assert.equal(validateSettings({ proxy: '', httpProxy: 'http://corp:3128' }).values.proxy, 'http://corp:3128/');
    assert.equal(
      validateSettings({ proxy: 'http://own:1', httpProxy: 'http://corp:3128' }).values.proxy,
      'http://own:1/',
    );
    assert.equal(validateSettings({ proxy: '', httpProxy: '' }).values.proxy, undefined);
  });

  it('never repeats a password found in a refused proxy address', () => {
    const { problems } = validateSettings({ proxy: 'ftp://user:hunter22@proxy.example' });
    assert.equal(problems.length, 1);
    assert.doesNotMatch(problems[0]?.message ?? '', /hunter22/);
  });

  it('never repeats a password in a proxy written without a scheme (it parses with the wrong parts)', () => {
    for (const raw of [
      { proxy: 'proxyuser:S3cret@10.0.0.1:3128' },
      { proxy: '', httpProxy: 'u:p@ss:S3cret@corp:3128' },
    ]) {
      const { problems } = validateSettings(raw);
      assert.equal(problems.length, 1, JSON.stringify(raw));
      assert.doesNotMatch(problems[0]?.message ?? '', /S3cret/);
      assert.match(problems[0]?.message ?? '', /\*\*\*@/);
    }
  });

  it('refuses a proxy password whose % is not an escape, by name', () => {
    const { values, problems } = validateSettings({ proxy: 'http://user:50%off@proxy.example:3128' });
    assert.equal(values.proxy, undefined);
    assert.match(problems[0]?.message ?? '', /not a valid escape/);
    assert.doesNotMatch(problems[0]?.message ?? '', /50%off/);
  });

  it('an empty hub URL means "not set", which is not a problem', () => {
    const { values, problems } = validateSettings({ datahubUrl: '  ' }, good);
    assert.equal(values.datahubUrl, undefined);
    assert.deepEqual(problems, []);
  });

  it('reports which settings changed', () => {
    assert.deepEqual(changedSettings(good, { ...good, requestsPerSecond: 6, trackedApps: ['a/b'] }), [
      'requestsPerSecond',
      'trackedApps',
    ]);
    assert.deepEqual(changedSettings(good, { ...good }), []);
  });
});

describe('settings validation against the sandbox', () => {
  let sandbox: RunningSandbox;
  before(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  after(() => sandbox.close());

  it("accepts the sandbox's loopback addresses, and a client built from them works", async () => {
    const { values, problems } = validateSettings({
      baseUrl: `${sandbox.info.baseUrl}/`,
      datahubUrl: sandbox.info.datahubUrl,
      requestsPerSecond: 50, // refused: the client gets the default
    });
    assert.equal(problems.length, 1);
    assert.equal(values.baseUrl, sandbox.info.baseUrl);
    assert.equal(values.requestsPerSecond, 20);
    const apiKey = sandbox.info.accounts[0]?.apiKey;
    assert.ok(apiKey);
    const client = new ScrapedeckClient({
      baseUrl: values.baseUrl,
      datahubUrl: values.datahubUrl,
      requestsPerSecond: values.requestsPerSecond,
      credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey }),
    });
    try {
      const groups = await client.listTaskGroups();
      assert.ok(groups.data.length > 0, 'the seeded account has task groups');
    } finally {
      await client.close();
    }
  });
});

describe('settings a workspace cannot set', () => {
  // What decides where credentials go, or is sent with them, is read from User settings only:
  // VS Code ignores a workspace's (or folder's) value of an `application` setting.
  const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { scope?: string }> } };
  };
  const scopeOf = (key: string) => manifest.contributes.configuration.properties[key]?.scope;

  it('the addresses, the proxy and the external user id (a header sent with the credentials) are application settings', () => {
    for (const key of ['scrapedeck.baseUrl', 'scrapedeck.datahubUrl', 'scrapedeck.proxy', 'scrapedeck.externalUserId'])
      assert.equal(scopeOf(key), 'application', key);
  });
});
