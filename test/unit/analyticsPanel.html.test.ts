import * as assert from 'node:assert/strict';

import {
  contentSecurityPolicy,
  createNonce,
  type HtmlResources,
  renderPageHtml,
} from '../../src/platform/webview/pageHtml';

const resources: HtmlResources = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/analytics.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/analytics.css',
  title: 'Analytics: <Prices> & "more"',
};

function cspOf(html: string): string {
  const m = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  assert.ok(m?.[1], 'a CSP meta tag');
  return m[1].replace(/&amp;/g, '&').replace(/&quot;/g, '"');
}

describe('analytics panel HTML shell', () => {
  it('allows nothing by default, scripts only by nonce, everything else only from the webview origin', () => {
    const html = renderPageHtml(resources, 'abc123==');
    const csp = cspOf(html);
    assert.equal(csp, contentSecurityPolicy(resources.cspSource, 'abc123=='));
    const directives = new Map(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([k, ...v]) => [k as string, v]),
    );
    assert.deepEqual(directives.get('default-src'), ["'none'"]);
    assert.deepEqual(directives.get('script-src'), ["'nonce-abc123=='"]);
    assert.deepEqual(directives.get('style-src'), [resources.cspSource]);
    assert.deepEqual(directives.get('font-src'), [resources.cspSource]);
    assert.deepEqual(directives.get('img-src'), [resources.cspSource, 'data:']);
    assert.ok(!csp.includes('unsafe-inline') && !csp.includes('unsafe-eval'));
    const sources = [...directives.values()].flat();
    const allowed = new Set(["'none'", "'nonce-abc123=='", resources.cspSource, 'data:']);
    assert.deepEqual(
      sources.filter((s) => !allowed.has(s)),
      [],
      'only the webview origin (no CDN, no https: wildcard)',
    );
  });

  it('loads one script with the nonce and one stylesheet, both by webview URI, and has the app root', () => {
    const html = renderPageHtml(resources, 'n0nce');
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    assert.deepEqual(scripts, [`<script nonce="n0nce" src="${resources.scriptUri}">`]);
    assert.match(html, new RegExp(`<link rel="stylesheet" href="${resources.styleUri.replace(/[.+]/g, '\\$&')}">`));
    assert.match(html, /<div id="app"><\/div>/);
    assert.doesNotMatch(html, /\sstyle=|<style|\son\w+=/i, 'no inline styles or handlers');
    assert.doesNotMatch(html, /https?:\/\/(?!file\+\.vscode-resource)/, 'no other origin (no CDN)');
  });

  it('escapes the title (task names are user content)', () => {
    const html = renderPageHtml(resources, 'n');
    assert.match(html, /<title>Analytics: &lt;Prices&gt; &amp; "more"<\/title>/);
  });

  it('uses a fresh crypto nonce per render', () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const html = renderPageHtml(resources);
      const m = /<script nonce="([^"]+)"/.exec(html);
      assert.ok(m?.[1]);
      assert.equal(cspOf(html).includes(`'nonce-${m[1]}'`), true, 'the script nonce is the CSP nonce');
      nonces.add(m[1]);
    }
    assert.equal(nonces.size, 50);
    assert.match(createNonce(), /^[A-Za-z0-9+/]{22}==$/, '128 bits, base64');
  });
  it("carries the page's translated words as one escaped data attribute, and nothing in English", () => {
    const strings = { 'form.run': 'Abfrage "ausführen" <jetzt> & gleich', 'page.title': "Aufgaben'analyse" };
    const html = renderPageHtml({ ...resources, lang: 'de', strings }, 'n0nce');
    const m = /<html lang="de" data-locale="de" data-l10n="([^"]*)">/.exec(html);
    assert.ok(m?.[1], 'data-l10n on <html>');
    assert.doesNotMatch(m[1], /[<>"]/, 'no entry can end the attribute or open a tag');
    const decoded = m[1]
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
    assert.deepEqual(JSON.parse(decoded), strings);
    assert.deepEqual(
      html.match(/<script\b[^>]*>/g),
      [`<script nonce="n0nce" src="${resources.scriptUri}">`],
      'still one script, no inline one',
    );
    for (const none of [undefined, {}]) {
      assert.doesNotMatch(renderPageHtml({ ...resources, strings: none }, 'n0nce'), /data-l10n/);
    }
  });
  it("names the language of the words in <html lang> (English without a table) and VS Code's in data-locale (numbers)", () => {
    const tag = (r: Partial<typeof resources> & { lang?: string; strings?: Record<string, string> }) =>
      /<html lang="([^"]*)" data-locale="([^"]*)"/.exec(renderPageHtml({ ...resources, ...r }, 'n0nce'))?.slice(1);
    assert.deepEqual(tag({ lang: 'de', strings: { 'form.run': 'Abfrage ausführen' } }), ['de', 'de']);
    assert.deepEqual(tag({ lang: 'fr' }), ['en', 'fr'], 'no French table: English words, French numbers');
    assert.deepEqual(tag({ lang: 'en-gb' }), ['en-gb', 'en-gb']);
    assert.deepEqual(tag({ lang: 'xx-"><script>' }), ['en', 'en'], 'malformed: English');
  });
});
