/**
 * The data browser's extension side (src/data/browse/host/session.ts, html.ts): the page's
 * messages parsed (a bad one logged, not acted on), windows with long text cut and the whole
 * value on demand, a link opened only through the host's confirmation and only for http(s), a
 * copy tab-separated, and the page's shell under a nonce-only policy.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { BrowserSession, linkOf } from '../../src/data/browse/host/session';
import { CUT_CHARS, type HostMessage } from '../../src/data/browse/protocol';
import { indexFile } from '../../src/data/browse/store/fileIndexer';
import { RecordFile } from '../../src/data/browse/store/recordFile';
import { RowStore } from '../../src/data/browse/store/rowStore';
import { renderPageHtml } from '../../src/platform/webview/pageHtml';

describe('data browser: the session and its page shell', () => {
  let dir: string;
  let session: BrowserSession;
  const posted: HostMessage[] = [];
  const opened: string[] = [];
  const copied: string[] = [];
  const logged: string[] = [];
  const long = 'x'.repeat(CUT_CHARS + 50);

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'browse-session-'));
    const file = path.join(dir, 'rows.csv');
    writeFileSync(file, `name,link,note\nAnn,https://example.com/a?b=1,${long}\nBob,javascript:alert(1),<b>bold</b>\n`);
    const records = await RecordFile.open(file, 'csv');
    await indexFile(records);
    session = new BrowserSession(new RowStore(records), {
      title: 'rows.csv',
      post: (m) => posted.push(m),
      writeClipboard: (text) => Promise.resolve(void copied.push(text)),
      openLink: (url) => Promise.resolve(void opened.push(url)),
      exportView: () => Promise.resolve(),
      log: (_level, m) => logged.push(m),
    });
  });
  after(async () => {
    await session.store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const last = <T extends HostMessage['type']>(type: T) =>
    posted.filter((m): m is Extract<HostMessage, { type: T }> => m.type === type).at(-1);

  it('answers ready with init, and a window with its rows: numbered from 1, long text cut, markup as text', async () => {
    await session.receive({ type: 'ready' });
    assert.deepEqual(last('init')?.columns, ['name', 'link', 'note']);
    await session.receive({ type: 'window', id: 'w1', from: 0, count: 10 });
    const rows = last('rows');
    assert.equal(rows?.id, 'w1');
    assert.deepEqual(
      rows?.rows.map((r) => r.n),
      [1, 2],
    );
    assert.equal((rows?.rows[0]?.cells[2] as string).length, CUT_CHARS);
    assert.deepEqual(rows?.rows[0]?.cut, [2]);
    assert.equal(rows?.rows[1]?.cells[2], '<b>bold</b>', 'sent as text; the page sets it with textContent');
    await session.receive({ type: 'cell', id: 'c1', row: 0, column: 2 });
    assert.equal(last('cell')?.value, long, 'the whole value on demand');
  });

  it('a message that does not parse is logged and does nothing', async () => {
    const before = posted.length;
    await session.receive({ type: 'window', id: 'w2', from: -1, count: 10 });
    await session.receive({ type: 'copy', from: 0 });
    assert.equal(posted.length, before);
    assert.equal(logged.filter((l) => /does not parse/.test(l)).length, 2);
  });

  it("opens only an http(s) address, through the host's confirmation", async () => {
    await session.receive({ type: 'openLink', row: 0, column: 1 });
    await session.receive({ type: 'openLink', row: 1, column: 1 });
    assert.deepEqual(opened, ['https://example.com/a?b=1']);
    assert.equal(last('error')?.message, 'This cell does not hold a web address.');
    assert.equal(linkOf('see https://x.org'), undefined);
    assert.equal(linkOf('HTTP://x.org/'), 'http://x.org/');
  });

  it('copies a block tab-separated', async () => {
    await session.receive({ type: 'copy', from: 0, to: 1, firstColumn: 0, lastColumn: 1 });
    assert.deepEqual(copied, ['Ann\thttps://example.com/a?b=1\nBob\tjavascript:alert(1)']);
  });

  it("the shell allows only its nonce's script and the webview's own styles; text is escaped", () => {
    const html = renderPageHtml(
      {
        cspSource: 'vscode-webview://x',
        scriptUri: 'vscode-webview://x/browse.js',
        styleUri: 'vscode-webview://x/browse.css',
        title: '<img src=x onerror=alert(1)>',
        lang: 'de',
      },
      'NONCE',
    );
    assert.match(
      html,
      /default-src 'none'; img-src vscode-webview:\/\/x data:; style-src vscode-webview:\/\/x; font-src vscode-webview:\/\/x; script-src 'nonce-NONCE'/,
    );
    assert.ok(!html.includes('<img'), 'the title is text');
    assert.doesNotMatch(html, /unsafe/);
  });
});
