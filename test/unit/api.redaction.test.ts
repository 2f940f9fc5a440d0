/**
 * A secret the client knows never leaves it in an error or a log line, even when the other side
 * hands it back: a server error whose message repeats the API key or the password, a network
 * error whose text holds the key, a request id that echoes it. Each test feeds the secret in
 * through one door and fails if that door's redaction alone is removed (transport.ts for the
 * network error and the log line, replies.ts for the server's message).
 */
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { MockAgent } from 'undici';

import { MemoryCredentialsStore } from '../../src/api/auth/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors/errors';
import { UnlimitedLimiter } from '../../src/api/http/limiter';

const KEY = 'sdk_live_9f8e7d6c5b4a39281706';
const PASSWORD = 'correct horse battery staple';

async function failure(call: () => Promise<unknown>): Promise<ApiError> {
  try {
    await call();
  } catch (e) {
    assert.ok(e instanceof ApiError, `an ApiError, got ${String(e)}`);
    return e;
  }
  assert.fail('the call succeeded');
}

function assertClean(text: string, ...secrets: string[]): void {
  for (const secret of secrets) assert.ok(!text.includes(secret), `the secret is in: ${text}`);
  assert.match(text, /\[redacted\]/, 'the secret was replaced, not dropped with the rest of the text');
}

describe('api: a secret fed back by the other side is redacted', () => {
  let server: Server;
  let baseUrl: string;
  let next: { status: number; body: unknown; requestId?: string } = { status: 200, body: {} };

  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(next.status, {
          'content-type': 'application/json',
          ...(next.requestId ? { 'x-request-id': next.requestId } : {}),
        });
        res.end(JSON.stringify(next.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  const client = (log?: (line: string) => void) =>
    new ScrapedeckClient({
      baseUrl,
      credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: KEY }),
      env: {},
      maxRetries: 0,
      limiter: new UnlimitedLimiter(),
      log,
    });

  it('a server error whose message repeats the API key: the error says what the server said, without the key', async () => {
    next = {
      status: 400,
      body: { requestId: 'req-1', error: { code: 'InvalidParameter', message: `Key ${KEY} may not list task groups` } },
    };
    const c = client();
    try {
      const e = await failure(() => c.listTaskGroups());
      assert.match(e.message, /may not list task groups/, "the service's own words are kept");
      assertClean(e.message, KEY);
    } finally {
      await c.close();
    }
  });

  it('a sign-in refused with the password repeated back: the error holds no password', async () => {
    next = {
      status: 400,
      body: {
        requestId: 'req-2',
        error: { code: 'Invalid.Grant', message: `password "${PASSWORD}" is wrong for ada` },
      },
    };
    const c = client();
    try {
      const e = await failure(() => c.obtainToken('ada', PASSWORD));
      assertClean(e.message, PASSWORD);
    } finally {
      await c.close();
    }
  });

  it('a request id that echoes the API key: the log line holds no key', async () => {
    next = { status: 200, body: { requestId: `id-${KEY}`, data: [] }, requestId: `id-${KEY}` };
    const lines: string[] = [];
    const c = client((line) => lines.push(line));
    try {
      await c.listTaskGroups();
      assert.equal(lines.length, 1, lines.join('\n'));
      assertClean(lines.join('\n'), KEY);
    } finally {
      await c.close();
    }
  });

  it('a request whose address holds the API key (pasted into a field): the log line holds no key', async () => {
    next = { status: 200, body: { requestId: 'req-3', data: [] } };
    const lines: string[] = [];
    const c = client((line) => lines.push(line));
    try {
      await c.searchTasks(KEY);
      assert.equal(lines.length, 1, lines.join('\n'));
      assert.match(lines[0] ?? '', /GET \/task\/search\?taskGroupId=/, 'the line names the request');
      assertClean(lines.join('\n'), KEY);
    } finally {
      await c.close();
    }
  });

  it("a request id that echoes the API key, as the client hands it on: the result's and the error's id hold no key", async () => {
    // What "Copy Request ID" and a language-model tool's failure text show: nothing redacts it after the client.
    const c = client();
    try {
      next = { status: 200, body: { requestId: `ok-${KEY}`, data: [] } };
      const ok = await c.listTaskGroups();
      assert.ok(ok.requestId !== undefined);
      assertClean(ok.requestId, KEY);
      next = {
        status: 400,
        body: { requestId: `bad-${KEY}`, error: { code: 'InvalidParameter', message: 'no' } },
        requestId: `bad-${KEY}`,
      };
      const e = await failure(() => c.listTaskGroups());
      assert.ok(e.requestId !== undefined);
      assertClean(e.requestId, KEY);
    } finally {
      await c.close();
    }
  });
});

describe('api: a network error that holds a secret is redacted', () => {
  it('the connection fails with the API key in its text: the error says it could not reach the service, without the key', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent
      .get('https://api.example.test')
      .intercept({ path: '/taskGroup', method: 'GET' })
      .replyWithError(new Error(`proxy refused CONNECT with x-api-key ${KEY}`));
    const c = new ScrapedeckClient({
      baseUrl: 'https://api.example.test',
      credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: KEY }),
      env: {},
      maxRetries: 0,
      limiter: new UnlimitedLimiter(),
      dispatcher: agent,
    });
    try {
      const e = await failure(() => c.listTaskGroups());
      assert.equal(e.kind, 'network');
      assert.match(e.message, /Could not reach the service/);
      assertClean(e.message, KEY);
    } finally {
      await c.close();
      await agent.close();
    }
  });
});
