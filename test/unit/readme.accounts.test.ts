/**
 * The README's table of seeded sandbox accounts says what `npm start` prints: each account with
 * its plan and every app it authors (a user adds those references in the Data Apps view).
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { buildWorld, publicAccount } from '../../src/sandbox/seed/seed';

const README = join(__dirname, '..', '..', '..', 'README.md');

/** The rows of the table headed "| Username | Plan | Notes |", by username. */
function accountRows(): Map<string, string> {
  const lines = readFileSync(README, 'utf8').split('\n');
  const head = lines.findIndex((l) => /^\|\s*Username\s*\|\s*Plan\s*\|/.test(l));
  assert.ok(head >= 0, 'the README has the seeded-accounts table');
  const rows = new Map<string, string>();
  for (const line of lines.slice(head + 2)) {
    if (!line.startsWith('|')) break;
    const user = /^\|\s*`([^`]+)`/.exec(line)?.[1];
    if (user) rows.set(user, line);
  }
  return rows;
}

describe('README: the seeded sandbox accounts', () => {
  const rows = accountRows();
  const accounts = buildWorld(1).accounts.map(publicAccount);

  it('lists every seeded account with its plan', () => {
    assert.deepEqual([...rows.keys()].sort(), accounts.map((a) => a.username).sort());
    for (const a of accounts)
      assert.match(rows.get(a.username) ?? '', new RegExp(`\\|\\s*${a.plan}\\s*\\|`), a.username);
  });

  it('names every app each account authors, as the start-up banner prints them', () => {
    for (const a of accounts) {
      for (const ref of a.apps)
        assert.ok((rows.get(a.username) ?? '').includes(`\`${ref}\``), `${ref} in ${a.username}'s row`);
    }
  });
});
