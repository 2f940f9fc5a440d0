// Whether two versions of a code file differ in layout alone: the same syntax tree and the same
// comments. `git diff -w` cannot show that for a formatter that wraps lines (a joined or split
// line is a changed line to git), so `npm run layout-only -- REV` shows it this way instead.
import { createRequire } from 'node:module';

const ts = createRequire(import.meta.url)('typescript');
const printer = ts.createPrinter({ removeComments: true });

/** Every node forgets its place in the text, so the printer cannot keep the old line breaks. */
function forget(node) {
  ts.forEachChild(node, forget, (nodes) => {
    nodes.hasTrailingComma = false;
    nodes.pos = -1;
    nodes.end = -1;
    nodes.forEach(forget);
  });
  if ('multiLine' in node) node.multiLine = false;
  node.pos = -1;
  node.end = -1;
}

/** Parentheses that change nothing (a formatter adds and drops them) are not kept. */
function withoutParentheses(node) {
  let n = node;
  while (ts.isParenthesizedExpression(n) || ts.isParenthesizedTypeNode(n)) n = n.expression ?? n.type;
  return ts.visitEachChild(n, withoutParentheses, ts.nullTransformationContext);
}

/** The comments in order, each with its runs of white space made one space. */
function commentsOf(sf) {
  const seen = new Map();
  const take = (ranges) => {
    for (const r of ranges ?? []) seen.set(r.pos, sf.text.slice(r.pos, r.end).replace(/\s+/g, ' '));
  };
  const visit = (node) => {
    take(ts.getLeadingCommentRanges(sf.text, node.pos));
    take(ts.getTrailingCommentRanges(sf.text, node.end));
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return [...seen.entries()].sort((a, b) => a[0] - b[0]).map(([, text]) => text);
}

/** The file's code printed one way, whatever its layout, and its comments. */
export function codeOf(fileName, text) {
  const kind = /\.[cm]?tsx?$/.test(fileName) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const comments = commentsOf(sf);
  const tree = ts.visitEachChild(sf, withoutParentheses, ts.nullTransformationContext);
  forget(tree);
  return { code: printer.printList(ts.ListFormat.MultiLine, tree.statements, tree), comments };
}

export function sameCode(fileName, before, after) {
  const a = codeOf(fileName, before);
  const b = codeOf(fileName, after);
  return a.code === b.code && a.comments.join('\n') === b.comments.join('\n');
}

export const isCodeFile = (path) => /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(path);
