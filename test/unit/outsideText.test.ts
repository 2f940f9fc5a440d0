/**
 * Outside text (task and group names from the service, loop items, a hub's app references and
 * missing secrets, a pull record's task, a file's name) reaches a message only through `plainText`
 * (src/platform/plainText.ts), which leaves no link, image, autolink, HTML tag, `command:` URI or
 * codicon (issue 44 item 4: VS Code runs `[label](command:…)` in a notification). A taint scan of
 * the extension host's sources (hostSources(): everything but the page, the sandbox, the client and
 * the MCP entry; the MCP consent and tools are in), with the TypeScript parser:
 *
 * Outside text is an access of an outside field (OUTSIDE_FIELDS: `task.taskName`,
 * `first.task.taskName`, `loop.loopItems[0]`, `app.ref`), a name destructured from one, a parameter
 * that carries one between functions (OUTSIDE_PARAMS by name, unless declared `PlainText`, `number`
 * or `boolean`), a `const` or `let` given one (every assignment counts), or a call or method given
 * one (`taskName.trim()`, `String(x)`, `couldNot(verb, task.taskName)`). Only `plainText(…)`,
 * `markdownOfPlainText(…)` and `t(…)` itself clean it.
 *
 * 1. Every value put into a localized message (`t('…', a, b)`, `l10n.t`, however it is handed in)
 *    is not outside text.
 * 2. What a message call, a pick item, an input box, a progress title, the status bar or markdown
 *    is given (`showInformationMessage`, `showWarningMessage`, `showErrorMessage`, `showModalWarning`,
 *    `setStatusBarMessage`, `showQuickPick`, `showInputBox`, `withProgress`, `new MarkdownString`,
 *    `appendMarkdown`, `elicitInput`, and the screen properties `label`, `description`, `detail`,
 *    `title`, `prompt`, `placeHolder`, `message`, `tooltip` of object literals anywhere), taken apart
 *    through `+`, templates, `?:`, `??`, `||`, arrays, object literals and `.map((x) => ({…}))`, has
 *    no piece that is outside text. A function given outside text is not followed here: its own
 *    `t(…)` is checked by rule 1 (refusalText, for one, cleans its arguments first).
 *
 * What it does not see: outside text under a field name not in OUTSIDE_FIELDS (a new service field
 * must be added there), and a message built without `t(…)` from a variable of another file.
 * A site the scan cannot read but that is safe carries `outside-text-checked: <why>` on its line
 * or the line before.
 */
import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import * as ts from 'typescript';

import { calleeName, hostSources, parse, type Place, place, propName, ROOT } from './helpers/l10nSource';

/**
 * Fields and names that hold outside text: what the service, the hub, a record or a model names
 * (task, group, loop and app names, loop items, app references, missing secrets, a pull record's task).
 */
const OUTSIDE_FIELDS = new Set(['taskName', 'taskGroupName', 'groupName', 'loopItems', 'ref', 'missingSecrets']);
/** Parameters that carry outside text between functions: refused unless declared `PlainText`. */
const OUTSIDE_PARAMS = new Set(['task', 'taskName', 'name', 'group', 'groupName', 'ref', 'app', 'file']);
const SINK_CALLS = new Set([
  'showInformationMessage',
  'showWarningMessage',
  'showErrorMessage',
  'showModalWarning',
  'setStatusBarMessage',
  'showQuickPick',
  'showInputBox',
  'withProgress',
  'appendMarkdown',
  'elicitInput',
]);
const SCREEN_PROPS = new Set([
  'label',
  'description',
  'detail',
  'title',
  'prompt',
  'placeHolder',
  'placeholder',
  'message',
  'tooltip',
  'validationMessage',
]);
/** Calls whose result is safe whatever they are given. */
const CLEANERS = new Set(['plainText', 'markdownOfPlainText']);

function isTranslate(node: ts.CallExpression): boolean {
  const callee = node.expression;
  return (
    (ts.isIdentifier(callee) && callee.text === 't') ||
    (ts.isPropertyAccessExpression(callee) && callee.name.text === 't')
  );
}

