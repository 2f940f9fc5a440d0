/**
 * Ctrl+S (Cmd+S) in a `scrapedeck:` list (package.json's keybinding): a list with lines that need
 * fixing is not handed to VS Code's save, whose failure message would show the document's whole
 * address; Scrapedeck says it in one sentence instead (the document's name, how many lines) and
 * the lines stay underlined. Anything else is saved as VS Code would.
 */
import * as vscode from 'vscode';

import type { Ui } from '../platform/ui';
import type { LoopDiagnostics } from './loopDiagnostics';
import { notSavedText } from './loopFileSystem';
import { parseLoopText } from './loopItems';
import type { LoopAddresses } from './loopUri';

const t = vscode.l10n.t;

export interface SaveListDeps {
  diagnostics: Pick<LoopDiagnostics, 'set'>;
  ui: Pick<Ui, 'showWarningMessage'>;
  addresses: LoopAddresses;
}

/** True when saved; false when nothing was saved (lines to fix, or VS Code's save refused). */
export async function saveActiveList(deps: SaveListDeps): Promise<boolean> {
  const doc = vscode.window.activeTextEditor?.document;
  const ref = doc === undefined ? undefined : deps.addresses.listRef(doc.uri);
  if (doc === undefined || ref === undefined) {
    await vscode.commands.executeCommand('workbench.action.files.save');
    return false;
  }
  const problems = parseLoopText(doc.getText(), ref.loopType, t).problems;
  if (problems.length > 0) {
    deps.diagnostics.set(doc.uri, problems);
    const show = t('Show Problems');
    void deps.ui.showWarningMessage(notSavedText(doc.uri, problems.length), show).then((choice) => {
      if (choice === show) void vscode.commands.executeCommand('workbench.actions.view.problems');
    });
    return false;
  }
  return doc.save();
}
