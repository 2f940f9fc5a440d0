import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as net from 'node:net';
import * as path from 'node:path';

import { findTool } from '../../src/agents/table';
import { MemoryCredentialsStore } from '../../src/api/auth/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors/errors';
import { redact, REDACTED, redactHeaders, SecretSet } from '../../src/api/errors/redact';
import { proxyConfig } from '../../src/api/http/proxy';
import { backoffDelay, parseRetryAfter, retryDelayFromBody } from '../../src/api/http/retry';
import { appRefPath, checkBaseUrl, isLoopbackHost, maskUserinfo } from '../../src/api/http/urls';
import { APP_REF_RE } from '../../src/api/schemas/schemas';
import { english } from '../../src/platform/errorText';
import { RecordingServer } from './helpers/recordingServer';

const isApiError = (kind: string, field?: string) => (e: unknown) =>
  e instanceof ApiError && e.kind === kind && (field === undefined || e.field === field);

describe('api: Retry-After and retryGuidance', () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);
  it('reads delta-seconds', () => {
    assert.equal(parseRetryAfter('2', now), 2000);
    assert.equal(parseRetryAfter(' 0 ', now), 0);
    assert.equal(parseRetryAfter('1.5', now), 1500);
    assert.equal(parseRetryAfter(['3', '9'], now), 3000);
  });
  it('reads an HTTP date, past dates meaning now', () => {
    assert.equal(parseRetryAfter(new Date(now + 4000).toUTCString(), now), 4000);
    assert.equal(parseRetryAfter(new Date(now - 4000).toUTCString(), now), 0);
  });
  it('ignores absent or unreadable values and caps absurd ones', () => {
    assert.equal(parseRetryAfter(undefined, now), undefined);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter('-1', now), undefined);
    assert.equal(parseRetryAfter('99999', now), 60_000);
  });
  it('reads the plausible shapes of retryGuidance', () => {
    assert.equal(retryDelayFromBody({ retryGuidance: { retryAfterMs: 250 } }), 250);
    assert.equal(retryDelayFromBody({ retryGuidance: { retryAfterSeconds: 2 } }), 2000);
    assert.equal(retryDelayFromBody({ retryGuidance: { retryAfter: '1' } }), 1000);
    assert.equal(retryDelayFromBody({ error: { code: 429, retryGuidance: { delayMs: 10 } } }), 10);
    assert.equal(retryDelayFromBody({ retryGuidance: 300 }), 300);
    assert.equal(retryDelayFromBody({ retryGuidance: { note: 'later' } }), undefined);
    assert.equal(retryDelayFromBody('text'), undefined);
  });
  it('backs off exponentially with jitter, capped', () => {
    assert.equal(backoffDelay(0, { baseMs: 100, random: () => 0 }), 50);
    assert.equal(backoffDelay(0, { baseMs: 100, random: () => 1 }), 100);
    assert.equal(backoffDelay(3, { baseMs: 100, random: () => 1 }), 800);
    assert.equal(backoffDelay(10, { baseMs: 100, maxMs: 1000, random: () => 1 }), 1000);
  });
});

