/**
 * Problems of an open list, as diagnostics on their lines: checked as the user types (shortly
 * after the last change) and again by the save, which sends nothing while any remain. At most
 * MAX_MARKED_PROBLEMS are marked, plus one that counts the rest.
 */
import * as vscode from 'vscode';

import { type LineProblem, markedProblems, parseLoopText } from './loopItems';
import { LOOP_LANGUAGE, LOOP_SCHEME, type LoopAddresses } from './loopUri';

const CHECK_DELAY_MS = 250;

export class LoopDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('scrapedeck.loops');
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly subscriptions: vscode.Disposable[];

  /** `accountKey`: the signed-in account's; another account's list (a placeholder) is not checked. */
  constructor(
    private readonly addresses: LoopAddresses,
    private readonly accountKey: () => string | undefined,
  ) {
    this.subscriptions = [
      vscode.workspace.onDidOpenTextDocument((doc) => this.check(doc)),
      vscode.workspace.onDidChangeTextDocument((e) => this.checkSoon(e.document)),
      vscode.workspace.onDidCloseTextDocument((doc) => this.clear(doc.uri)),
    ];
    for (const doc of vscode.workspace.textDocuments) {
      // A list VS Code restored before Scrapedeck started gets the lists' language (Edit URL List
      // gives it to the lists it opens); changing it reopens the document, which is checked then.
      if (this.addresses.isList(doc.uri) && doc.languageId !== LOOP_LANGUAGE)
        void vscode.languages.setTextDocumentLanguage(doc, LOOP_LANGUAGE).then(undefined, () => undefined);
      else this.check(doc);
    }
  }

  /** Shows these problems on the document's lines (none: clears them). */
  set(uri: vscode.Uri, problems: readonly LineProblem[]): void {
    this.collection.set(
      uri,
      markedProblems(problems, vscode.l10n.t).map((p) => {
        const d = new vscode.Diagnostic(
          new vscode.Range(p.line, p.start, p.line, Math.max(p.end, p.start)),
          p.message,
          vscode.DiagnosticSeverity.Error,
        );
        d.source = 'Scrapedeck';
        return d;
      }),
    );
  }

  /** The problems shown on a document now (tests, and the save's message). */
  get(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  clear(uri: vscode.Uri): void {
    const timer = this.timers.get(uri.toString());
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(uri.toString());
    this.collection.delete(uri);
  }

  clearAll(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.collection.clear();
  }

  dispose(): void {
    this.clearAll();
    this.collection.dispose();
    for (const s of this.subscriptions) s.dispose();
  }

  private checkSoon(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== LOOP_SCHEME) return;
    const key = doc.uri.toString();
    const pending = this.timers.get(key);
    if (pending !== undefined) clearTimeout(pending);
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.check(doc);
      }, CHECK_DELAY_MS),
    );
  }

  private check(doc: vscode.TextDocument): void {
    const ref = this.addresses.listRef(doc.uri);
    if (ref === undefined || doc.isClosed) return;
    if (ref.account !== this.accountKey()) {
      this.collection.delete(doc.uri);
      return;
    }
    this.set(doc.uri, parseLoopText(doc.getText(), ref.loopType, vscode.l10n.t).problems);
  }
}
