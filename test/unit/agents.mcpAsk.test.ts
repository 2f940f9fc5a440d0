/**
 * The MCP server's question to the user (`mcpConsent.ts` `askUser`), against a fake server: only
 * "accept" agrees; a question that fails or times out is a "no" with a sentence saying so (never a
 * throw, never a change); the user gets ten minutes, not the SDK's default minute.
 */
import * as assert from 'node:assert/strict';

import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type ElicitRequestFormParams,
  type ElicitResult,
  ErrorCode,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';

import { askUser } from '../../src/agents/mcpConsent';

const confirmation = { title: 'Stop the run of “Prices”?', message: 'Task “Prices” (id t-1) is running.' };

function server(answer: (options: RequestOptions | undefined) => Promise<ElicitResult>) {
  const seen: { params: ElicitRequestFormParams; options: RequestOptions | undefined }[] = [];
  return {
    seen,
    elicitInput: (params: ElicitRequestFormParams, options?: RequestOptions) => {
      seen.push({ params, options });
      return answer(options);
    },
  };
}

describe('agents: the MCP question to the user, when it fails or times out', () => {
  it('a failed question is a “no” that says asking failed, and why (as plain text)', async () => {
    const s = server(() => Promise.reject(new Error('transport closed\n[click](https://evil.example)')));
    const answer = await askUser(s as never, 'scrapedeck_stop_run', confirmation, new AbortController().signal);
    assert.equal(answer.agreed, false);
    assert.ok(!answer.agreed);
    assert.match(
      answer.text,
      /^scrapedeck_stop_run needs the user’s agreement, and asking the user through the MCP client failed \(transport closed/,
    );
    assert.doesNotMatch(answer.text, /\n/, 'the reason is on one line (plain text)');
  });

  it('a question that times out is a “no”; the user was given ten minutes', async () => {
    const s = server((options) =>
      Promise.reject(new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: options?.timeout })),
    );
    const answer = await askUser(s as never, 'scrapedeck_start_run', confirmation, new AbortController().signal);
    assert.equal(answer.agreed, false);
    assert.match(
      answer.agreed ? '' : answer.text,
      /asking the user through the MCP client failed \(.*timed out.*\), so nothing was changed/,
    );
    assert.equal(s.seen[0]?.options?.timeout, 10 * 60_000);
  });

  it('only “accept” agrees (decline and cancel do not)', async () => {
    for (const [action, agreed] of [
      ['accept', true],
      ['decline', false],
      ['cancel', false],
    ] as const) {
      const answer = await askUser(
        server(() => Promise.resolve({ action, content: {} })) as never,
        'scrapedeck_stop_run',
        confirmation,
        new AbortController().signal,
      );
      assert.equal(answer.agreed, agreed, action);
    }
  });
});
