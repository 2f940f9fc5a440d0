/**
 * Replies without limits, and server text in logs and messages: a huge reply is cut off while it
 * streams (never buffered whole), a reply that is not JSON is never quoted (it could hold a key),
 * and a request id or message from the server reaches a log line or a message short and on one line.
 */
import * as assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';

import { MemoryCredentialsStore } from '../../src/api/auth/auth';
import { ScrapedeckClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors/errors';
import { fitText, MAX_REPLY_BYTES, readLimited } from '../../src/api/http/replyBody';

/** The client's refusal of a reply over the size limit. */
const cutOff = (e: unknown): true => {
  assert.ok(e instanceof ApiError);
  assert.equal(e.kind, 'bad-response');
  assert.match(e.message, /larger than 32 MB and was cut off/);
  return true;
};

describe('client: limits on replies and on server text', function () {
  let server: Server;
  let baseUrl: string;
  let handler: (res: ServerResponse) => void = (res) => res.end('{}');
  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => handler(res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  const lines: string[] = [];
  const client = () =>
    new ScrapedeckClient({
      baseUrl,
      credentials: new MemoryCredentialsStore({ kind: 'apiKey', apiKey: 'sdk_test_key_1234' }),
      maxRetries: 0,
      log: (line) => lines.push(line),
    });

  it(`cuts a reply off once it passes ${MAX_REPLY_BYTES / (1024 * 1024)} MB, while it streams`, async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x61); // 1 MB of "a"
    let written = 0;
    let closedEarly = false;
    // The server's side of the connection closing is the event that proves the client hung up (or
    // read to the end): waited for, not guessed at with a sleep.
    let closed!: () => void;
    const serverClosed = new Promise<void>((resolve) => (closed = resolve));
    handler = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.on('close', () => {
        closedEarly = written < 256;
        closed();
      });
      const pump = (): void => {
        while (written < 256 && !res.destroyed) {
          written++;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end();
      };
      pump();
    };
    const c = client();
    try {
      await assert.rejects(c.listTaskGroups(), cutOff);
    } finally {
      await c.close();
    }
    await serverClosed;
    assert.ok(closedEarly, `the client read ${written} MB of a 256 MB reply before cutting it off`);
    assert.ok(written < 64, `${written} MB were written before the client hung up`);
  });

  it('refuses a reply whose Content-Length passes the limit at once, without waiting for its body', async () => {
    let stalled: ServerResponse | undefined;
    handler = (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(MAX_REPLY_BYTES + 1) });
      res.write('{"data":['); // and nothing more: a client that waited for the body would wait for its time-out
      stalled = res;
    };
    const c = client();
    const t0 = Date.now();
    try {
      await assert.rejects(c.listTaskGroups(), cutOff);
    } finally {
      stalled?.destroy();
      await c.close();
    }
    assert.ok(Date.now() - t0 < 10_000, `refused after ${Date.now() - t0} ms`);
  });

  it('never quotes a reply that is not JSON (it could hold a key or a token)', async () => {
    const secretish = 'sk_live_THIS_LOOKS_LIKE_A_KEY_0123456789';
    handler = (res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(`${secretish} is not JSON`);
    };
    const c = client();
    try {
      await assert.rejects(c.listTaskGroups(), (e: unknown) => {
        assert.ok(e instanceof ApiError);
        assert.ok(!e.message.includes(secretish), e.message);
        assert.match(e.message, /not JSON/);
        return true;
      });
    } finally {
      await c.close();
    }
    assert.ok(!lines.join('\n').includes(secretish));
  });

  it('a request id or server message reaches the log and the error short and on one line', async () => {
    const giant = `req-${'x'.repeat(100_000)}`;
    handler = (res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { code: 40001, message: `bad\r\nFAKE LOG LINE\u001b[31m ${'y'.repeat(5000)}` },
          requestId: `${giant}\nGET /forged 200`,
        }),
      );
    };
    lines.length = 0;
    const c = client();
    try {
      await assert.rejects(c.listTaskGroups(), (e: unknown) => {
        assert.ok(e instanceof ApiError);
        assert.ok((e.requestId ?? '').length <= 128, `request id of ${e.requestId?.length} characters`);
        assert.doesNotMatch(e.requestId ?? '', /[\r\n]/);
        assert.ok(e.message.length < 800, `message of ${e.message.length} characters`);
        assert.ok(!/[\r\n]/.test(e.message) && !e.message.includes(String.fromCharCode(27)), e.message);
        return true;
      });
    } finally {
      await c.close();
    }
    assert.equal(lines.length, 1);
    assert.ok((lines[0] ?? '').length < 400, `log line of ${lines[0]?.length} characters`);
    assert.doesNotMatch(lines[0] ?? '', /[\r\n]/);
  });

  it('fitText: control characters and ANSI escapes become spaces; long text is cut with an ellipsis', () => {
    assert.equal(fitText('a\r\nb\u0000c\u001b[2Jd'), 'a b c d');
    assert.equal(fitText('x'.repeat(10), 5), 'xxxx…');
  });

  it('readLimited: a body that ends (and then closes, as every reply does) is its text; one closed before its end is an error', async () => {
    const whole = new PassThrough();
    const text = readLimited(whole);
    whole.write('{"data":');
    whole.end(Buffer.from('[1,"é"]}'));
    assert.equal(await text, '{"data":[1,"é"]}');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(whole.destroyed, true, 'it closed after its end, and the text stood');

    const cut = new PassThrough();
    const failed = readLimited(cut);
    cut.write('{"data":[');
    cut.destroy();
    await assert.rejects(failed, (e: unknown) => {
      assert.ok(e instanceof Error);
      assert.equal((e as { code?: unknown }).code, 'ERR_STREAM_PREMATURE_CLOSE');
      assert.match(e.message, /ended before its end/);
      return true;
    });
  });
});
