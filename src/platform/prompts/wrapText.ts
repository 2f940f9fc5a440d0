/**
 * Prose shown as a document's text (a placeholder read in a text editor): lines broken at spaces
 * so it reads without scrolling sideways, as editors do not wrap by default. A word longer than a
 * line keeps its own line whole. No `vscode`: a pure function, tested alone.
 */

/** About the width of an editor beside the sidebar at the default zoom. */
export const WRAP_COLUMNS = 72;

/** `text`'s words, in order, on lines of at most `columns` characters (but for a longer word). */
export function wrapText(text: string, columns = WRAP_COLUMNS): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= columns) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return lines.join('\n');
}
