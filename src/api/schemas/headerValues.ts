/**
 * What may travel in an HTTP header value. Keys, tokens and the external user id are sent as
 * headers; a character the header layer refuses (CR, LF, NUL and other control characters, or
 * anything beyond Latin-1) used to fail there, be reported as a network error and be retried.
 * Checked where the value is typed, read from settings or received, so it never reaches the wire.
 */

const NAMES: Record<number, string> = {
  0x00: 'a NUL character',
  0x09: 'a tab',
  0x0a: 'a line break (LF)',
  0x0d: 'a carriage return (CR)',
  0x7f: 'a DEL character',
};

function describeChar(ch: string): string {
  const code = ch.codePointAt(0) as number;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  if (NAMES[code] !== undefined) return `${NAMES[code]} (${hex})`;
  if (code < 0x20 || (code >= 0x80 && code < 0xa0)) return `a control character (${hex})`;
  return `"${ch}" (${hex}), which is not a Latin-1 character`;
}

/** "contains a line break (LF) (U+000A) at position 3" for the first character a header refuses, or undefined. */
export function headerValueIssue(value: string): string | undefined {
  let position = 0;
  for (const ch of value) {
    position++;
    const code = ch.codePointAt(0) as number;
    const ok = (code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code <= 0xff);
    if (!ok) return `contains ${describeChar(ch)} at position ${position}`;
  }
  return undefined;
}

/**
 * Why `value` cannot be sent as the header value it is meant to be (`what`, e.g. "The API key"),
 * naming the first character not allowed and where it is; undefined when it can.
 */
export function headerValueProblem(value: string, what: string): string | undefined {
  const issue = headerValueIssue(value);
  return issue === undefined ? undefined : `${what} ${issue}; it cannot be sent in an HTTP header.`;
}

/**
 * Why a member name cannot be sent in an analytics query (a JSON body, so only control characters
 * are refused: they are never part of a name and would reach logs and the page).
 */
export function textValueProblem(value: string, what: string): string | undefined {
  let position = 0;
  for (const ch of value) {
    position++;
    const code = ch.codePointAt(0) as number;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0) || code === 0x2028 || code === 0x2029) {
      return `${what} contains ${describeChar(ch)} at position ${position}.`;
    }
  }
  return undefined;
}