function unwrap(expr: ts.Expression): ts.Expression {
  let e = expr;
  while (
    ts.isParenthesizedExpression(e) ||
    ts.isNonNullExpression(e) ||
    ts.isSatisfiesExpression(e) ||
    ts.isAsExpression(e) ||
    ts.isTypeAssertionExpression(e)
  )
    e = e.expression;
  return e;
}

/** The declaration a name refers to: the nearest enclosing variable, binding or parameter of that name in the file. */
function declarationOf(
  id: ts.Identifier,
): ts.VariableDeclaration | ts.ParameterDeclaration | ts.BindingElement | undefined {
  const named = (n: ts.BindingName): ts.BindingElement | ts.Identifier | undefined => {
    if (ts.isIdentifier(n)) return n.text === id.text ? n : undefined;
    for (const el of n.elements) {
      if (ts.isOmittedExpression(el)) continue;
      const found = named(el.name);
      if (found !== undefined) return ts.isIdentifier(found) && ts.isIdentifier(el.name) ? el : found;
    }
    return undefined;
  };
  const pick = (d: ts.VariableDeclaration | ts.ParameterDeclaration) => {
    const found = named(d.name);
    return found === undefined ? undefined : ts.isBindingElement(found) ? found : d;
  };
  for (let scope: ts.Node | undefined = id.parent; scope !== undefined; scope = scope.parent) {
    if (ts.isFunctionLike(scope)) {
      for (const p of scope.parameters) {
        const found = pick(p);
        if (found !== undefined) return found;
      }
    }
    if (
      (ts.isForOfStatement(scope) || ts.isForInStatement(scope) || ts.isForStatement(scope)) &&
      scope.initializer &&
      ts.isVariableDeclarationList(scope.initializer)
    ) {
      for (const d of scope.initializer.declarations) {
        const found = pick(d);
        if (found !== undefined) return found;
      }
    }
    if (ts.isBlock(scope) || ts.isSourceFile(scope) || ts.isModuleBlock(scope) || ts.isCaseClause(scope)) {
      for (const statement of scope.statements) {
        if (!ts.isVariableStatement(statement)) continue;
        for (const d of statement.declarationList.declarations) {
          const found = pick(d);
          if (found !== undefined) return found;
        }
      }
    }
  }
  return undefined;
}

/** Whether a declaration holds outside text: a binding of an outside field, a parameter so named, or a variable whose value does. */
function taintedDeclaration(
  d: ts.VariableDeclaration | ts.ParameterDeclaration | ts.BindingElement,
  seen: Set<ts.Node>,
): boolean {
  if (ts.isBindingElement(d)) {
    const field =
      d.propertyName !== undefined && ts.isIdentifier(d.propertyName)
        ? d.propertyName.text
        : ts.isIdentifier(d.name)
          ? d.name.text
          : '';
    return OUTSIDE_FIELDS.has(field);
  }
  if (d.type !== undefined && /\bPlainText\b|^number$|^boolean$/.test(d.type.getText())) return false;
  if (ts.isParameter(d))
    return (
      ts.isIdentifier(d.name) &&
      OUTSIDE_PARAMS.has(d.name.text) &&
      (d.type === undefined || /\bstring\b/.test(d.type.getText()))
    );
  if (d.initializer !== undefined && tainted(d.initializer, seen)) return true;
  // A `let` is judged by every value given to it in its scope, not only its first.
  if ((d.parent.flags & ts.NodeFlags.Const) !== 0 || !ts.isIdentifier(d.name)) return false;
  const name = d.name.text;
  let given = false;
  const scan = (n: ts.Node): void => {
    if (
      ts.isBinaryExpression(n) &&
      n.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isIdentifier(n.left) &&
      n.left.text === name &&
      tainted(n.right, seen)
    )
      given = true;
    if (!given) ts.forEachChild(n, scan);
  };
  scan(d.parent.parent.parent);
  return given;
}

/**
 * Rule 1: whether an expression may hold outside text not put through plainText: an outside field
 * (`task.taskName`, `loop.loopItems[0]`, `first.task.taskName`), a name bound to one, a parameter
 * that carries one, or a call given one (other than plainText).
 */
