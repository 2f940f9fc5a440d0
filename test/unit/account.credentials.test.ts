/** How credentials are stored (src/account/credentials.ts): key naming, JSON parsing, labels. */
import * as assert from 'node:assert/strict';

import {
  accountMetaKey,
  apiKeyLabel,
  credentialsKey,
  fallbackMeta,
  hubKeyOf,
  labelProblem,
  MAX_LABEL_LENGTH,
  normalizeBaseUrl,
  parseAccountMeta,
  parseStoredCredentials,
  serializeCredentials,
} from '../../src/account/credentials';
import type { Credentials } from '../../src/api/auth/auth';
import { english } from '../../src/platform/errorText';

const session = {
  accessToken: 'access-0123456789',
  refreshToken: 'refresh-0123456789',
  tokenType: 'Bearer',
  expiresAt: 1_700_000_000_000,
};

describe('account credentials', () => {
  describe('secret key naming', () => {
    it('keys secrets by the normalised service address', () => {
      assert.equal(
        credentialsKey('https://openapi.octoparse.com'),
        'scrapedeck.credentials:https://openapi.octoparse.com',
      );
      assert.equal(
        credentialsKey('HTTPS://OpenAPI.Octoparse.com:443/'),
        credentialsKey('https://openapi.octoparse.com'),
      );
      assert.equal(
        accountMetaKey('https://openapi.octoparse.com/'),
        'scrapedeck.account:https://openapi.octoparse.com',
      );
    });

    it('keeps a sandbox and the real service apart, and two sandbox ports apart', () => {
      const keys = new Set([
        credentialsKey('https://openapi.octoparse.com'),
        credentialsKey('http://127.0.0.1:4000'),
        credentialsKey('http://127.0.0.1:4001'),
        credentialsKey('http://localhost:4000'),
      ]);
      assert.equal(keys.size, 4);
    });

    it('keeps a path prefix (a service mounted below the root)', () => {
      assert.equal(normalizeBaseUrl('https://gw.example.com/scrape/'), 'https://gw.example.com/scrape');
      assert.notEqual(credentialsKey('https://gw.example.com/a'), credentialsKey('https://gw.example.com/b'));
    });
  });

  describe('stored JSON', () => {
    it('round-trips both kinds of credentials', () => {
      const all: Credentials[] = [
        { kind: 'apiKey', apiKey: 'op_key_abcdefghijkl' },
        { kind: 'session', session },
        { kind: 'session', session: { ...session, issuedAt: 1_699_999_000_000 }, hubApiKey: 'hub-key-123456' },
      ];
      for (const c of all)
        assert.deepEqual(parseStoredCredentials(serializeCredentials(c)), { ok: true, credentials: c });
    });

    it('reads nothing stored as signed out', () => {
      assert.deepEqual(parseStoredCredentials(undefined), { ok: true, credentials: undefined });
      assert.deepEqual(parseStoredCredentials(''), { ok: true, credentials: undefined });
    });

    it('refuses corrupt or foreign values without echoing them', () => {
      const cases = [
        '{not json',
        'null',
        '"just a string"',
        JSON.stringify({ kind: 'apiKey' }),
        JSON.stringify({ kind: 'apiKey', apiKey: '' }),
        JSON.stringify({ kind: 'password', password: 'secret-pw-123' }),
        JSON.stringify({ kind: 'session', session: { ...session, expiresAt: 'soon' } }),
        JSON.stringify({ kind: 'session', session: { accessToken: 'secret-at-123' } }),
      ];
      for (const text of cases) {
        const parsed = parseStoredCredentials(text);
        assert.equal(parsed.ok, false, text);
        if (!parsed.ok) assert.doesNotMatch(parsed.reason, /secret-/, 'the reason names fields, never values');
      }
    });

    it('drops unknown extra fields', () => {
      const parsed = parseStoredCredentials(
        JSON.stringify({ kind: 'apiKey', apiKey: 'op_key_abcdefghijkl', password: 'x' }),
      );
      assert.deepEqual(parsed, { ok: true, credentials: { kind: 'apiKey', apiKey: 'op_key_abcdefghijkl' } });
    });
  });

  describe('labels and the hub key', () => {
    it('labels an API key by its last four characters only', () => {
      assert.equal(apiKeyLabel('op_live_0123456789abcd'), 'API key …abcd');
      assert.equal(apiKeyLabel('short'), 'API key', 'a short key shows nothing of itself');
    });

    it('uses the API key itself for the hub, or the one set for a session', () => {
      assert.equal(hubKeyOf({ kind: 'apiKey', apiKey: 'k-123456' }), 'k-123456');
      assert.equal(hubKeyOf({ kind: 'session', session }), undefined);
      assert.equal(hubKeyOf({ kind: 'session', session, hubApiKey: 'hub-1' }), 'hub-1');
      assert.equal(hubKeyOf(undefined), undefined);
    });

    it('validates metadata and falls back when it is missing', () => {
      assert.deepEqual(parseAccountMeta({ label: 'ada', method: 'password', username: 'ada' }), {
        label: 'ada',
        method: 'password',
        username: 'ada',
      });
      assert.equal(parseAccountMeta({ label: 'ada', method: 'magic' }), undefined);
      assert.equal(parseAccountMeta(undefined), undefined);
      assert.deepEqual(fallbackMeta({ kind: 'apiKey', apiKey: 'op_live_0123456789abcd' }), {
        label: 'API key …abcd',
        method: 'apiKey',
      });
      assert.equal(fallbackMeta({ kind: 'session', session }).method, 'password');
    });
  });

  describe('the name of an API-key account', () => {
    const key = 'op_live_0123456789abcdefLz8G';
    it('accepts a plain name and the suggested default', () => {
      assert.equal(labelProblem('Work account', key, english), undefined);
      assert.equal(labelProblem(apiKeyLabel(key), key, english), undefined);
      assert.equal(apiKeyLabel(key), 'API key …Lz8G');
    });
    it('refuses an empty name, a long one, control characters and the key itself', () => {
      assert.match(labelProblem('   ', key, english) ?? '', /Enter a name/);
      assert.match(labelProblem('x'.repeat(MAX_LABEL_LENGTH + 1), key, english) ?? '', /64 characters/);
      assert.match(labelProblem('a\u0007b', key, english) ?? '', /control characters/);
      assert.match(labelProblem(`mine: ${key}`, key, english) ?? '', /must not contain the API key/);
    });
  });
});
