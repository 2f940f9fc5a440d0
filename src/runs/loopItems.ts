/**
 * A loop's items as a text document, without `vscode`: one item a line, checked before anything
 * is sent (a URL list holds only http(s) URLs; a list holds 1 to 10,000 items), and the rule that
 * tells a save from a conflicting one (the list changed on the service since it was read).
 */
import { statusText } from './runKinds';
import type { Translate } from './runText';

/** The service's limit is not published; the sandbox's (and this check's) is 10,000 items. */
export const MAX_LOOP_ITEMS = 10_000;

export interface LineProblem {
  /** 0-based line, and the character range on it the problem covers. */
  readonly line: number;
  readonly start: number;
  readonly end: number;
  readonly message: string;
}

export interface ParsedLoop {
  /** Each non-empty line, trimmed, in order. */
  readonly items: string[];
  readonly problems: LineProblem[];
}

export function isUrlList(loopType: string | null): boolean {
  return (loopType ?? '').trim().toLowerCase() === 'urllist';
}

/** A loop's type in words: "URL list", "Text list"; a type the spec does not name is shown as sent, cleaned and short. */
export function loopTypeText(loopType: string, t: Translate): string {
  if (isUrlList(loopType)) return t('URL list');
  if (loopType.trim().toLowerCase() === 'textlist') return t('Text list');
  return t('List of type {0}', statusText(loopType));
}

/** Lines of a document; blank lines carry no item and are skipped. */
export function parseLoopText(text: string, loopType: string | null, t: Translate): ParsedLoop {
  const lines = text.split(/\r\n|\r|\n/);
  const items: string[] = [];
  const problems: LineProblem[] = [];
  const urls = isUrlList(loopType);
  lines.forEach((raw, line) => {
    const item = raw.trim();
    if (item === '') return;
    const start = raw.indexOf(item);
    items.push(item);
    const problem = urls ? urlProblem(item, t) : undefined;
    if (problem !== undefined) problems.push({ line, start, end: start + item.length, message: problem });
    if (items.length === MAX_LOOP_ITEMS + 1) {
      problems.push({
        line,
        start,
        end: start + item.length,
        message: t('A list holds at most {0} items; this is item {1}.', MAX_LOOP_ITEMS, MAX_LOOP_ITEMS + 1),
      });
    }
  });
  if (items.length === 0)
    problems.push({
      line: 0,
      start: 0,
      end: lines[0]?.length ?? 0,
      message: t('A list needs at least one item: write one per line.'),
    });
  return { items, problems };
}

/**
 * A pasted list can hold thousands of bad lines: at most this many are marked on their lines, and
 * one more mark, on the next bad line, counts the rest (the save's message gives the total).
 */
export const MAX_MARKED_PROBLEMS = 100;

/** The problems to mark: all of them up to the limit, else the first ones and a summary. */
export function markedProblems(problems: readonly LineProblem[], t: Translate): LineProblem[] {
  const next = problems[MAX_MARKED_PROBLEMS];
  if (next === undefined) return [...problems];
  const rest = problems.length - MAX_MARKED_PROBLEMS;
  const message =
    rest === 1
      ? t('1 more line needs fixing; only the first {0} are marked.', MAX_MARKED_PROBLEMS)
      : t('{0} more lines need fixing from here on; only the first {1} are marked.', rest, MAX_MARKED_PROBLEMS);
  return [...problems.slice(0, MAX_MARKED_PROBLEMS), { line: next.line, start: next.start, end: next.end, message }];
}

/** Why this line is not a URL the service takes, or undefined if it is one. */
export function urlProblem(item: string, t: Translate): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(item)) return t('A URL cannot contain spaces or control characters.');
  let url: URL;
  try {
    url = new URL(item);
  } catch {
    return t('Not a URL: write it in full, starting with https:// or http://.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return t('A URL here starts with https:// or http://, not {0}.', url.protocol);
  // The WHATWG parser mends "https:///x" and "https:/x"; the service gets the text as written.
  if (url.hostname === '' || !/^https?:\/\/[^/?#]/i.test(item)) return t('The URL has no host name.');
  return undefined;
}

/** The document for a list: one item a line, ending with a line break. */
export function loopText(items: readonly string[]): string {
  return items.length === 0 ? '' : `${items.join('\n')}\n`;
}

export function sameItems(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

export type SaveDecision =
  /** Nothing to send: the service already holds exactly this list. */
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'write' }
  /** Someone changed the list since it was read: show theirs and ours side by side, send nothing. */
  | { readonly kind: 'conflict' };

/**
 * `base` is the list as this document last read or wrote it, `current` the service's list now,
 * `mine` the document's. A save may only replace the list this document was based on.
 */
export function decideSave(
  base: readonly string[] | undefined,
  current: readonly string[],
  mine: readonly string[],
): SaveDecision {
  if (sameItems(current, mine)) return { kind: 'unchanged' };
  if (base === undefined || !sameItems(base, current)) return { kind: 'conflict' };
  return { kind: 'write' };
}
