/**
 * The data browser's HTML shell, as the analytics page's: a policy that allows nothing by
 * default, the one script by a fresh nonce, styles only from the webview's own origin, no inline
 * style. Pure, so the policy is unit-tested.
 */
import { randomBytes } from 'node:crypto';

export interface BrowseHtml {
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  title: string;
  lang: string;
  /** The page's words in VS Code's language (only the entries that differ from English). */
  strings?: Readonly<Record<string, string>>;
}

export function browseHtml(r: BrowseHtml, nonce = randomBytes(16).toString('base64')): string {
  const csp = [
    "default-src 'none'",
    `img-src ${r.cspSource} data:`,
    `style-src ${r.cspSource}`,
    `font-src ${r.cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
  const lang = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/.test(r.lang) ? r.lang : 'en';
  const words = r.strings !== undefined && Object.keys(r.strings).length > 0 ? r.strings : undefined;
  // The page's words are English unless the host sent a table: <html lang> says which.
  const l10n = words !== undefined ? ` data-l10n="${attr(JSON.stringify(words))}"` : '';
  return `<!DOCTYPE html>
<html lang="${words !== undefined ? lang : 'en'}" data-locale="${lang}"${l10n}>
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(r.styleUri)}">
<title>${text(r.title)}</title>
</head>
<body>
<div id="app"></div>
<script nonce="${attr(nonce)}" src="${attr(r.scriptUri)}"></script>
</body>
</html>
`;
}

const text = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const attr = (s: string): string => text(s).replace(/"/g, '&quot;');
