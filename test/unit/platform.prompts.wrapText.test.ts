import * as assert from 'node:assert/strict';

import { WRAP_COLUMNS, wrapText } from '../../src/platform/prompts/wrapText';

describe('wrapText: prose on short lines for a text editor', () => {
  const sentence =
    'rows.txt belongs to another Scrapedeck account than the one signed in (or you are signed out), so its items are not shown. Sign in to that account and open the list again from its task.';

  it('breaks a long sentence at spaces into lines no longer than the width', () => {
    const lines = wrapText(sentence).split('\n');
    assert.ok(lines.length >= 3, lines.join('|'));
    for (const line of lines) assert.ok(line.length <= WRAP_COLUMNS, `${line.length}: ${line}`);
  });

  it('keeps every word, in order, and fills each line before starting the next', () => {
    const lines = wrapText(sentence, 40).split('\n');
    assert.equal(lines.join(' '), sentence);
    for (let i = 0; i + 1 < lines.length; i++) {
      const next = lines[i + 1].split(' ')[0];
      assert.ok(lines[i].length + 1 + next.length > 40, `line ${i} had room for “${next}”`);
    }
  });

  it('gives a word longer than a line a line of its own, whole', () => {
    const long = `see ${'x'.repeat(50)} here`;
    assert.deepEqual(wrapText(long, 20).split('\n'), ['see', 'x'.repeat(50), 'here']);
  });

  it('leaves a short text as it is, and folds runs of white space', () => {
    assert.equal(wrapText('one  line\n here'), 'one line here');
    assert.equal(wrapText(''), '');
  });
});
