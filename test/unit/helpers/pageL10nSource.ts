/**
 * The analytics page's side of the l10n guard: reads src/analytics/page/** and protocol/** with the TypeScript parser and
 * finds plain literals with words where the page puts text on screen, instead of its table's
 * `t(key)` (src/analytics/page/common/l10n.ts). A literal that is one of the table's keys is a key,
 * not words. A literal that must stay carries a `l10n-exempt` comment on its line or the line before.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

import * as ts from 'typescript';

import { PAGE_STRINGS } from '../../../src/analytics/model/pageStrings';
import { BROWSE_STRINGS } from '../../../src/data/browse/protocol/browseStrings';
import { calleeName, type Place, plainLiterals, ROOT, scanSources, screenValue } from './l10nSource';

/** The data browser's page (src/data/browse/page/**), which speaks from its own table (data/browse/protocol/browseStrings.ts). */
export function browsePageSources(root = ROOT): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? walk(full) : full.endsWith('.ts') ? [full] : [];
    });
  return walk(path.join(root, 'src', 'data', 'browse', 'page')).sort();
}

export function pageSources(root = ROOT): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? walk(full) : full.endsWith('.ts') ? [full] : [];
    });
  return [
    ...walk(path.join(root, 'src', 'analytics', 'page')),
    ...walk(path.join(root, 'src', 'analytics', 'protocol')),
  ].sort();
}

/** Properties whose value reaches the screen: h()/button() props and attrs, and the page state's texts. */
const SCREEN_PROPS = new Set([
  'text',
  'title',
  'label',
  'placeholder',
  'message',
  'notice',
  'action',
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'alt',
]);
/** Set on an element (or the state) that is on screen. */
const SCREEN_ASSIGNED = new Set([
  'textContent',
  'innerText',
  'title',
  'placeholder',
  'ariaLabel',
  'ariaDescription',
  'notice',
  'label',
  'data',
]);
/** Attributes a person (or a screen reader) reads. */
const SCREEN_ATTRS = new Set([
  'title',
  'placeholder',
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'alt',
]);
/** DOM calls whose string arguments become text nodes. */
const TEXT_CALLS = new Set([
  'append',
  'prepend',
  'replaceChildren',
  'before',
  'after',
  'createTextNode',
  'replaceWith',
]);
const KEYS = new Set<string>([...Object.keys(PAGE_STRINGS), ...Object.keys(BROWSE_STRINGS)]);

function words(expr: ts.Expression): ts.Node[] {
  return plainLiterals(expr).filter(
    (n) => !((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) && KEYS.has(n.text)),
  );
}

/** The page's on-screen places that get a plain literal instead of `t(key)`. */
export function pageLiterals(
  files = pageSources(),
  root = ROOT,
  read: (file: string) => string = (f) => readFileSync(f, 'utf8'),
): Place[] {
  return scanSources(files, root, read, (node, report) => {
    if (ts.isCallExpression(node)) {
      const name = calleeName(node);
      const args = node.arguments;
      if (name === 't' || name === 'tOr' || name === 'pageText') return false; // the table's keys and fallbacks are data
      if (name === 'h') report(args.slice(2).flatMap(words)); // children
      if (name === 'button' && args[0]) report(words(args[0])); // its label
      if (name === 'el' && args[2]) report(words(args[2])); // the data browser's el(tag, class, text)
      if (TEXT_CALLS.has(name)) report(args.flatMap(words));
      const attr = args[0];
      if (name === 'setAttribute' && attr && ts.isStringLiteral(attr) && SCREEN_ATTRS.has(attr.text) && args[1])
        report(words(args[1]));
      return true;
    }
    const value = screenValue(node, SCREEN_PROPS, SCREEN_ASSIGNED);
    if (value) report(words(value));
    return true;
  });
}
