/**
 * What leaves the client is always an Error (an ApiError), even when something it depends on
 * rejects with a plain object or a string (issue 10, item 5); an error marked "may have been
 * carried out" says so once; service times read as UTC.
 */
import * as assert from 'node:assert/strict';

import type { Credentials, CredentialsStore } from '../../src/api/auth/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { ApiError, asMaybeApplied } from '../../src/api/errors/errors';
import type { RequestLimiter } from '../../src/api/http/limiter';
import { formatServiceTime, parseServiceTime } from '../../src/api/schemas/runSchemas';

describe('api: failures are Errors', () => {
  const make = (credentials: CredentialsStore, limiter?: RequestLimiter) =>
    new ScrapedeckClient({ baseUrl: 'http://127.0.0.1:9', credentials, limiter, maxRetries: 0, env: {} });

  it('a credentials store that rejects with a plain object gives an ApiError', async () => {
    const store: CredentialsStore = {
      get: () => Promise.reject({ not: 'an error' }),
      set: () => Promise.resolve(),
    };
    const c = make(store);
    try {
      await assert.rejects(
        c.startTask('t1'),
        (e: unknown) => e instanceof Error && e instanceof ApiError && /Unexpected failure/.test(e.message),
      );
    } finally {
      await c.close();
    }
  });

  it('a limiter that rejects with a string gives an ApiError, and nothing is sent', async () => {
    const limiter: RequestLimiter = { acquire: () => Promise.reject('no slot'), pause: () => undefined };
    const store: CredentialsStore = {
      get: () => Promise.resolve<Credentials>({ kind: 'apiKey', apiKey: 'sdk_key_for_test' }),
      set: () => Promise.resolve(),
    };
    const c = make(store, limiter);
    try {
      await assert.rejects(c.getTaskStatuses(['a']), (e: unknown) => e instanceof ApiError && e.maybeApplied === false);
    } finally {
      await c.close();
    }
  });

  it('"may have been carried out" is said once, without a double full stop', () => {
    const once = asMaybeApplied(
      new ApiError({ kind: 'server', status: 502, message: 'The service failed to start task t1 (HTTP 502).' }),
    );
    assert.equal(
      once.message,
      'The service failed to start task t1 (HTTP 502). It may have been carried out: check before trying again.',
    );
    assert.equal(asMaybeApplied(once).message, once.message);
    assert.deepEqual([once.maybeApplied, once.retryable, once.status], [true, false, 502]);
  });
});

describe('api: service times', () => {
  it('a time without a zone is UTC; a zone, when present, is honoured; other text is not a time', () => {
    assert.equal(parseServiceTime('2018-04-04T18:34:20.973'), Date.UTC(2018, 3, 4, 18, 34, 20, 973));
    assert.equal(parseServiceTime('2018-04-04 18:34'), Date.UTC(2018, 3, 4, 18, 34));
    assert.equal(parseServiceTime('2018-04-04T18:34:20.9731234'), Date.UTC(2018, 3, 4, 18, 34, 20, 973));
    assert.equal(parseServiceTime('2018-04-04T18:34:20Z'), Date.UTC(2018, 3, 4, 18, 34, 20));
    assert.equal(parseServiceTime('2018-04-04T18:34:20+02:00'), Date.UTC(2018, 3, 4, 16, 34, 20));
    for (const bad of ['', 'soon', '2018-13-45T99:99:99', null, undefined])
      assert.equal(parseServiceTime(bad), undefined, String(bad));
    const t = Date.UTC(2026, 10, 22, 12, 0, 30, 5);
    assert.equal(formatServiceTime(t), '2026-11-22T12:00:30.005');
    assert.equal(parseServiceTime(formatServiceTime(t)), t);
  });
});