describe('api: redaction', () => {
  it('removes known secrets wherever they appear', () => {
    const secrets = new SecretSet();
    secrets.add('sdk_abcdef123456', 'hunter22', 'ab');
    const out = redact('key sdk_abcdef123456 and pw hunter22 and ab stays', secrets);
    assert.equal(out, `key ${REDACTED} and pw ${REDACTED} and ab stays`);
  });
  it('removes secret-looking patterns it was never told about', () => {
    const text = [
      'Authorization: Bearer eyJhbGciOi.J9abc',
      'x-api-key: sdk_zzzzzzzz',
      '{"username":"ada","password":"p@ss\\"w","refresh_token":"r1","access_token":"a1"}',
      'GET /x?token=abc&taskGroupId=12',
    ].join('\n');
    const out = redact(text);
    for (const secret of ['eyJhbGciOi', 'sdk_zzzzzzzz', 'p@ss', 'r1"', 'a1"', 'token=abc'])
      assert.ok(!out.includes(secret), `${secret} in ${out}`);
    assert.ok(out.includes('"username":"ada"'));
    assert.ok(out.includes('taskGroupId=12'));
  });
  it('removes each pattern on its own (text without the words a pattern needs skips the patterns)', () => {
    const alone: [string, string][] = [
      ['Authorization=Basic dXNlcjpwYXNz', 'dXNlcjpwYXNz'],
      ['sent with bearer abc.def-ghi', 'abc.def-ghi'],
      ['X-API-KEY: sdk_abc', 'sdk_abc'],
      ['{"hubApiKey":"hub-secret"}', 'hub-secret'],
      ['{"accessToken":"acc-secret"}', 'acc-secret'],
      ['{"api_key":"k-secret"}', 'k-secret'],
      ['{"PASSWORD":"pw-secret"}', 'pw-secret'],
      ['GET /x?apikey=q-secret', 'q-secret'],
      ['GET /x?api_key=u-secret&y=1', 'u-secret'],
      ['GET /x?refresh_token=r-secret', 'r-secret'],
    ];
    for (const [text, secret] of alone) assert.ok(!redact(text).includes(secret), `${secret} left in ${redact(text)}`);
    assert.equal(
      redact('GET /taskGroup 200 3ms requestId=abc retries=0'),
      'GET /taskGroup 200 3ms requestId=abc retries=0',
    );
  });
  it('removes a secret added after the set was first used', () => {
    const secrets = new SecretSet();
    secrets.add('first-secret');
    assert.equal(redact('first-secret second-secret', secrets), `${REDACTED} second-secret`);
    secrets.add('second-secret', 'first-secret-and-more');
    assert.equal(redact('first-secret-and-more second-secret', secrets), `${REDACTED} ${REDACTED}`);
  });
  it('redacts credential headers, keeps the rest', () => {
    assert.deepEqual(redactHeaders({ 'x-api-key': 'k', Authorization: 'Bearer t', accept: 'application/json' }), {
      'x-api-key': REDACTED,
      Authorization: REDACTED,
      accept: 'application/json',
    });
  });
});

describe('api: app references', () => {
  it('encodes each part and joins them with a literal slash', () => {
    assert.equal(appRefPath('ada/price-tracker'), 'ada/price-tracker');
    assert.equal(appRefPath(' acme/ü%x '), `acme/${encodeURIComponent('ü%x')}`);
    assert.equal(appRefPath('a?b/c#d'), 'a%3Fb/c%23d');
  });
  for (const bad of ['', 'price-tracker', 'a/b/c', '/b', 'a/', 'a b/c', '../x/..', '../x', './x', 'ada/..', 'ada/.']) {
    it(`refuses "${bad}" before sending`, () => {
      assert.throws(() => appRefPath(bad), isApiError('invalid-request', 'appRef'));
    });
  }
  it('refuses a reference longer than 200 characters, quoting only its start (a megabyte is neither sent nor echoed)', async () => {
    assert.equal(appRefPath(`ada/${'x'.repeat(196)}`).length, 200);
    const huge = `ada/${'x'.repeat(1_000_000)}`;
    assert.throws(() => appRefPath(huge), isApiError('invalid-request', 'appRef'));
    let message = '';
    try {
      appRefPath(`ada/${'x'.repeat(197)}`);
    } catch (e) {
      message = e instanceof Error ? e.message : '';
    }
    assert.match(message, /^Invalid app reference "ada\/x{75}…": an app reference has at most 200 characters$/);
    // Through the client: refused before any request, with the same short sentence.
    const server = new RecordingServer();
    await server.start();
    const client = new ScrapedeckClient({
      baseUrl: server.baseUrl,
      datahubUrl: `${server.baseUrl}/hub`,
      credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: 'sdk_test_key_1234' }),
      env: {},
    });
    try {
      await assert.rejects(client.deprecateApp(huge), (e: unknown) => e instanceof Error && e.message.length < 200);
      assert.deepEqual(server.seen, []);
    } finally {
      await client.close();
      await server.close();
    }
    // An agent's input is refused the same way, and its answer does not echo the reference.
    const call = findTool('scrapedeck_deprecate_app')?.parse({ app: huge }, english);
    assert.equal(call?.ok, false);
    assert.ok(
      call !== undefined && !call.ok && call.text.length < 300 && /at most 200 characters/.test(call.text),
      call && !call.ok ? call.text.slice(0, 300) : '',
    );
  });
  it('still takes parts that merely contain dots', () => {
    assert.equal(appRefPath('my.org/app..v2'), 'my.org/app..v2');
    assert.equal(appRefPath('.hidden/x'), '.hidden/x');
  });
  it('the settings pattern in package.json is the same rule', () => {
    const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { items?: { pattern?: string } }> } };
    };
    const pattern = manifest.contributes.configuration.properties['scrapedeck.trackedApps']?.items?.pattern;
    assert.equal(pattern, APP_REF_RE.source.replace(/\\\//g, '/'));
  });
});

