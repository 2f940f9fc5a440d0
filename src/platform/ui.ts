/**
 * The window prompts the extension uses, behind one object. Production code calls these instead
 * of `vscode.window.*` so integration tests can replace one answer (the modal's, an input box's)
 * and leave everything else real. The test seam (`src/testSeam.ts`) hands this object to tests.
 */
import * as vscode from 'vscode';

import { copyRequestId } from './copyRequestId';
import { type InputOptions, showInputBoxWithRequestId } from './inputBox';
import { type ModalDefault, modalItems } from './prompts/modalItems';

export type { InputOptions } from './inputBox';

export interface Ui {
  /** With `requestId`, the box has a "Copy Request ID" button (the prompt shows that request's error). */
  showInputBox(options: InputOptions): Thenable<string | undefined>;
  showQuickPick<T extends vscode.QuickPickItem>(
    items: readonly T[] | Thenable<readonly T[]>,
    options: vscode.QuickPickOptions,
  ): Thenable<T | undefined>;
  showInformationMessage(message: string, ...items: string[]): Thenable<string | undefined>;
  showWarningMessage(message: string, ...items: string[]): Thenable<string | undefined>;
  /**
   * A modal warning with one action and exactly one way to say no: `keep`, a button named for what saying
   * no keeps, which VS Code also picks on Escape and the close button (so it adds no Cancel of its
   * own). Resolves to the title picked, or undefined. `primary: 'keep'` makes `keep` the default
   * button where the action is the risky answer (`modalItems.ts`).
   */
  showModalWarning(
    message: string,
    detail: string,
    action: string,
    keep: string,
    primary?: ModalDefault,
  ): Thenable<string | undefined>;
  showErrorMessage(message: string, ...items: string[]): Thenable<string | undefined>;
  showSaveDialog(options: vscode.SaveDialogOptions): Thenable<vscode.Uri | undefined>;
  /** vscode.workspace.isTrusted, read when asked (Restricted Mode can end while the window is open). */
  isWorkspaceTrusted(): boolean;
}

export function createUi(): Ui {
  return {
    showInputBox: ({ requestId, ...options }) =>
      requestId
        ? showInputBoxWithRequestId({ ...options, requestId }, copyRequestId)
        : vscode.window.showInputBox(options),
    showQuickPick: (items, options) => vscode.window.showQuickPick(items, options),
    showInformationMessage: (message, ...items) => vscode.window.showInformationMessage(message, ...items),
    showWarningMessage: (message, ...items) => vscode.window.showWarningMessage(message, ...items),
    showModalWarning: (message, detail, action, keep, primary) =>
      vscode.window
        .showWarningMessage(message, { modal: true, detail }, ...modalItems(action, keep, primary))
        .then((item) => item?.title),
    showErrorMessage: (message, ...items) => vscode.window.showErrorMessage(message, ...items),
    showSaveDialog: (options) => vscode.window.showSaveDialog(options),
    isWorkspaceTrusted: () => vscode.workspace.isTrusted,
  };
}
