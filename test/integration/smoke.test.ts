/** The harness's own proof: the extension is there, activates, and registers what it contributes. */
import * as assert from 'node:assert/strict';

import * as vscode from 'vscode';

import { COMMAND_IDS } from '../../src/platform/commandIds';

const EXTENSION_ID = 'scrapedeck.scrapedeck';

interface ContributedCommand {
  command: string;
}

describe('Scrapedeck in a real VS Code (smoke)', () => {
  it('is installed as a development extension', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `extension ${EXTENSION_ID} not found`);
  });

  it('activates', async function () {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('registers every command of the id table, and the manifest contributes exactly those', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    const packageJson = ext.packageJSON as {
      contributes?: { commands?: ContributedCommand[]; views?: Record<string, { id: string }[]> };
    };
    const contributed = (packageJson.contributes?.commands ?? []).map((c) => c.command);
    assert.ok(contributed.length > 0, 'the manifest contributes no commands');
    assert.deepEqual(
      [...contributed].sort(),
      [...COMMAND_IDS].sort(),
      'package.json and src/platform/commandIds.ts list the same commands',
    );
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = COMMAND_IDS.filter((id) => !registered.has(id));
    assert.deepEqual(missing, [], `in the table but not registered: ${missing.join(', ')}`);
    // VS Code adds commands of its own per view (`<view id>.focus`, `.open`, …): not ours to list.
    const viewIds = Object.values(packageJson.contributes?.views ?? {}).flatMap((list) => list.map((v) => v.id));
    const viewCommand = (id: string) =>
      viewIds.some(
        (view) =>
          /^(focus|open|resetViewLocation|toggleVisibility|removeView)$/.test(id.slice(view.length + 1)) &&
          id.startsWith(`${view}.`),
      );
    const ours = [...registered].filter((id) => id.startsWith('scrapedeck.') && !viewCommand(id));
    const unlisted = ours.filter((id) => !(COMMAND_IDS as readonly string[]).includes(id));
    assert.deepEqual(unlisted, [], `registered but not in the table: ${unlisted.join(', ')}`);
  });
});
