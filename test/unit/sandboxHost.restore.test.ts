/**
 * After a reload, what globalState remembers about a sandbox is checked by the same rule as a
 * probe's answer: only an address on this machine is a sandbox. A remembered remote address (a
 * tampered or stale state) is forgotten and logged; the window is never pointed at it.
 */
import * as assert from 'node:assert/strict';

import { SandboxHost } from '../../src/account/sandbox/sandboxHost';
import { Emitter } from '../../src/platform/emitter';

const STATE_KEY = 'scrapedeck.sandbox';

function host(remembered: unknown) {
  const state = new Map<string, unknown>([[STATE_KEY, remembered]]);
  const warnings: string[] = [];
  const overrides: unknown[] = [];
  const cleared: string[] = [];
  const account = {
    usingSandboxOverride: false,
    setOverride: (e: unknown) => {
      overrides.push(e);
      return Promise.resolve();
    },
    clear: (baseUrl?: string) => {
      cleared.push(String(baseUrl));
      return Promise.resolve();
    },
    onDidDropOverride: new Emitter<void>().event,
  };
  const globalState = {
    keys: () => [...state.keys()],
    get: (key: string) => state.get(key),
    update: (key: string, value: unknown) => {
      if (value === undefined) state.delete(key);
      else state.set(key, value);
      return Promise.resolve();
    },
  };
  const log = { warn: (m: string) => warnings.push(m), info: () => undefined, error: () => undefined };
  // The host only reads and writes these members; the casts stand in for VS Code's objects.
  const sandbox = new SandboxHost(account as never, globalState as never, log as never);
  return { sandbox, state, warnings, overrides, cleared };
}

describe('sandbox host: restore() trusts only this machine', () => {
  for (const [what, remembered] of [
    // Names under .invalid never resolve: were the rule ever lost, nothing would leave the machine.
    [
      'a remote service address',
      { baseUrl: 'https://service.scrapedeck.invalid', datahubUrl: 'https://hub.scrapedeck.invalid', embedded: false },
    ],
    [
      'a remote hub next to a loopback service',
      { baseUrl: 'http://127.0.0.1:4010', datahubUrl: 'https://evil.scrapedeck.invalid/datahub', embedded: true },
    ],
    [
      'a plain-http remote address',
      {
        baseUrl: 'http://sandbox.scrapedeck.invalid:4010',
        datahubUrl: 'http://sandbox.scrapedeck.invalid:4010/datahub',
        embedded: false,
      },
    ],
  ] as const) {
    it(`forgets ${what}, logs why, and never points the window there`, async () => {
      const h = host(remembered);
      try {
        assert.equal(await h.sandbox.restore(), undefined);
        assert.equal(h.state.has(STATE_KEY), false, 'the remembered sandbox is forgotten');
        assert.deepEqual(h.overrides, [], 'no override was set');
        assert.equal(h.warnings.length, 1);
        assert.match(h.warnings[0] ?? '', /Forgot the remembered sandbox/);
      } finally {
        h.sandbox.dispose();
      }
    });
  }

  it('ignores a remembered value of the wrong shape without touching anything', async () => {
    const h = host({ baseUrl: 42 });
    try {
      assert.equal(await h.sandbox.restore(), undefined);
      assert.deepEqual(h.overrides, []);
      assert.deepEqual(h.warnings, []);
    } finally {
      h.sandbox.dispose();
    }
  });
});
