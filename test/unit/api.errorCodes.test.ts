/**
 * Errors by code, not only by status (issue 28 item 5): every error example of the published
 * document sits under HTTP 400, `ServerError` ("Internal Server Error") included. A code the
 * document shows decides the error's kind whatever the status: a ServerError is a server fault,
 * retried within the budget where the operation may be repeated; Invalid.Grant on a refresh means
 * signing in again; the others (InvalidTaskId, InvalidParameter…) keep their meaning.
 */
import * as assert from 'node:assert/strict';

import { MemoryCredentialsStore } from '../../src/api/auth/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { kindOfKnownCode } from '../../src/api/errors/errorCodes';
import { UnlimitedLimiter } from '../../src/api/http/limiter';
import { fails } from './helpers/apiFailure';
import { errorAnswer, okReply, RecordingServer } from './helpers/recordingServer';

describe('api: errors by code (the published examples are all HTTP 400)', function () {
  const server = new RecordingServer();
  const now = Date.parse('2026-11-22T12:00:00Z');
  let expired = 0;
  const make = (credentials: MemoryCredentialsStore): ScrapedeckClient =>
    new ScrapedeckClient({
      baseUrl: server.baseUrl,
      credentials,
      limiter: new UnlimitedLimiter(),
      backoffBaseMs: 1,
      random: () => 0.5,
      now: () => now,
      env: {},
      maxRetries: 3,
      onSessionExpired: () => expired++,
    });
  let client: ScrapedeckClient;
  const serverError = () => errorAnswer(400, 'ServerError', 'Internal Server Error', 'req-400');

  before(() => server.start());
  beforeEach(() => {
    expired = 0;
    client = make(new MemoryCredentialsStore({ kind: 'apiKey', apiKey: 'sdk_codes_test_key' }));
  });
  afterEach(() => client.close());
  after(() => server.close());

  it('a read answered 400 ServerError is retried, and succeeds when the fault passes', async () => {
    server.reset((_s, i) => (i < 2 ? serverError() : okReply([{ taskGroupId: 1, taskGroupName: 'A' }])));
    const r = await client.listTaskGroups();
    assert.deepEqual(r.data, [{ taskGroupId: '1', taskGroupName: 'A' }]);
    assert.equal(server.seen.length, 3);
  });

  it('a read answered 400 ServerError until the budget runs out is a server fault, not "rejected the request"', async () => {
    server.reset(serverError);
    const e = await fails(client.getData('t1', { offset: 0, size: 10 }));
    assert.equal(server.seen.length, 4, 'the first try and 3 retries');
    assert.deepEqual(
      [e.kind, e.status, e.code, e.requestId, e.retryable],
      ['server', 400, 'ServerError', 'req-400', true],
    );
    assert.match(e.message, /The service failed to get the data of task t1/);
    assert.doesNotMatch(e.message, /rejected the request/);
  });

  it('an error envelope with ServerError on HTTP 200 is a server fault too', async () => {
    server.reset((_s, i) =>
      i === 0
        ? { status: 200, body: { error: { code: 'ServerError', message: 'Internal Server Error' }, requestId: 'r' } }
        : okReply([]),
    );
    assert.deepEqual((await client.getTaskStatuses(['a'])).data, []);
    assert.equal(server.seen.length, 2);
  });

  it('a start answered 400 ServerError is not sent again: it may have been carried out', async () => {
    server.reset(serverError);
    const e = await fails(client.startTask('t1'));
    assert.equal(server.seen.length, 1);
    assert.deepEqual([e.kind, e.maybeApplied, e.retryable], ['server', true, false]);
    assert.match(e.message, /may have been carried out/);
  });

  it('the other published codes keep their meaning under HTTP 400, and are not retried', async () => {
    const cases: [string, string, (c: ScrapedeckClient) => Promise<unknown>][] = [
      ['InvalidTaskId', 'not-found', (c) => c.copyTask('nope')],
      ['InvalidParameter', 'invalid-request', (c) => c.searchTasks('1')],
      [
        'InvalidParameter.Required',
        'invalid-request',
        (c) =>
          c.updateActionProperties('t1', [
            { actionType: 'LoopAction', actionId: 'a', properties: [{ name: 'name', value: 'x' }] },
          ]),
      ],
      [
        'TaskUpdateFail',
        'invalid-request',
        (c) =>
          c.updateLoopItems({
            taskId: 't1',
            actionId: 'a',
            loopType: 'URLList',
            loopItems: ['https://a.example'],
            isAppend: false,
          }),
      ],
    ];
    for (const [code, kind, call] of cases) {
      server.reset(() => errorAnswer(400, code, 'as published'));
      const e = await fails(call(client));
      assert.deepEqual([e.kind, e.code, server.seen.length], [kind, code, 1], code);
    }
  });

  it('codes are matched as the document writes them, whatever their case; unknown codes are left to the status', () => {
    assert.equal(kindOfKnownCode('ServerError'), 'server');
    assert.equal(kindOfKnownCode('servererror'), 'server');
    assert.equal(kindOfKnownCode('Invalid.Grant'), 'auth');
    assert.equal(kindOfKnownCode('SomethingElse'), undefined);
    assert.equal(kindOfKnownCode(50000), undefined);
  });

  describe('on a refresh', () => {
    const session = () =>
      new MemoryCredentialsStore({
        kind: 'session',
        session: {
          accessToken: 'old-access',
          refreshToken: 'old-refresh',
          tokenType: 'Bearer',
          expiresAt: now - 1,
          issuedAt: now - 3_600_000,
        },
      });

    it('Invalid.Grant (HTTP 400) is a sign-in problem: the session is over, and nothing else is sent', async () => {
      client = make(session());
      server.reset(() => ({
        status: 400,
        body: { error: { code: 'Invalid.Grant', message: 'The refresh token is invalid.' }, requestId: 'r-grant' },
      }));
      const e = await fails(client.listTaskGroups());
      assert.equal(e.kind, 'auth');
      assert.match(e.message, /sign in again/);
      assert.equal(expired, 1);
      assert.deepEqual(server.paths(), ['POST /token']);
    });

    it('ServerError (HTTP 400) is a server fault, not a sign-out: the session may still be renewed later', async () => {
      client = make(session());
      server.reset(serverError);
      const e = await fails(client.listTaskGroups());
      assert.equal(e.kind, 'server');
      assert.equal(expired, 0, 'not signed out');
      server.reset((s) =>
        s.path === '/token'
          ? okReply({
              access_token: 'new-access',
              expires_in: 3600,
              token_type: 'Bearer',
              refresh_token: 'new-refresh',
            })
          : okReply([]),
      );
      assert.deepEqual((await client.listTaskGroups()).data, []);
    });
  });
});