function tainted(expr: ts.Expression, seen = new Set<ts.Node>()): boolean {
  const e = unwrap(expr);
  if (seen.has(e)) return false;
  seen.add(e);
  if (ts.isPropertyAccessExpression(e))
    return (
      OUTSIDE_FIELDS.has(e.name.text) ||
      (e.name.text !== 'length' && tainted(e.expression, seen) && !ts.isCallExpression(e.expression))
    );
  if (ts.isElementAccessExpression(e)) return tainted(e.expression, seen);
  if (ts.isCallExpression(e)) {
    if (CLEANERS.has(calleeName(e)) || isTranslate(e)) return false;
    return (
      e.arguments.some((a) => tainted(a, seen)) ||
      (ts.isPropertyAccessExpression(e.expression) && tainted(e.expression.expression, seen))
    );
  }
  if (ts.isTemplateExpression(e)) return e.templateSpans.some((s) => tainted(s.expression, seen));
  if (ts.isConditionalExpression(e)) return tainted(e.whenTrue, seen) || tainted(e.whenFalse, seen);
  if (ts.isBinaryExpression(e)) return tainted(e.left, seen) || tainted(e.right, seen);
  if (ts.isArrayLiteralExpression(e))
    return e.elements.some((x) => tainted(ts.isSpreadElement(x) ? x.expression : x, seen));
  if (ts.isIdentifier(e)) {
    const d = declarationOf(e);
    return d !== undefined && taintedDeclaration(d, seen);
  }
  return false;
}

/** Rule 2: the pieces of what a sink is given that hold outside text. */
function rawPieces(expr: ts.Expression): ts.Expression[] {
  const e = unwrap(expr);
  if (ts.isCallExpression(e) && isTranslate(e)) return [];
  if (ts.isTemplateExpression(e)) return e.templateSpans.flatMap((s) => rawPieces(s.expression));
  if (ts.isConditionalExpression(e)) return [...rawPieces(e.whenTrue), ...rawPieces(e.whenFalse)];
  if (
    ts.isBinaryExpression(e) &&
    [ts.SyntaxKind.PlusToken, ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(
      e.operatorToken.kind,
    )
  ) {
    return [...rawPieces(e.left), ...rawPieces(e.right)];
  }
  if (ts.isArrayLiteralExpression(e))
    return e.elements.flatMap((x) => (ts.isSpreadElement(x) ? rawPieces(x.expression) : rawPieces(x)));
  if (ts.isObjectLiteralExpression(e))
    return e.properties.flatMap((p) =>
      ts.isPropertyAssignment(p) && SCREEN_PROPS.has(propName(p.name)) ? rawPieces(p.initializer) : [],
    );
  if (ts.isCallExpression(e) && calleeName(e) === 'map') {
    // items.map((x) => ({ label: x.name, … })): the pick items built in place.
    const fn = e.arguments[0];
    if (fn !== undefined && (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) && !ts.isBlock(fn.body))
      return rawPieces(fn.body);
  }
  if (ts.isObjectLiteralExpression(e) || ts.isArrowFunction(e) || ts.isFunctionExpression(e)) return [];
  // A function given outside text is not followed (its own t(…) is checked by rule 1); a method of
  // outside text (`task.taskName.trim()`) or String(…) of it is the text itself.
  if (ts.isCallExpression(e) && calleeName(e) !== 'String' && !ts.isPropertyAccessExpression(e.expression)) return [];
  if (ts.isIdentifier(e)) {
    // A const is judged by its value, by these same rules.
    const d = declarationOf(e);
    if (
      d !== undefined &&
      ts.isVariableDeclaration(d) &&
      d.initializer !== undefined &&
      (d.parent.flags & ts.NodeFlags.Const) !== 0
    )
      return rawPieces(d.initializer).length > 0 ? [e] : [];
  }
  return tainted(e) ? [e] : [];
}

function checked(node: ts.Node, src: ts.SourceFile): boolean {
  const { line } = src.getLineAndCharacterOfPosition(node.getStart(src));
  const lines = src.text.split('\n');
  return [lines[line], lines[line - 1]].some((l) => /outside-text-checked: \S/.test(l ?? ''));
}

/** The places where outside text could reach a message another way than through plainText. */
export function outsideTextLeaks(files: readonly string[], root = ROOT): { substitutions: Place[]; sinks: Place[] } {
  const substitutions: Place[] = [];
  const sinks: Place[] = [];
  for (const file of files) {
    const src = parse(file);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && isTranslate(node)) {
        for (const arg of node.arguments.slice(1))
          if (tainted(arg) && !checked(arg, src)) substitutions.push(place(arg, src, root));
      }
      if (
        (ts.isCallExpression(node) && SINK_CALLS.has(calleeName(node))) ||
        (ts.isNewExpression(node) && calleeName(node) === 'MarkdownString')
      ) {
        for (const arg of node.arguments ?? [])
          for (const piece of rawPieces(arg)) if (!checked(piece, src)) sinks.push(place(piece, src, root));
      }
      if (
        ts.isPropertyAssignment(node) &&
        SCREEN_PROPS.has(propName(node.name)) &&
        !ts.isObjectLiteralExpression(node.initializer)
      ) {
        // Screen properties anywhere (pick items and tree items built apart from the call).
        for (const piece of rawPieces(node.initializer)) if (!checked(piece, src)) sinks.push(place(piece, src, root));
      }
      ts.forEachChild(node, visit);
    };
    visit(src);
  }
  const unique = (list: Place[]) => [...new Map(list.map((p) => [`${p.file}:${p.line}:${p.text}`, p])).values()];
  return { substitutions: unique(substitutions), sinks: unique(sinks) };
}

