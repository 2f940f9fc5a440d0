/**
 * Reads the extension host's sources with the TypeScript parser for two l10n checks: which
 * messages the code passes to `l10n.t` (the keys of l10n/bundle.l10n.json, written by
 * scripts/l10n-bundle.mjs), and which user-facing places get a plain literal instead.
 *
 * Host side only: the analytics page (src/analytics/page and protocol, and the words of src/analytics/model it shows)
 * speaks from its own table (src/analytics/model/pageStrings.ts, whose values are bundle messages
 * too: pageTableMessages; its guard is pageL10nSource.ts); the embedded service (src/sandbox), the
 * client (src/api: text of the wire and the log) and the MCP server's entry are not localised.
 * A literal that must stay as it is carries a `l10n-exempt` comment on its line or the line before.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

import * as ts from 'typescript';

export const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

/** The pages (analytics, the data browser), the service, the wire, the MCP entry; analyticsModel holds the page's words (pure, shared with it). */
const NOT_HOST = /^src\/(analytics\/(page|protocol|model)|data\/browse\/(page|protocol)|sandbox|api)\/|^src\/mcp\.ts$/;

export function hostSources(root = ROOT): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const full = path.join(dir, name);
      return statSync(full).isDirectory() ? walk(full) : full.endsWith('.ts') ? [full] : [];
    });
  return walk(path.join(root, 'src'))
    .filter((f) => !NOT_HOST.test(path.relative(root, f).split(path.sep).join('/')))
    .sort();
}

export interface Place {
  file: string;
  line: number;
  text: string;
}

export function parse(file: string, text = readFileSync(file, 'utf8')): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
}

export function place(node: ts.Node, src: ts.SourceFile, root: string): Place {
  const { line } = src.getLineAndCharacterOfPosition(node.getStart(src));
  return {
    file: path.relative(root, src.fileName).split(path.sep).join('/'),
    line: line + 1,
    text: node.getText(src).slice(0, 120),
  };
}

/** `t(…)`, `l10n.t(…)`, `vscode.l10n.t(…)`, `ctx.t(…)`: the translator, however it was handed in. */
function isTranslateCall(node: ts.CallExpression): boolean {
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text === 't';
  return ts.isPropertyAccessExpression(callee) && callee.name.text === 't';
}

export interface Keys {
  keys: Map<string, Place[]>;
  /** `t(x)` with something other than a literal: no tool can know its key. */
  dynamic: Place[];
}

/** The analytics page's string table: the host translates each of its values (analytics/pageStrings.ts). */
export const PAGE_TABLE = 'src/analytics/model/pageStrings.ts';
/** The pages' string tables and the constant each is in: the hosts translate every value. */
export const PAGE_TABLES: ReadonlyArray<readonly [file: string, constant: string]> = [
  [PAGE_TABLE, 'PAGE_STRINGS'],
  ['src/data/browse/protocol/browseStrings.ts', 'BROWSE_STRINGS'],
];

