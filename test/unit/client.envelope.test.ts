/**
 * An error envelope (`error.code` + `error.message`) is that error whatever the HTTP status: the
 * spec leaves some statuses "not specified", and a 200 carrying `{ error }` used to be reported
 * as "does not match the spec at data" instead of the service's own code and message.
 */
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { MemoryCredentialsStore } from '../../src/api/auth/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors/errors';
import { kindOfCode } from '../../src/api/http/replies';

describe('client: an error envelope is an error whatever its status', () => {
  let server: Server;
  let baseUrl: string;
  /** What the server answers next: status and body. */
  let next: { status: number; body: unknown } = { status: 200, body: {} };

  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(next.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(next.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  const client = () =>
    new ScrapedeckClient({
      baseUrl,
      datahubUrl: `${baseUrl}/hub`,
      credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: 'sdk_test_key_1234' }),
      maxRetries: 0,
    });

  async function failure(call: (c: ScrapedeckClient) => Promise<unknown>): Promise<ApiError> {
    const c = client();
    try {
      await call(c);
    } catch (e) {
      assert.ok(e instanceof ApiError, `an ApiError, got ${String(e)}`);
      return e;
    } finally {
      await c.close();
    }
    assert.fail('the call succeeded');
  }

  it("token: Invalid.Grant on HTTP 200 is the service's sign-in error, with its message and request id", async () => {
    next = {
      status: 200,
      body: {
        error: { code: 'Invalid.Grant', message: 'The username or password is incorrect.' },
        requestId: 'req-tok-1',
      },
    };
    const e = await failure((c) => c.obtainToken('ada', 'wrong'));
    assert.equal(e.kind, 'auth');
    assert.equal(e.code, 'Invalid.Grant');
    assert.equal(e.message, 'The username or password is incorrect.');
    assert.equal(e.requestId, 'req-tok-1');
    assert.doesNotMatch(e.message, /does not match the spec/);
  });

  it('task groups: a string code on HTTP 200 keeps its code, message and request id', async () => {
    next = {
      status: 200,
      body: { error: { code: 'InvalidParameter', message: 'taskGroupId is not valid' }, requestId: 'req-grp-2' },
    };
    const e = await failure((c) => c.listTaskGroups());
    assert.equal(e.kind, 'invalid-request');
    assert.equal(e.code, 'InvalidParameter');
    assert.match(e.message, /taskGroupId is not valid/);
    assert.match(e.message, /code InvalidParameter/);
    assert.equal(e.requestId, 'req-grp-2');
  });

  it('analytics: an integer code on HTTP 200 reads as the status it starts with', async () => {
    next = {
      status: 200,
      body: { error: { code: 40300, message: 'This account is on the Free plan' }, requestId: 'req-ana-3' },
    };
    const e = await failure((c) =>
      c.queryTaskAnalytics({
        start: new Date().toISOString().slice(0, 10),
        end: new Date().toISOString().slice(0, 10),
      }),
    );
    assert.equal(e.kind, 'forbidden');
    assert.equal(e.code, 40300);
    assert.match(e.message, /Free plan/);
    assert.equal(e.requestId, 'req-ana-3');
  });

  it("hub: the hub's shape on HTTP 200 is an error too", async () => {
    next = {
      status: 200,
      body: { error: { code: 'not_found', category: 'not_found', message: 'No such app', retryable: false } },
    };
    const e = await failure((c) => c.deprecateApp('ada/lead-finder'));
    assert.equal(e.kind, 'not-found');
    assert.equal(e.category, 'not_found');
    assert.match(e.message, /No such app/);
  });

  it("refresh: a refused refresh token on HTTP 200 keeps the service's code and request id", async () => {
    next = {
      status: 200,
      body: {
        error: { code: 'Invalid.Grant', message: 'The refresh token has already been used.' },
        requestId: 'req-ref-5',
      },
    };
    const e = await failure((c) => c.refreshToken('rt-used'));
    assert.equal(e.kind, 'auth');
    assert.equal(e.code, 'Invalid.Grant');
    assert.match(e.message, /already been used/);
    assert.equal(e.requestId, 'req-ref-5');
  });

  it('task search: a string code on HTTP 200 is that error (InvalidTaskId, the published code for an unknown id: not found)', async () => {
    next = {
      status: 200,
      body: { error: { code: 'InvalidTaskId', message: 'No such task group' }, requestId: 'req-sea-6' },
    };
    const e = await failure((c) => c.searchTasks('42'));
    assert.equal(e.kind, 'not-found');
    assert.equal(e.code, 'InvalidTaskId');
    assert.equal(e.requestId, 'req-sea-6');
  });

  it('fetch all pages: an envelope on HTTP 200 stops the fetch with that error', async () => {
    next = { status: 200, body: { error: { code: 42900, message: 'Slow down' }, requestId: 'req-all-7' } };
    const today = new Date().toISOString().slice(0, 10);
    const e = await failure((c) => c.queryAllTaskAnalytics({ start: today, end: today }));
    assert.equal(e.code, 42900);
    assert.equal(e.requestId, 'req-all-7');
  });

  it("hub: a request id sent with the hub's error is kept", async () => {
    next = {
      status: 200,
      body: {
        error: { code: 'not_found', category: 'not_found', message: 'No such app', retryable: false },
        requestId: 'req-hub-8',
      },
    };
    const e = await failure((c) => c.deprecateApp('ada/lead-finder'));
    assert.equal(e.kind, 'not-found');
    assert.equal(e.requestId, 'req-hub-8');
  });

  it('a success envelope is still a success', async () => {
    next = { status: 200, body: { data: [{ taskGroupId: 7, taskGroupName: 'G' }], requestId: 'req-ok' } };
    const c = client();
    try {
      const r = await c.listTaskGroups();
      assert.equal(r.requestId, 'req-ok');
      assert.equal(r.data.length, 1);
    } finally {
      await c.close();
    }
  });

  it('maps codes to kinds: integers by their status, names by their words', () => {
    assert.equal(kindOfCode(40101), 'auth');
    assert.equal(kindOfCode('40300'), 'forbidden');
    assert.equal(kindOfCode(42900), 'rate-limited');
    assert.equal(kindOfCode(50000), 'server');
    assert.equal(kindOfCode('InvalidTaskId'), 'invalid-request');
    assert.equal(kindOfCode('InvalidParameter.Required'), 'invalid-request');
    assert.equal(kindOfCode('TaskUpdateFail'), 'invalid-request');
    assert.equal(kindOfCode('ServerError'), 'server');
    assert.equal(kindOfCode('unauthorized'), 'auth');
    assert.equal(kindOfCode(undefined), 'server');
  });
});