const show = (list: readonly Place[]) => list.map((p) => `  ${p.file}:${p.line}: ${p.text}`).join('\n');

describe('outside text reaches messages only through plainText', () => {
  it('no value put into a localized message is outside text that did not go through plainText', () => {
    const { substitutions } = outsideTextLeaks(hostSources());
    assert.deepEqual(substitutions, [], `Put outside text through plainText(…) first:\n${show(substitutions)}`);
  });

  it('no message, pick item, prompt, progress title, status bar text or markdown is given outside text raw', () => {
    const { sinks } = outsideTextLeaks(hostSources());
    assert.deepEqual(sinks, [], `Raw data at a message; put it through plainText(…) (and t(…)):\n${show(sinks)}`);
  });

  it('the scan sees what it must: raw names, loop items, parameters so named, lets given them later, destructured names and String(…) fail; plainText, numbers and PlainText pass', () => {
    const fixture = path.join(ROOT, 'out', 'outside-text-fixture.ts');
    const text = [
      'declare const t: (m: string, ...a: unknown[]) => string; declare const ui: any; declare function plainText(s: string): string; type PlainText = string;',
      'function a(task: { taskName: string }, loop: { loopItems: string[] }, n: number, name: string, safe: PlainText, items: string[]) {',
      '  const ok = plainText(task.taskName); let later = plainText(name); later = task.taskName; const { taskName } = task;',
      "  ui.showInformationMessage(t('A {0} {1} {2} {3} {4}', ok, n, safe, items.length, plainText(name)));", // passes
      "  ui.showInformationMessage(t('B {0}', task.taskName));", // substitution
      "  ui.showWarningMessage(t('C {0}', name));", // substitution: a string parameter so named
      "  ui.showErrorMessage(t('D {0}', later));", // substitution: a let given outside text later
      "  ui.showErrorMessage(t('E {0}', taskName.trim()));", // substitution: a method of a destructured name
      '  ui.showInformationMessage(`F ${task.taskName}`);', // sink
      '  ui.showQuickPick(items.map((x) => ({ label: x, detail: task.taskName })), {});', // sink
      "  ui.showInformationMessage(t('G') + String(task.taskName));", // sink
      '  return { tooltip: loop.loopItems[0] };', // sink
      '}',
    ].join('\n');
    writeFileSync(fixture, text);
    try {
      const { substitutions, sinks } = outsideTextLeaks([fixture]);
      assert.deepEqual(
        substitutions.map((p) => p.text),
        ['task.taskName', 'name', 'later', 'taskName.trim()'],
      );
      assert.deepEqual(
        sinks.map((p) => p.text),
        ['task.taskName', 'task.taskName', 'String(task.taskName)', 'loop.loopItems[0]'],
      );
    } finally {
      rmSync(fixture);
    }
  });
});
