/**
 * What Pull New Rows says (issue 32): a failed pull reads as whole sentences, without
 * "(… before this.)." and without the request's path (item 10); the file picker says whether a
 * file's columns fit the task's fields (item 8: the first pull offered another task's file).
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { ApiError } from '../../src/api/errors/errors';
import { adviseFailure, pullAdvice } from '../../src/data/common/failureText';
import { compareColumns, fitOf } from '../../src/data/pull/columnFit';
import { composeErrorText, english } from '../../src/platform/errorText';

const count = (n: number) => n.toLocaleString('en');

describe('data: what a failed pull says', () => {
  const network = new ApiError({
    kind: 'network',
    code: 'ECONNRESET',
    maybeApplied: true,
    requestId: 'req-7',
    message: 'Could not reach the service for GET /data/notexported?taskId=9f1c&size=1000: read ECONNRESET',
  });
  const server = new ApiError({
    kind: 'server',
    status: 502,
    requestId: 'req-8',
    message: 'The reply to POST /data/markexported could not be read: the body is empty',
  });

  for (const stage of ['fetch', 'write', 'mark'] as const) {
    it(`${stage}: whole sentences, the count of rows done before, no request path`, () => {
      const advice = pullAdvice(stage, { rowsDone: 46_000, batchRows: 1000, file: 'rows.csv' }, english, count);
      for (const cause of [network, server, new Error('EACCES: permission denied')]) {
        const { text, requestId } = composeErrorText(
          adviseFailure(cause, advice, english),
          'pullNewRows',
          'Indeed stock levels',
          english,
        );
        assert.match(text, /46,000 rows were written and marked exported before this\./);
        assert.doesNotMatch(text, /\.\)|\(\d/, `no sentence in parentheses: ${text}`);
        assert.doesNotMatch(text, /GET|POST|\/data\/|taskId=/, `no request path: ${text}`);
        assert.doesNotMatch(text, /\.\s*\./, `no doubled full stop: ${text}`);
        if (cause instanceof ApiError)
          assert.equal(requestId, cause.requestId, 'the request id is still offered (Copy Request ID)');
      }
    });
  }

  it('the network cause is said plainly, with its code', () => {
    const { text } = composeErrorText(
      adviseFailure(network, pullAdvice('fetch', { rowsDone: 0, batchRows: 0, file: 'x' }, english, count), english),
      'pullNewRows',
      'T',
      english,
    );
    assert.equal(
      text,
      'Could not pull the new rows of “T”. The service could not be reached (ECONNRESET). The next pull goes on from here: no row is lost or written twice. Check your connection, scrapedeck.baseUrl and the proxy settings.',
    );
  });
});

describe("data: which files fit a task's fields", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-fit-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("a CSV of the same fields (any order, formula names neutralised) fits; another task's file says what differs", async () => {
    const fields = ['Title', 'Price', '=Rank'];
    const same = path.join(dir, 'same.csv');
    writeFileSync(same, "\uFEFFPrice,Title,'=Rank\r\n1,a,2\r\n");
    assert.deepEqual(await fitOf(same, 'csv', fields), { kind: 'fits' });
    const other = path.join(dir, 'Booking ratings.csv');
    writeFileSync(other, '\uFEFFHotel,Rating,Price\r\nx,9,100\r\n');
    assert.deepEqual(await fitOf(other, 'csv', fields), {
      kind: 'differs',
      extra: ['Hotel', 'Rating'],
      missing: ['Title', '=Rank'],
    });
    const jsonl = path.join(dir, 'other.jsonl');
    writeFileSync(jsonl, '{"Hotel":"x","Price":"1"}\n');
    assert.deepEqual(await fitOf(jsonl, 'jsonl', fields), {
      kind: 'differs',
      extra: ['Hotel'],
      missing: ['Title', '=Rank'],
    });
    const empty = path.join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    assert.deepEqual(await fitOf(empty, 'jsonl', fields), { kind: 'empty' });
    assert.deepEqual(await fitOf(path.join(dir, 'any.sqlite'), 'sqlite', fields), { kind: 'database' });
    assert.deepEqual(
      await fitOf(same, 'csv', undefined),
      { kind: 'unchecked', columns: ['Price', 'Title', "'=Rank"] },
      "the task's fields unread: the file's columns, said not compared",
    );
    assert.deepEqual(await fitOf(empty, 'jsonl', undefined), { kind: 'empty' });
    const garbled = path.join(dir, 'garbled.jsonl');
    writeFileSync(garbled, 'not json\n');
    assert.deepEqual(await fitOf(garbled, 'jsonl', fields), { kind: 'unknown' });
    assert.deepEqual(compareColumns(['a'], ['a'], false), { kind: 'fits' });
  });
});
