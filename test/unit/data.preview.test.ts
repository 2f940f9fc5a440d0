/**
 * The preview's Markdown table: the task's own field names in first-seen order, one line per
 * row, and every value escaped so scraped text cannot become markup, HTML, math or a table break.
 */
import * as assert from 'node:assert/strict';
import { columnsOf, escapeCell, previewMarkdown } from '../../src/data/preview/previewTable';

describe('data: preview table', () => {
  const text = { title: 'Data of “T”', summary: 'All 3 rows', empty: 'No rows.' };

  it('columns are the union of field names in first-seen order', () => {
    assert.deepEqual(columnsOf([{ b: '1', a: '2' }, { c: '3', a: '4' }, {}]), ['b', 'a', 'c']);
  });

  it('a header of the real names, a separator, one line per row; missing fields are empty cells', () => {
    const md = previewMarkdown([{ Title: 'Kettle', Price: '9.99' }, { Title: 'Lamp' }, { Price: null, Extra: true }], text);
    const lines = md.trimEnd().split('\n');
    assert.deepEqual(lines.slice(0, 3), ['# Data of “T”', '', 'All 3 rows']);
    assert.deepEqual(lines.slice(4), ['| Title | Price | Extra |', '| --- | --- | --- |', '| Kettle | 9\\.99 |  |', '| Lamp |  |  |', '|  |  | true |']);
  });

  it('escapes markup: pipes, emphasis, links, HTML, code, math, entities; line breaks become <br>', () => {
    assert.equal(escapeCell('a|b'), 'a\\|b');
    assert.equal(escapeCell('*x* _y_ [l](u) <b> `c` $1 &amp; ~s~ #h'), '\\*x\\* \\_y\\_ \\[l\\]\\(u\\) \\<b\\> \\`c\\` \\$1 \\&amp; \\~s\\~ \\#h');
    assert.equal(escapeCell('one\ntwo\r\nthree\rfour'), 'one<br>two<br>three<br>four');
    assert.equal(escapeCell('back\\slash'), 'back\\\\slash');
    // Bare URLs, domains and addresses would become links in the preview (linkify).
    assert.equal(escapeCell('http://example.invalid a@b.com'), 'http\\://example\\.invalid a\\@b\\.com');
    assert.equal(escapeCell(null), '');
    assert.equal(escapeCell(-3), '-3');
    assert.equal(/(^|[^\\])</.test(escapeCell('<script>alert(1)</script>')), false, 'every < is escaped: no HTML tag survives');
  });

  it('no rows: the summary and the empty note, no table', () => {
    assert.equal(previewMarkdown([], text), '# Data of “T”\n\nAll 3 rows\n\nNo rows.\n');
  });
});