describe('api: https rule', () => {
  it('knows loopback hosts', () => {
    for (const h of ['localhost', 'LOCALHOST', '127.0.0.1', '127.255.0.9', '::1', '[::1]'])
      assert.ok(isLoopbackHost(h), h);
    // *.localhost goes to the system resolver, which may send it anywhere.
    for (const h of [
      'api.localhost',
      '128.0.0.1',
      '127.0.0.256',
      'localhost.example.com',
      '10.0.0.1',
      'example.com',
      '::2',
    ])
      assert.ok(!isLoopbackHost(h), h);
  });
  it('accepts https anywhere and http only on loopback, trimming the trailing slash', () => {
    assert.equal(checkBaseUrl('https://openapi.octoparse.com/', 'baseUrl'), 'https://openapi.octoparse.com');
    assert.equal(checkBaseUrl('http://127.0.0.1:8080/api/', 'baseUrl'), 'http://127.0.0.1:8080/api');
    assert.equal(checkBaseUrl('http://[::1]:9/', 'datahubUrl'), 'http://[::1]:9');
    assert.throws(
      () => checkBaseUrl('http://openapi.octoparse.com', 'baseUrl'),
      (e: unknown) => isApiError('invalid-request', 'baseUrl')(e) && /https/.test((e as Error).message),
    );
    assert.throws(() => checkBaseUrl('ftp://x', 'baseUrl'), isApiError('invalid-request', 'baseUrl'));
    assert.throws(() => checkBaseUrl('not a url', 'baseUrl'), isApiError('invalid-request', 'baseUrl'));
  });
  it('the client refuses a plain-http remote base URL at construction', () => {
    assert.throws(
      () => new ScrapedeckClient({ baseUrl: 'http://example.com', credentials: new MemoryCredentialsStore(), env: {} }),
      isApiError('invalid-request', 'baseUrl'),
    );
    assert.throws(
      () =>
        new ScrapedeckClient({
          baseUrl: 'https://example.com',
          datahubUrl: 'http://hub.example.com',
          credentials: new MemoryCredentialsStore(),
          env: {},
        }),
      isApiError('invalid-request', 'datahubUrl'),
    );
  });
});

