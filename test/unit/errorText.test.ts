/**
 * One message per fact (issue 16): every error kind in every context, with the service messages
 * seen in practice and some awkward ones, composes to whole sentences with the service's message
 * once, at most one hint, no sentence twice, no doubled punctuation, and no request id in the text.
 */
import * as assert from 'node:assert/strict';

import { ApiError, type ApiErrorKind } from '../../src/api/errors/errors';
import {
  composeErrorText,
  ERROR_CONTEXTS,
  type ErrorContext,
  joinSentences,
  sentence,
  splitSentences,
} from '../../src/platform/errorText';

const KINDS: ApiErrorKind[] = [
  'auth',
  'forbidden',
  'not-found',
  'invalid-request',
  'rate-limited',
  'server',
  'network',
  'timeout',
  'bad-response',
  'cancelled',
];
const CONTEXTS = Object.keys(ERROR_CONTEXTS) as ErrorContext[];
const MESSAGES = [
  // The sandbox's 403 for a Free account: it names the plans itself.
  'Get Task Group Information requires a Standard, Professional or Enterprise plan; this account is on the Free plan.',
  'Not allowed to get task groups: this account is on the Free plan..',
  'username or password is incorrect',
  'app_id: no app "ada/ghost" that you author',
  'Could not load task groups.',
  'Rate limit exceeded!!',
  '  The   service   is busy…  ',
  'Check your connection, scrapedeck.baseUrl and the proxy settings.',
  '',
];
const HINTS = [
  /This needs a/,
  /limiting requests/,
  /Check your connection/,
  /Check the key and try again/,
  /Check them and try again/,
];
const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

describe('error text: one message per fact', () => {
  it('every kind x context x message: whole sentences, nothing twice, no "..", at most one hint', () => {
    let cases = 0;
    for (const kind of KINDS) {
      for (const context of CONTEXTS) {
        for (const message of MESSAGES) {
          const error = new ApiError({
            kind,
            message,
            requestId: 'req-123',
            status: kind === 'forbidden' ? 403 : undefined,
          });
          const { text, requestId } = composeErrorText(error, context, 'Price monitoring');
          const label = `${kind} / ${context} / ${JSON.stringify(message)}: ${text}`;
          cases++;
          assert.doesNotMatch(text, /\.\./, label);
          assert.doesNotMatch(text, /[.!?][.!?]/, label);
          assert.doesNotMatch(text, /req-123/, `the request id is an action, not text: ${label}`);
          assert.equal(requestId, 'req-123');
          const sentences = splitSentences(text);
          assert.equal(new Set(sentences.map(norm)).size, sentences.length, `a sentence repeats: ${label}`);
          for (const s of sentences) assert.match(s, /^[A-Z“"]|^[a-z_]+[._]/, `sentence case: ${label}`);
          assert.match(text, /[.!?…]$/, label);
          const hints = HINTS.filter((h) => h.test(text) && !h.test(message)).length;
          assert.ok(hints <= 1, `more than one hint: ${label}`);
          if (message.trim() !== '') {
            const said = norm(message);
            const at = norm(text).indexOf(said);
            assert.ok(at >= 0, `the service's message is kept: ${label}`);
            assert.equal(norm(text).indexOf(said, at + 1), -1, `the service's message once: ${label}`);
          }
        }
      }
    }
    assert.equal(cases, KINDS.length * CONTEXTS.length * MESSAGES.length);
  });

  it('the Free plan 403 reads once, with the plans named once', () => {
    const error = new ApiError({ kind: 'forbidden', status: 403, message: MESSAGES[0] as string, requestId: 'r1' });
    const { text } = composeErrorText(error, 'loadGroups');
    assert.equal(
      text,
      'Could not load task groups. Get Task Group Information requires a Standard, Professional or Enterprise plan; this account is on the Free plan.',
    );
    const plain = composeErrorText(
      new ApiError({ kind: 'forbidden', status: 403, message: 'Forbidden' }),
      'loadGroups',
    ).text;
    assert.equal(
      plain,
      'Could not load task groups. Forbidden. This needs a Standard, Professional or Enterprise plan.',
    );
  });

  it('a refused key or password reads as such, with one hint', () => {
    const key = composeErrorText(
      new ApiError({ kind: 'auth', status: 401, message: 'invalid api key.' }),
      'checkApiKey',
    ).text;
    assert.equal(key, 'That API key was not accepted. Invalid api key. Check the key and try again.');
    const password = composeErrorText(
      new ApiError({ kind: 'auth', message: 'username or password is incorrect', code: 'Invalid.Grant' }),
      'signInPassword',
    ).text;
    assert.equal(
      password,
      'The username or password was not accepted. Username or password is incorrect. Check them and try again.',
    );
    const offline = composeErrorText(
      new ApiError({ kind: 'network', message: 'connect ECONNREFUSED 127.0.0.1:9' }),
      'checkApiKey',
    ).text;
    assert.equal(
      offline,
      'Could not check the API key. Connect ECONNREFUSED 127.0.0.1:9. Check your connection, scrapedeck.baseUrl and the proxy settings.',
    );
  });

  it('plain errors and identifiers keep their spelling', () => {
    assert.equal(
      composeErrorText(new Error('scrapedeck.baseUrl is not set'), 'openSandbox').text,
      'Could not open the sandbox. scrapedeck.baseUrl is not set.',
    );
    assert.equal(sentence('app_id: bad'), 'app_id: bad.');
    assert.equal(sentence('done...'), 'Done.');
    assert.equal(joinSentences(['A b.', 'a B!', 'C.']), 'A b. C.');
  });
});
