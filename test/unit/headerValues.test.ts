/**
 * Keys, tokens, the external user id and member names that cannot be sent: refused where they are
 * typed, read from settings or received, with the character named, and never put on the wire
 * (they used to fail at the header layer as a "network error", retried four times).
 */
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { type Credentials, MemoryCredentialsStore } from '../../src/api/auth/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors/errors';
import { checkAnalyticsQuery } from '../../src/api/schemas/analyticsQuery';
import { headerValueProblem } from '../../src/api/schemas/headerValues';
import { validateSettings } from '../../src/platform/settings';

describe('header values: what cannot be sent is refused before the wire, by name', () => {
  let server: Server;
  let baseUrl: string;
  let requests = 0;
  let tokenReply: unknown = {};
  before(async () => {
    server = createServer((req, res) => {
      requests++;
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(req.url === '/token' ? tokenReply : { data: [], requestId: 'r-1' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  const client = (credentials: Credentials | undefined, externalUserId?: string) =>
    new ScrapedeckClient({
      baseUrl,
      credentials: new MemoryCredentialsStore(credentials),
      maxRetries: 4,
      externalUserId,
    });

  async function refusal(c: ScrapedeckClient, call: (c: ScrapedeckClient) => Promise<unknown>): Promise<ApiError> {
    const before = requests;
    try {
      await call(c);
      assert.fail('the call succeeded');
    } catch (e) {
      assert.ok(e instanceof ApiError, String(e));
      assert.equal(requests, before, 'nothing reached the server');
      return e;
    } finally {
      await c.close();
    }
  }

  for (const [name, key, named] of [
    ['CR/LF', 'sdk_abc\r\nx-evil: 1', /a carriage return \(CR\) \(U\+000D\) at position 8/],
    ['NUL', 'sdk_abc\u0000def', /a NUL character \(U\+0000\) at position 8/],
    [
      'a character beyond Latin-1',
      'sdk_abc€def',
      /"€" \(U\+20AC\), which is not a Latin-1 character, at position 8|"€" \(U\+20AC\), which is not a Latin-1 character at position 8/,
    ],
  ] as const) {
    it(`a stored API key with ${name}: an auth error that names it, not a retried network error`, async () => {
      const e = await refusal(client({ kind: 'apiKey', apiKey: key }), (c) => c.listTaskGroups());
      assert.equal(e.kind, 'auth');
      assert.match(e.message, named);
      assert.ok(!e.message.includes(key), 'the key itself is not repeated');
    });
  }

  it('an external user id with a line break: refused by name before sending', async () => {
    const e = await refusal(client({ kind: 'apiKey', apiKey: 'sdk_good_key_1' }, 'user\n1'), (c) => c.listTaskGroups());
    assert.equal(e.kind, 'invalid-request');
    assert.match(e.message, /external user id .* contains a line break \(LF\)/);
  });

  it('a token the service hands out that could not be sent back is refused when received', async () => {
    tokenReply = {
      data: { access_token: 'acc\r\nx', refresh_token: 'ref-1', token_type: 'Bearer', expires_in: 3600 },
      requestId: 'r-2',
    };
    const c = client(undefined);
    try {
      await assert.rejects(
        c.obtainToken('ada', 'pw'),
        (e: unknown) => e instanceof ApiError && e.kind === 'bad-response' && /access_token/.test(e.message),
      );
    } finally {
      await c.close();
    }
  });

  it('the settings refuse such an external user id and say which character', () => {
    const { values, problems } = validateSettings({ externalUserId: 'team\r\nlead' });
    assert.equal(values.externalUserId, undefined);
    assert.equal(problems.length, 1);
    assert.match(problems[0]?.message ?? JSON.stringify(problems[0]), /carriage return \(CR\)/);
  });

  it('member names with control characters are refused before a query is sent', () => {
    const today = new Date().toISOString().slice(0, 10);
    const check = checkAnalyticsQuery({ start: today, end: today, memberNames: ['ada', 'grace\u0007'] }, today);
    assert.equal(check.ok, false);
  });

  it('plain ASCII and Latin-1 pass', () => {
    assert.equal(headerValueProblem('sdk_AbC-123._~', 'k'), undefined);
    assert.equal(headerValueProblem('Zoë Müller', 'k'), undefined);
  });
});