describe('api: proxy selection', () => {
  it('goes direct without proxy settings', () => {
    assert.equal(proxyConfig(undefined, {}), undefined);
    assert.equal(proxyConfig('', { HTTPS_PROXY: '  ' }), undefined);
  });
  it('reads HTTPS_PROXY / HTTP_PROXY / NO_PROXY, lower case first', () => {
    assert.deepEqual(proxyConfig(undefined, { HTTPS_PROXY: 'http://p:3128', NO_PROXY: 'localhost,.corp' }), {
      httpsProxy: 'http://p:3128/',
      noProxy: 'localhost,.corp',
    });
    assert.deepEqual(proxyConfig(undefined, { http_proxy: 'http://low:1', HTTP_PROXY: 'http://up:2' }), {
      httpProxy: 'http://low:1/',
      noProxy: '',
    });
  });
  it('an explicit proxyUrl wins over the environment and serves both schemes', () => {
    assert.deepEqual(proxyConfig('http://explicit:8080', { HTTPS_PROXY: 'http://env:1', NO_PROXY: '*.internal' }), {
      httpProxy: 'http://explicit:8080/',
      httpsProxy: 'http://explicit:8080/',
      noProxy: '*.internal',
    });
  });
  it('refuses a proxy that is not http(s)', () => {
    assert.throws(() => proxyConfig('socks://x:1', {}), isApiError('invalid-request', 'proxyUrl'));
  });
  it('reads a scheme-less environment proxy as http://, as curl does', () => {
    assert.deepEqual(proxyConfig(undefined, { HTTPS_PROXY: 'proxy.corp:3128' }), {
      httpsProxy: 'http://proxy.corp:3128/',
      noProxy: '',
    });
  });
  it('names an unusable environment proxy without repeating its password', () => {
    assert.throws(
      () => proxyConfig(undefined, { HTTPS_PROXY: 'http://user:s3cret@[bad' }),
      (e: unknown) =>
        isApiError('invalid-request', 'proxyUrl')(e) &&
        /HTTPS_PROXY environment variable/.test((e as Error).message) &&
        !(e as Error).message.includes('s3cret'),
    );
  });
  it('refuses a proxy password with a stray % by name, not with a URIError', () => {
    for (const make of [
      () => proxyConfig('http://user:p%zz@127.0.0.1:9', {}),
      () =>
        new ScrapedeckClient({
          baseUrl: 'http://127.0.0.1:9',
          credentials: new MemoryCredentialsStore(),
          proxyUrl: 'http://user:p%zz@127.0.0.1:9',
          env: {},
        }),
    ]) {
      assert.throws(
        make,
        (e: unknown) =>
          isApiError('invalid-request', 'proxyUrl')(e) &&
          /not a valid escape/.test((e as Error).message) &&
          !(e as Error).message.includes('p%zz'),
      );
    }
  });
  it('masks credentials before the last @ in any quoted address', () => {
    assert.equal(maskUserinfo('http://u:p@proxy:1'), 'http://***@proxy:1');
    assert.equal(maskUserinfo('u:p@ss@proxy:1'), '***@proxy:1');
    assert.equal(maskUserinfo('https://openapi.octoparse.com'), 'https://openapi.octoparse.com');
  });

  describe('through a local proxy (loopback only)', () => {
    let target: http.Server;
    let proxy: http.Server;
    let targetUrl = '';
    let proxyUrl = '';
    const tunnels: string[] = [];
    before(async () => {
      target = http.createServer((_req, res) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ data: [{ taskGroupId: '1', taskGroupName: 'g' }], requestId: 'r-proxy' }));
      });
      proxy = http.createServer((_req, res) => {
        res.statusCode = 502;
        res.end();
      });
      proxy.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
        tunnels.push(req.url ?? '');
        const [host, port] = (req.url ?? '').split(':');
        const upstream = net.connect(Number(port), host, () => {
          socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          upstream.write(head);
          upstream.pipe(socket);
          socket.pipe(upstream);
        });
        upstream.on('error', () => socket.destroy());
        socket.on('error', () => upstream.destroy());
      });
      await Promise.all([listen(target), listen(proxy)]);
      targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
      proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    });
    after(async () => {
      await Promise.all([close(target), close(proxy)]);
    });

    const call = async (options: { proxyUrl?: string; env: Record<string, string> }): Promise<void> => {
      const client = new ScrapedeckClient({
        baseUrl: targetUrl,
        credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: 'sdk_proxytest' }),
        ...options,
      });
      try {
        const groups = await client.listTaskGroups();
        assert.equal(groups.requestId, 'r-proxy');
      } finally {
        await client.close();
      }
    };

    it('uses HTTP_PROXY from the injected environment', async () => {
      tunnels.length = 0;
      await call({ env: { HTTP_PROXY: proxyUrl } });
      assert.equal(tunnels.length, 1);
    });
    it('uses an explicit proxyUrl', async () => {
      tunnels.length = 0;
      await call({ proxyUrl, env: {} });
      assert.equal(tunnels.length, 1);
    });
    it('bypasses the proxy for NO_PROXY hosts', async () => {
      tunnels.length = 0;
      await call({ env: { HTTP_PROXY: proxyUrl, NO_PROXY: '127.0.0.1' } });
      assert.equal(tunnels.length, 0);
    });
    it('connects directly without proxy settings', async () => {
      tunnels.length = 0;
      await call({ env: {} });
      assert.equal(tunnels.length, 0);
    });
  });
});

function listen(server: http.Server): Promise<void> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
}
function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