/** The English values of the pages' tables, with where: every one is a message of the bundle. */
export function pageTableMessages(
  root = ROOT,
  read: (file: string) => string = (f) => readFileSync(f, 'utf8'),
): Map<string, Place[]> {
  const out = new Map<string, Place[]>();
  for (const [table, constant] of PAGE_TABLES) {
    const file = path.join(root, table);
    const src = parse(file, read(file));
    let found = 0;
    const visit = (node: ts.Node): void => {
      if (
        ts.isVariableDeclaration(node) &&
        ts.isIdentifier(node.name) &&
        node.name.text === constant &&
        node.initializer
      ) {
        let init: ts.Expression = node.initializer;
        while (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init))
          init = init.expression;
        if (!ts.isObjectLiteralExpression(init)) throw new Error(`${table}: ${constant} is not an object literal`);
        for (const p of init.properties) {
          if (
            !ts.isPropertyAssignment(p) ||
            !(ts.isStringLiteral(p.initializer) || ts.isNoSubstitutionTemplateLiteral(p.initializer))
          ) {
            throw new Error(
              `${table}:${place(p, src, root).line}: every entry of ${constant} must be a plain string literal`,
            );
          }
          const text = p.initializer.text;
          found++;
          out.set(text, [...(out.get(text) ?? []), place(p.initializer, src, root)]);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(src);
    if (found === 0) throw new Error(`${table}: no ${constant} found`);
  }
  return out;
}

/** `t(x)` marked `l10n-table`: it translates the page table's values, which pageTableMessages reads. */
function tableCall(node: ts.Node, src: ts.SourceFile): boolean {
  const { line } = src.getLineAndCharacterOfPosition(node.getStart(src));
  const lines = src.text.split('\n');
  return [lines[line], lines[line - 1]].some((l) => l?.includes('l10n-table') === true);
}

/** Every message passed to the translator, with where; plus the page table's messages (`withPage`). */
export function translatedKeys(files = hostSources(), root = ROOT, withPage = true): Keys {
  const keys = new Map<string, Place[]>(withPage ? pageTableMessages(root) : []);
  const dynamic: Place[] = [];
  for (const file of files) {
    const src = parse(file);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && isTranslateCall(node)) {
        const first = node.arguments[0];
        if (first !== undefined && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) {
          keys.set(first.text, [...(keys.get(first.text) ?? []), place(first, src, root)]);
        } else if (!tableCall(node, src)) {
          dynamic.push(place(node, src, root));
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(src);
  }
  return { keys, dynamic };
}

const NOT_SCREEN_CALLS = new Set(['defineTool', 'refine']);
/** Messages, buttons and modal details. */
const MESSAGE_CALLS = new Set([
  'showInformationMessage',
  'showWarningMessage',
  'showErrorMessage',
  'showModalWarning',
  'setStatusBarMessage',
]);
/** Properties that reach the screen: quick pick items and options, input boxes, progress, tree items, status bar. */
const SCREEN_PROPS = new Set([
  'label',
  'description',
  'detail',
  'tooltip',
  'title',
  'placeHolder',
  'placeholder',
  'prompt',
  'validationMessage',
  'invocationMessage',
  'message',
  'openLabel',
  'saveLabel',
]);
/** Assigned on an object that is already on screen (`item.text = …`, `node.tooltip = …`). */
const SCREEN_ASSIGNED = new Set([...SCREEN_PROPS, 'text', 'name']);

/** Literal words: letters outside `${…}` and `$(codicon)`. */
export function hasWords(text: string): boolean {
  return /\p{L}/u.test(text.replace(/\$\([\w~-]+\)/g, ''));
}

/** A literal the user would read as is: a string with words, or a branch of one that is. */
export function plainLiterals(expr: ts.Expression): ts.Node[] {
  if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return hasWords(expr.text) ? [expr] : [];
  if (ts.isTemplateExpression(expr)) {
    const literalText = [expr.head.text, ...expr.templateSpans.map((s) => s.literal.text)].join('');
    return hasWords(literalText) ? [expr] : expr.templateSpans.flatMap((s) => plainLiterals(s.expression));
  }
  if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr)) return plainLiterals(expr.expression);
  if (ts.isConditionalExpression(expr)) return [...plainLiterals(expr.whenTrue), ...plainLiterals(expr.whenFalse)];
  if (
    ts.isBinaryExpression(expr) &&
    [ts.SyntaxKind.PlusToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(
      expr.operatorToken.kind,
    )
  ) {
    return [...plainLiterals(expr.left), ...plainLiterals(expr.right)];
  }
  if (ts.isArrayLiteralExpression(expr))
    return expr.elements.flatMap((e) => (ts.isExpression(e) ? plainLiterals(e) : []));
  if (ts.isObjectLiteralExpression(expr))
    return expr.properties.flatMap((p) =>
      ts.isPropertyAssignment(p) && SCREEN_PROPS.has(propName(p.name)) ? plainLiterals(p.initializer) : [],
    );
  return [];
}

export function propName(name: ts.PropertyName): string {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : '';
}

export function calleeName(node: ts.CallExpression | ts.NewExpression): string {
  const callee = node.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return callee.kind === ts.SyntaxKind.SuperKeyword ? 'super' : '';
}

/** The argument literal that reaches the screen, by callee. */
function screenArguments(node: ts.CallExpression | ts.NewExpression): readonly ts.Expression[] {
  const args = node.arguments ?? [];
  const name = calleeName(node);
  if (MESSAGE_CALLS.has(name)) return args;
  if (name === 'createWebviewPanel') return args.slice(1, 2);
  if (name === 'TreeItem' || name === 'MarkdownString' || name === 'createOutputChannel' || name === 'super')
    return args.slice(0, 1);
  return [];
}

export function exempt(node: ts.Node, src: ts.SourceFile): boolean {
  const { line } = src.getLineAndCharacterOfPosition(node.getStart(src));
  const lines = src.text.split('\n');
  return [lines[line], lines[line - 1]].some((l) => l?.includes('l10n-exempt') === true);
}

/** `super(…)` only in classes that extend a TreeItem: other classes' constructors are not the screen. */
function inTreeItemClass(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node; at !== undefined; at = at.parent) {
    if (ts.isClassDeclaration(at) || ts.isClassExpression(at)) {
      return (at.heritageClauses ?? []).some((h) =>
        h.types.some((type) => /TreeItem$/.test(type.expression.getText())),
      );
    }
  }
  return false;
}

/** User-facing places that get a plain literal instead of a translated message. */
export function untranslatedLiterals(
  files = hostSources(),
  root = ROOT,
  read: (file: string) => string = (f) => readFileSync(f, 'utf8'),
): Place[] {
  return scanSources(files, root, read, (node, report) => {
    // The translator's own arguments are data; defineTool's fields are manifest text (package.nls.json);
    // zod refinements word input problems for the caller of an agent tool (the model), not for a person.
    if (ts.isCallExpression(node) && (isTranslateCall(node) || NOT_SCREEN_CALLS.has(calleeName(node)))) return false;
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      if (calleeName(node) !== 'super' || inTreeItemClass(node)) report(screenArguments(node).flatMap(plainLiterals));
      return true;
    }
    const value = screenValue(node, SCREEN_PROPS, SCREEN_ASSIGNED);
    if (value) report(plainLiterals(value));
    return true;
  });
}

