import * as assert from 'node:assert/strict';
import { connect } from 'node:net';

import { TestSandbox } from './helpers/sandbox';

/** Sends raw bytes and returns what the server answers before closing (or within 3 s). */
function rawExchange(baseUrl: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(3_000, () => {
      socket.destroy();
      resolve(answer);
    });
  });
}

describe('sandbox: malformed requests', () => {
  let sb: TestSandbox;
  before(async () => {
    sb = await TestSandbox.start({ rateLimit: 0 });
  });
  after(() => sb.close());

  for (const target of ['//', '//x:y@[', 'http://[']) {
    it(`answers a request target of ${JSON.stringify(target)} with 400 and keeps serving`, async () => {
      const answer = await rawExchange(
        sb.info.baseUrl,
        `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      assert.match(answer, /^HTTP\/1\.1 400 /, `status line of ${JSON.stringify(answer.slice(0, 60))}`);
      assert.match(answer, /"requestId":"[^"]+"/);
      const after = await sb.call('/taskGroup', { headers: { 'x-api-key': sb.user('ada').apiKey } });
      assert.equal(after.status, 200, 'the sandbox still answers');
    });
  }
});
