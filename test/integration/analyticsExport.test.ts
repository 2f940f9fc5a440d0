/**
 * An analytics export ends with "Open" and "Reveal" (issue 21 item 9), in a real VS Code against a
 * sandbox: only the save dialog's and the notification's answers are replaced.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

import * as vscode from 'vscode';

import { addDays, todayUtc } from '../../src/api/schemas/dates';
import type { ScrapedeckTestApi } from '../../src/extension';
import { ask } from './panelHarness';
import { getApi, pointAtSandbox, replaceUi, type SandboxSession, signInWithApiKey, waitFor } from './viewsHarness';

describe('Analytics export: Open and Reveal (real VS Code, sandbox)', function () {
  this.timeout(90_000);
  let api: ScrapedeckTestApi;
  let session: SandboxSession;
  let dir: string;

  before(async () => {
    api = await getApi();
    session = await pointAtSandbox(api);
    await signInWithApiKey(api, session.account('ada').apiKey);
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'scrapedeck-export-open-'));
  });

  after(async () => {
    for (const p of api?.analytics.panels() ?? []) p.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await session?.dispose();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('offers Open and Reveal once the file is written; Open shows it in an editor', async () => {
    const panel = api.analytics.openPanel();
    const today = todayUtc();
    const replies = await ask(panel, {
      type: 'query',
      id: 'x-rows',
      query: { start: addDays(today, -6), end: today, page: 1, pageSize: 100 },
    });
    const page = replies[0];
    assert.ok(page?.type === 'queryResult');
    const target = vscode.Uri.file(path.join(dir, 'rows.csv'));
    const offered: { message: string; items: string[] }[] = [];
    const restore = replaceUi(api, {
      showSaveDialog: () => Promise.resolve(target),
      showInformationMessage: (message: string, ...items: string[]) => {
        offered.push({ message, items });
        return Promise.resolve(items.includes('Open') ? 'Open' : undefined);
      },
    });
    try {
      const done = await ask(panel, { type: 'export', id: 'x-export', format: 'csv', resultId: page.resultId });
      assert.ok(done[done.length - 1]?.type === 'exportDone');
      await waitFor('the notification', () => offered.length > 0);
      const shown = offered[0];
      assert.ok(shown);
      assert.deepEqual(shown.items, ['Open', 'Reveal']);
      assert.match(shown.message, /^Exported [\d,]+ analytics rows? to rows\.csv\.$/);
      await waitFor(
        'the file in an editor',
        () => vscode.window.activeTextEditor?.document.uri.fsPath === target.fsPath,
      );
    } finally {
      restore();
    }
  });
});
