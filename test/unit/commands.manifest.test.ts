/**
 * The command id table (src/platform/commandIds.ts) and package.json agree both ways, and every
 * command the manifest names elsewhere (menus, welcome views, the walkthrough) is in the table.
 * The same table is checked against the commands VS Code really registered in
 * test/integration/smoke.test.ts.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { COMMAND_IDS, COMMANDS } from '../../src/platform/commandIds';

const ROOT = path.resolve(__dirname, '..', '..', '..');
interface Manifest {
  contributes: {
    commands: { command: string; title: string }[];
    menus: Record<string, { command: string }[]>;
    views: Record<string, { id: string }[]>;
  };
}
const manifestText = readFileSync(path.join(ROOT, 'package.json'), 'utf8');
const manifest = JSON.parse(manifestText) as Manifest;
const nls = JSON.parse(readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
const viewIds = Object.values(manifest.contributes.views).flatMap((list) => list.map((v) => v.id));

describe('command id table and package.json', () => {
  it('every contributed command is in the table', () => {
    const table = new Set<string>(COMMAND_IDS);
    assert.deepEqual(
      manifest.contributes.commands.map((c) => c.command).filter((id) => !table.has(id)),
      [],
    );
  });

  it('every id of the table is contributed, once', () => {
    const contributed = manifest.contributes.commands.map((c) => c.command);
    assert.deepEqual(
      COMMAND_IDS.filter((id) => !contributed.includes(id)),
      [],
    );
    assert.equal(new Set(contributed).size, contributed.length, 'no command contributed twice');
    assert.equal(new Set(COMMAND_IDS).size, COMMAND_IDS.length, 'no id twice in the table');
  });

  it('every menu entry names a command of the table', () => {
    const table = new Set<string>(COMMAND_IDS);
    const named = Object.values(manifest.contributes.menus).flatMap((entries) => entries.map((e) => e.command));
    assert.ok(named.length > 10, `${named.length} menu entries`);
    assert.deepEqual(
      named.filter((id) => !table.has(id)),
      [],
    );
  });

  it('every command: link of the welcome views and the walkthrough is in the table (or a view focus)', () => {
    const text = [manifestText, ...Object.values(nls)].join('\n');
    const linked = [...text.matchAll(/command:(scrapedeck\.[\w.]+)/g)].map((m) => m[1] as string);
    const events = [...manifestText.matchAll(/onCommand:(scrapedeck\.[\w.]+)/g)].map((m) => m[1] as string);
    const focus = new Set(viewIds.map((id) => `${id}.focus`));
    const table = new Set<string>(COMMAND_IDS);
    assert.ok(linked.length > 5);
    assert.deepEqual(
      [...linked, ...events].filter((id) => !table.has(id) && !focus.has(id)),
      [],
    );
  });

  it('the table keys name their ids (a key cannot point at another command by mistake)', () => {
    for (const [key, id] of Object.entries(COMMANDS)) {
      const last = id.split('.').at(-1) ?? '';
      assert.ok(key.toLowerCase().endsWith(last.toLowerCase()), `${key} -> ${id}`);
    }
  });

  it('a plan that cannot list tasks gets one Tasks welcome entry naming the plans, with Refresh and Switch Account', () => {
    const welcome = (
      JSON.parse(manifestText) as { contributes: { viewsWelcome: { view: string; contents: string; when: string }[] } }
    ).contributes.viewsWelcome;
    const plan = welcome.filter((w) => w.view === 'scrapedeck.tasks' && w.when.includes('scrapedeck.planLimited'));
    assert.equal(plan.length, 1);
    assert.equal(plan[0]?.when, 'scrapedeck.signedIn && scrapedeck.planLimited');
    const text = nls[(plan[0]?.contents ?? '').replace(/%/g, '')] ?? '';
    assert.match(text, /Standard, Professional or Enterprise plan/);
    assert.match(text, /\(command:scrapedeck\.tasks\.refresh\)/);
    assert.match(text, /\(command:scrapedeck\.switchAccount\)/);
  });
});
