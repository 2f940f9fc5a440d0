/** Service text in confirmations (src/platform/plainText.ts): one plain line, capped; markdown that renders to exactly it. */
import * as assert from 'node:assert/strict';

import { markdownOfPlainText, PLAIN_TEXT_MAX, plainText } from '../../src/platform/plainText';

describe('plain text for confirmations', () => {
  it('one line: line breaks, control, format and bidi characters become spaces, runs of space one', () => {
    assert.equal(plainText('Prices\n\n**Safe**: press Enter\r\u0007 now'), 'Prices **Safe**: press Enter now');
    assert.equal(plainText('a\u2028b\u2029c\u0085d\u000be'), 'a b c d e');
    assert.equal(plainText('evil\u202Egnp.exe\u2066x\u2069'), 'evil gnp.exe x');
    assert.equal(plainText('zero\u200Bwidth\uFEFF joiner\u200D'), 'zero width joiner');
    assert.equal(plainText('  trimmed \t '), 'trimmed');
  });

  // VS Code's notifications, quick input messages and dialogs find links with this pattern
  // (vs/base/common/linkedText.ts); markdown's inline links and images need the same `](`.
  const LINKED_TEXT = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
  const ATTACKS = [
    '[Accept](command:workbench.action.terminal.new)',
    'Prices ![x](https://evil.example/p.png) [Open](file:///etc/passwd "t")',
    'a [b]\n(command:x) c',
    '<command:workbench.action.openSettings> <https://evil.example> <img src=x onerror=alert(1)> </b> <!-- c -->',
    'run command:workbench.action.terminal.new now $(warning) $(sync~spin)',
    'name` [x](command:y) `',
  ];

  it('leaves no link, image, autolink, HTML tag, command: URI, codicon or backtick: every attack reads as text', () => {
    for (const attack of ATTACKS) {
      const text = plainText(attack, 1000);
      assert.doesNotMatch(text, LINKED_TEXT, attack);
      assert.doesNotMatch(text, /\]\(/, attack);
      assert.doesNotMatch(text, /<[a-z/!?]/i, attack);
      assert.doesNotMatch(text, /command:/i, attack);
      assert.doesNotMatch(text, /\$\(/, attack);
      assert.doesNotMatch(text, /`/, attack);
      assert.equal(plainText(text, 1000), text, `idempotent: ${attack}`);
    }
    assert.equal(
      plainText('[Accept](command:workbench.action.terminal.new)'),
      '[Accept] (command :workbench.action.terminal.new)',
    );
    assert.equal(plainText('<command:x> $(zap)'), '< command :x> $ (zap)');
  });

  it('ordinary names are unchanged', () => {
    for (const name of [
      'Shop [EU] (daily)',
      'Prices: 2 < 3 > 1',
      'Cost $ (net)',
      'https://example.com/list',
      'A & B',
    ]) {
      assert.equal(plainText(name), name);
    }
  });

  it('capped on a code point, ending with an ellipsis', () => {
    const long = 'x'.repeat(1_000_000);
    assert.equal(plainText(long).length, PLAIN_TEXT_MAX);
    assert.ok(plainText(long).endsWith('…'));
    const emoji = '😀'.repeat(10);
    assert.equal(plainText(emoji, 5), '😀😀😀😀…', 'never half a surrogate pair');
    assert.equal(plainText('short', 5), 'short');
  });

  it('markdown of plain text: every punctuation mark escaped, so no link, command: URI, emphasis or HTML forms', () => {
    const md = markdownOfPlainText('Stop “[x](command:workbench.action.terminal.new)” <img src=x> *now* `code` &amp;');
    assert.doesNotMatch(md, /(^|[^\\])\[x\]\(command:/);
    assert.equal(
      md,
      'Stop “\\[x\\]\\(command\\:workbench\\.action\\.terminal\\.new\\)” \\<img src\\=x\\> \\*now\\* \\`code\\` \\&amp\\;',
    );
    // Unescaping gives the text back.
    assert.equal(
      md.replace(/\\(.)/g, '$1'),
      'Stop “[x](command:workbench.action.terminal.new)” <img src=x> *now* `code` &amp;',
    );
  });

  it('keeps the lines of an explanation as hard line breaks', () => {
    assert.equal(
      markdownOfPlainText('Account ada.\n\n• The app leaves market search.'),
      'Account ada\\.  \n  \n• The app leaves market search\\.',
    );
  });
});
