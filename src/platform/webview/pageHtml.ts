/**
 * The HTML shell of every Scrapedeck webview page (the analytics page, the data browser). Pure
 * (strings in, string out) so the CSP is unit-tested.
 *
 * The policy allows nothing by default; the one script runs by a fresh crypto nonce per render;
 * styles, fonts and images come only from the webview's own resource origin. No 'unsafe-inline':
 * the page sets sizes through the CSSOM (allowed), never through inline style attributes.
 */
import { randomBytes } from 'node:crypto';

export interface HtmlResources {
  /** `webview.cspSource`. */
  cspSource: string;
  /** The page's script (`asWebviewUri(dist/webview/<page>.js)`), as a string. */
  scriptUri: string;
  /** The page's stylesheet, as a webview URI string. */
  styleUri: string;
  title: string;
  /**
   * VS Code's UI language (`vscode.env.language`): the page formats numbers its way
   * (`data-locale`). `<html lang>` names the language of the words: English without a table.
   */
  lang?: string;
  /** The page's words in that language (each page's host/translatePage.ts); absent or empty: English. */
  strings?: Readonly<Record<string, string>>;
}

/** A BCP 47 tag as VS Code names languages ("en", "de", "zh-cn"); anything else is "en". */
export function pageLang(lang: string | undefined): string {
  return lang !== undefined && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/.test(lang) ? lang : 'en';
}

/**
 * The language the page's words are in: VS Code's with a table, else English (a screen reader
 * reads them as such). A partial table counts as that language.
 */
export function wordsLang(resources: Pick<HtmlResources, 'lang' | 'strings'>): string {
  const lang = pageLang(resources.lang);
  return hasStrings(resources.strings) || /^en(-|$)/i.test(lang) ? lang : 'en';
}

const hasStrings = (
  strings: Readonly<Record<string, string>> | undefined,
): strings is Readonly<Record<string, string>> => strings !== undefined && Object.keys(strings).length > 0;

/** 128 random bits, base64: a CSP nonce nobody can guess (never Math.random). */
export function createNonce(): string {
  return randomBytes(16).toString('base64');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

export function renderPageHtml(resources: HtmlResources, nonce: string = createNonce()): string {
  const csp = contentSecurityPolicy(resources.cspSource, nonce);
  return `<!DOCTYPE html>
<html lang="${wordsLang(resources)}" data-locale="${pageLang(resources.lang)}"${l10nAttr(resources.strings)}>
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttr(resources.styleUri)}">
<title>${escapeText(resources.title)}</title>
</head>
<body>
<div id="app"></div>
<script nonce="${escapeAttr(nonce)}" src="${escapeAttr(resources.scriptUri)}"></script>
</body>
</html>
`;
}

/**
 * The page's table as a JSON data attribute: read before the first paint, no extra message, and
 * no inline script (the CSP stays nonce-only). Escaped like any attribute, so no entry can end it.
 */
function l10nAttr(strings: Readonly<Record<string, string>> | undefined): string {
  return hasStrings(strings) ? ` data-l10n="${escapeAttr(JSON.stringify(strings))}"` : '';
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttr(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;');
}
