/**
 * Text from outside the extension (task and group names, an app reference a model wrote, a status
 * the service sent) as it may appear in what a person is asked to approve: one line of plain text.
 * Confirmations are where a forged line does most harm ("Stop “x”?\n\nThis is safe: press Enter"),
 * so every confirmation, dialog and typed-name step passes such text through `plainText` first,
 * and a surface that renders markdown gets the whole message through `markdownOfPlainText`. No
 * `vscode`: the same rules hold in the MCP server's elicitation.
 */

/** Confirmations quote names, not essays: longer text is cut and ends with "…". */
export const PLAIN_TEXT_MAX = 120;

/**
 * Control and format characters (C0, C1, bidirectional overrides and isolates, zero-width joiners,
 * the BOM, the soft hyphen), line and paragraph separators, and the blank Hangul fillers: each can
 * hide, reorder or break the text shown.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|\u115f|\u1160|\u3164|\uffa0/gu;

/** One line: invisible characters become spaces, runs of white space one space, at most `max` characters. */
export function plainText(value: string, max: number = PLAIN_TEXT_MAX): string {
  const line = value.normalize('NFC').replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim();
  if (line.length <= max) return line;
  // Cut on a code point, never inside a surrogate pair.
  const cut = [...line].slice(0, Math.max(1, max - 1)).join('');
  return `${cut.trimEnd()}…`;
}

/** Every ASCII punctuation mark may be escaped in CommonMark; escaping all of them leaves no syntax. */
const MARKDOWN_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

/**
 * Plain text (already `plainText` where it came from outside) as markdown that renders to exactly
 * that text: no emphasis, link, image, HTML, autolink or `command:` URI can form. Line breaks are
 * kept as hard breaks, so a bulleted explanation stays one item a line.
 */
export function markdownOfPlainText(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.replace(MARKDOWN_PUNCTUATION, (c) => `\\${c}`))
    .join('  \n');
}
