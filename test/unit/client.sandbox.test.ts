/**
 * Every operation and every error case of the spec, through the client, against the real
 * sandbox on an ephemeral port (its 20 req/s limit on, as the service's).
 */
import * as assert from 'node:assert/strict';

import { type Credentials, sessionFromToken } from '../../src/api/auth/auth';
import { type ClientOptions, type FetchAllProgress, ScrapedeckClient } from '../../src/api/client';
import { addDays, earliestStart, todayUtc } from '../../src/api/schemas/dates';
import { buildWorld } from '../../src/sandbox/seed/seed';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';
import { assertNoSecrets, isKind, LogCapture, SecretsSeen, TrackingStore } from './helpers/clientHarness';

const SEED = 11;

describe('client: every operation and error against the sandbox', function () {
  let sandbox: RunningSandbox;
  const logs = new LogCapture();
  const seen = new SecretsSeen();
  const world = buildWorld(SEED);
  const clients: ScrapedeckClient[] = [];
  const today = todayUtc();

  before(async () => {
    sandbox = await startSandbox({ seed: SEED, log: logs.sink });
    seen.accounts(sandbox.info);
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await sandbox.close();
  });

  const account = (username: string) => {
    const a = sandbox.info.accounts.find((x) => x.username === username);
    assert.ok(a, username);
    return a;
  };
  const client = (creds?: Credentials, extra: Partial<ClientOptions> = {}): ScrapedeckClient => {
    const c = new ScrapedeckClient({
      baseUrl: sandbox.info.baseUrl,
      datahubUrl: sandbox.info.datahubUrl,
      credentials: new TrackingStore(seen, creds),
      env: {},
      log: logs.sink,
      ...extra,
    });
    clients.push(c);
    return c;
  };
  const keyClient = (username: string, extra: Partial<ClientOptions> = {}) =>
    client({ kind: 'apiKey', apiKey: account(username).apiKey }, extra);
  const noRequestsDuring = async (fn: () => Promise<unknown>): Promise<void> => {
    const before = sandbox.stats.requests;
    await fn();
    assert.equal(sandbox.stats.requests, before, 'a request reached the sandbox');
  };

  describe('tokens', () => {
    it('obtains a token with the password grant (expires_in as a numeric string)', async () => {
      const ada = account('ada');
      const result = await client().obtainToken(ada.username, ada.password);
      seen.token(result.data);
      assert.equal(result.data.token_type, 'Bearer');
      assert.equal(result.data.expires_in, 7200);
      assert.ok(result.requestId);
    });

    it('a wrong password is an auth error with Invalid.Grant, the server message and a requestId', async () => {
      await assert.rejects(
        client().obtainToken('ada', 'not-the-password'),
        isKind(
          'auth',
          (e) =>
            e.code === 'Invalid.Grant' && /incorrect/.test(e.message) && e.requestId !== undefined && e.status === 400,
        ),
      );
    });

    it('an empty password never leaves the machine', async () => {
      await noRequestsDuring(() =>
        assert.rejects(
          client().obtainToken('ada', ''),
          isKind('invalid-request', (e) => e.field === 'password'),
        ),
      );
    });

    it('refreshes a token (integer expires_in); a used refresh token is refused as auth', async () => {
      const c = client();
      const first = seen.token((await c.obtainToken('grace', account('grace').password)).data);
      const renewed = await c.refreshToken(first.refresh_token);
      seen.token(renewed.data);
      assert.notEqual(renewed.data.access_token, first.access_token);
      assert.equal(typeof renewed.data.expires_in, 'number');
      await assert.rejects(
        c.refreshToken(first.refresh_token),
        isKind('auth', (e) => e.code === 'Invalid.Grant' && /already been used/.test(e.message)),
      );
    });
  });

  describe('task groups and tasks', () => {
    it('lists task groups with an API key', async () => {
      const result = await keyClient('ada').listTaskGroups();
      const expected = world.accounts[0]?.groups.map((g) => ({
        taskGroupId: g.taskGroupId,
        taskGroupName: g.taskGroupName,
      }));
      assert.deepEqual(result.data, expected);
      assert.ok(result.requestId);
    });

    it('lists task groups with a session (Bearer access token)', async () => {
      const c = client();
      const token = seen.token((await c.obtainToken('ada', account('ada').password)).data);
      const sessionClient = client({ kind: 'session', session: sessionFromToken(token, Date.now()) });
      assert.equal((await sessionClient.listTaskGroups()).data.length, world.accounts[0]?.groups.length);
    });

    it('searches the tasks of a group', async () => {
      const group = world.accounts[0]?.groups[0];
      assert.ok(group);
      const result = await keyClient('ada').searchTasks(group.taskGroupId);
      assert.deepEqual(
        result.data,
        group.tasks.map((t) => ({ taskId: t.taskId, taskName: t.taskName })),
      );
    });

    it('an unknown group is not-found with its code and requestId', async () => {
      await assert.rejects(
        keyClient('ada').searchTasks('1'),
        isKind('not-found', (e) => e.code === 'InvalidTaskGroupId' && e.requestId !== undefined),
      );
    });

    it('an invalid API key is auth (401)', async () => {
      await assert.rejects(
        client({ kind: 'apiKey', apiKey: 'sdk_wrong' }).listTaskGroups(),
        isKind('auth', (e) => e.status === 401 && e.requestId !== undefined),
      );
    });

    it('the Free plan is forbidden, and the message names the plans that may', async () => {
      await assert.rejects(
        keyClient('fiona').listTaskGroups(),
        isKind(
          'forbidden',
          (e) =>
            e.status === 403 && /Standard, Professional or Enterprise/.test(e.message) && e.requestId !== undefined,
        ),
      );
    });
  });

  describe('task analytics', () => {
    it('queries one page', async () => {
      const result = await keyClient('ada').queryTaskAnalytics({ start: addDays(today, -6), end: today, pageSize: 50 });
      assert.ok(result.data.total > 0);
      assert.ok(result.data.data.length <= 50);
      assert.ok(result.data.data.every((r) => r.collectionMethod === 'Cloud' || r.collectionMethod === 'Local'));
    });

    const refused: [string, Record<string, unknown>, string][] = [
      ['end after today', { start: today, end: addDays(today, 1) }, 'end'],
      ['start before the three-month window', { start: addDays(earliestStart(today), -1), end: today }, 'start'],
      ['start after end', { start: today, end: addDays(today, -1) }, 'start'],
      ['pageSize 101', { start: today, end: today, pageSize: 101 }, 'pageSize'],
      ['page 0', { start: today, end: today, page: 0 }, 'page'],
      ['101 taskIds', { start: today, end: today, taskIds: Array.from({ length: 101 }, (_, i) => `t${i}`) }, 'taskIds'],
      ['a bad date', { start: '2026-02-30', end: today }, 'start'],
      ['an unknown granularity', { start: today, end: today, timeGranularity: 'Year' }, 'timeGranularity'],
    ];
    for (const [label, query, field] of refused) {
      it(`refuses ${label} before sending (field ${field})`, async () => {
        const c = keyClient('ada');
        // The cast feeds deliberately invalid input through the typed API, as untyped callers (the webview) might.
        await noRequestsDuring(() =>
          assert.rejects(
            c.queryTaskAnalytics(query as never),
            isKind('invalid-request', (e) => e.field === field),
          ),
        );
      });
    }

    it('a server-side 400 (a member outside the team) keeps the integer code, field and requestId', async () => {
      await assert.rejects(
        keyClient('ada').queryTaskAnalytics({ start: today, end: today, memberNames: ['nobody-here'] }),
        isKind(
          'invalid-request',
          (e) =>
            e.status === 400 && typeof e.code === 'number' && e.field === 'memberNames' && e.requestId !== undefined,
        ),
      );
    });

    it('the Free plan is forbidden for analytics', async () => {
      await assert.rejects(keyClient('fiona').queryTaskAnalytics({ start: today, end: today }), isKind('forbidden'));
    });

    it('fetches every page in order, with progress, the same records as page-by-page', async () => {
      const c = keyClient('grace');
      const query = { start: addDays(today, -20), end: today };
      const progress: FetchAllProgress[] = [];
      const all = await c.queryAllTaskAnalytics(query, { onProgress: (p) => progress.push(p) });
      const pages = Math.ceil(all.total / 100);
      assert.ok(pages >= 2, `want several pages, got ${all.total} rows`);
      assert.equal(all.records.length, all.total);
      assert.equal(all.requestIds.length, pages);
      assert.deepEqual(progress.at(-1), { fetched: all.total, total: all.total, page: pages, pages });
      const sequential = [];
      for (let page = 1; page <= pages; page++)
        sequential.push(...(await c.queryTaskAnalytics({ ...query, page, pageSize: 100 })).data.data);
      assert.deepEqual(all.records, sequential);
    });

    it('cancels a fetch of every page', async () => {
      const controller = new AbortController();
      const pending = keyClient('grace').queryAllTaskAnalytics(
        { start: addDays(today, -20), end: today },
        { signal: controller.signal, onProgress: (p) => p.page >= 2 && controller.abort() },
      );
      await assert.rejects(pending, isKind('cancelled'));
    });
  });

  describe('data-app hub', () => {
    it('deprecates an app of the caller, idempotently', async () => {
      const c = keyClient('ada');
      const first = await c.deprecateApp('ada/price-tracker');
      assert.deepEqual(first.data, {
        app_name: 'price-tracker',
        namespace: 'ada',
        version: '1.2.3',
        status: 'deprecated',
        missing_secrets: ['PROXY_TOKEN', 'SLACK_WEBHOOK'],
      });
      const again = await c.deprecateApp('ada/price-tracker');
      assert.equal(again.data.status, 'deprecated');
    });

    it('deprecates an app with zero releases (version may be empty)', async () => {
      assert.equal((await keyClient('ada').deprecateApp('ada/news-digest')).data.version, '');
    });

    it('with a session, the hub uses hubApiKey', async () => {
      const token = seen.token((await client().obtainToken('ada', account('ada').password)).data);
      const c = client({
        kind: 'session',
        session: sessionFromToken(token, Date.now()),
        hubApiKey: account('ada').apiKey,
      });
      assert.equal((await c.deprecateApp('ada/lead-finder')).data.app_name, 'lead-finder');
    });

    it("someone else's app is not-found (404)", async () => {
      await assert.rejects(
        keyClient('ada').deprecateApp('grace/review-miner'),
        isKind('not-found', (e) => e.status === 404 && e.code === 'not_found' && /not its author/.test(e.message)),
      );
    });

    it('a missing or invalid API key is auth with code unauthorized, category forbidden', async () => {
      await assert.rejects(
        client({ kind: 'apiKey', apiKey: 'sdk_nope' }).deprecateApp('ada/price-tracker'),
        isKind(
          'auth',
          (e) =>
            e.status === 401 && e.code === 'unauthorized' && e.category === 'forbidden' && e.requestId !== undefined,
        ),
      );
    });

    it('a malformed app reference never leaves the machine', async () => {
      await noRequestsDuring(() =>
        assert.rejects(
          keyClient('ada').deprecateApp('price-tracker'),
          isKind('invalid-request', (e) => e.field === 'appRef'),
        ),
      );
    });

    it('no datahubUrl: a clear invalid-request', async () => {
      await assert.rejects(
        keyClient('ada', { datahubUrl: undefined }).deprecateApp('ada/price-tracker'),
        isKind('invalid-request', (e) => /not configured/.test(e.message)),
      );
    });
  });

  describe('cancellation', () => {
    it('cancels a call while it waits in the limiter queue', async () => {
      const c = keyClient('grace', { requestsPerSecond: 1 });
      await c.listTaskGroups();
      const controller = new AbortController();
      const queued = c.listTaskGroups({ signal: controller.signal });
      controller.abort();
      await assert.rejects(queued, isKind('cancelled'));
    });
  });

  describe('log hygiene (runs last)', () => {
    it('the captured log (clients and sandbox) holds no API key, password or token', () => {
      assertNoSecrets(logs.lines, seen);
    });
  });
});
