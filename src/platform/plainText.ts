/**
 * Text from outside the extension (task and group names, an app reference a model wrote, a status
 * the service sent, a file's name, a record's field) as it may appear in a message: one line of
 * plain text that no surface turns into something else. This is the ONE way outside text enters a
 * message, a modal, a prompt, a pick item, the status bar or a tool's confirmation
 * (`test/unit/outsideText.test.ts` fails on a call site that takes it any other way). A forged line
 * ("Stop “x”?\n\nThis is safe: press Enter") and a live link (VS Code runs `[label](command:…)` in
 * a notification) both do harm. A surface that renders markdown gets the whole message through
 * `markdownOfPlainText`. No `vscode`: the same rules hold in the MCP server's elicitation.
 */

/** Confirmations quote names, not essays: longer text is cut and ends with "…". */
export const PLAIN_TEXT_MAX = 120;

/**
 * Control and format characters (C0, C1, bidirectional overrides and isolates, zero-width joiners,
 * the BOM, the soft hyphen), line and paragraph separators, and the blank Hangul fillers: each can
 * hide, reorder or break the text shown.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|\u115f|\u1160|\u3164|\uffa0/gu;

/** What `plainText` returns (a string; the brand lets the source scan tell it from raw outside text). */
export type PlainText = string & { readonly __plainText: true };

/**
 * The syntax that turns text into something live, each broken by one visible change that keeps
 * the text readable: `](` (an inline link or image: notifications, quick input messages and
 * markdown all need the two adjacent) gets a space; `$(` (a codicon in the status bar and pick
 * items) gets a space; `<` before a letter, `/`, `!` or `?` (an autolink `<command:…>` or an HTML
 * tag) gets a space; a `command:` URI, bare, gets a space before its colon; a backtick (which
 * would close a code span around the text) becomes an apostrophe.
 */
const LIVE: readonly [RegExp, string][] = [
  [/\]\(/g, '] ('],
  [/\$\(/g, '$ ('],
  [/<(?=[a-z/!?])/gi, '< '],
  [/(command):/gi, '$1 :'],
  [/`/g, "'"],
];

/**
 * One line: invisible characters become spaces, runs of white space one space, no link, image,
 * autolink, HTML tag, `command:` URI or codicon left, at most `max` characters. Idempotent.
 */
export function plainText(value: string, max: number = PLAIN_TEXT_MAX): PlainText {
  let line = value.normalize('NFC').replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim();
  for (const [pattern, replacement] of LIVE) line = line.replace(pattern, replacement);
  if (line.length <= max) return line as PlainText;
  // Cut on a code point, never inside a surrogate pair.
  const cut = [...line].slice(0, Math.max(1, max - 1)).join('');
  return `${cut.trimEnd()}…` as PlainText;
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