/** The value an on-screen property (`{ label: … }`) or assignment (`item.text = …`) in `node` gets, if it is one. */
export function screenValue(
  node: ts.Node,
  props: ReadonlySet<string>,
  assigned: ReadonlySet<string>,
): ts.Expression | undefined {
  if (ts.isPropertyAssignment(node) && props.has(propName(node.name))) return node.initializer;
  const isAssignment =
    ts.isBinaryExpression(node) &&
    node.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
    ts.isPropertyAccessExpression(node.left) &&
    assigned.has(node.left.name.text);
  return isAssignment ? node.right : undefined;
}

/** Every place in `files` that `check` reports, but the exempt ones; `check` returns false to skip a node's children. */
export function scanSources(
  files: readonly string[],
  root: string,
  read: (file: string) => string,
  check: (node: ts.Node, report: (nodes: readonly ts.Node[]) => void) => boolean,
): Place[] {
  const found: Place[] = [];
  for (const file of files) {
    const src = parse(file, read(file));
    const report = (nodes: readonly ts.Node[]) => {
      for (const n of nodes) if (!exempt(n, src)) found.push(place(n, src, root));
    };
    const visit = (node: ts.Node): void => {
      if (check(node, report)) ts.forEachChild(node, visit);
    };
    visit(src);
  }
  return found;
}
