/**
 * What the PostgreSQL integration tests share: the Add Connection prompts answered, the picker's
 * server chosen, and the saved connection removed.
 */
import * as assert from 'node:assert/strict';

import * as vscode from 'vscode';

import type { ScrapedeckTestApi } from '../../src/extension';
import type { TestServer } from '../shared/pgServer';
import { replaceUi } from './viewsHarness';

/** The add flow's prompts, answered by what each asks for (TLS mode: disable). */
export function connectionAnswers(
  server: TestServer,
  schema: string,
  password: string,
): Partial<Parameters<typeof replaceUi>[1]> {
  return {
    showInputBox: (o) => {
      const p = o.prompt ?? '';
      const value = p.startsWith('Host')
        ? server.host
        : p === 'Port'
          ? String(server.port)
          : p === 'Database'
            ? server.database
            : p === 'User'
              ? server.user
              : p.startsWith('Schema')
                ? schema
                : p.startsWith('Password')
                  ? password
                  : undefined;
      assert.ok(value !== undefined, `an unexpected prompt: ${p}`);
      return Promise.resolve(value);
    },
    showQuickPick: <T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>) =>
      Promise.resolve(items).then((list) => list.find((i) => i.label.startsWith('disable'))),
  };
}

/** The destination picker's PostgreSQL connection; `seen` gets each list of labels shown. */
export function pickServer<T extends vscode.QuickPickItem>(
  items: readonly T[] | Thenable<readonly T[]>,
  seen: string[][],
): Promise<T | undefined> {
  return Promise.resolve(items).then((list) => {
    seen.push(list.map((i) => i.label));
    return list.find((i) => i.label.startsWith('$(server)'));
  });
}

/** Runs Remove PostgreSQL Connection on the first connection listed, agreeing to its modal; its result. */
export async function removeFirstConnection(api: ScrapedeckTestApi): Promise<boolean | undefined> {
  const restore = replaceUi(api, {
    showQuickPick: <T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>) =>
      Promise.resolve(items).then((l) => l[0]),
    showModalWarning: (_m, _d, action) => Promise.resolve(action),
  });
  try {
    return await vscode.commands.executeCommand<boolean>('scrapedeck.data.removePostgresConnection');
  } finally {
    restore();
  }
}
