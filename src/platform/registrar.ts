/**
 * How the code behind the activation shell registers with VS Code. The shell (src/shell/) has
 * already registered a thin proxy for each of these at activation; a call here hands the proxy its
 * real target, so VS Code's first call into it is served by the real code. Same signatures as
 * the `vscode` functions they stand for, so a module swaps `vscode.window.createTreeView` for
 * `registrar.createTreeView` and nothing else.
 *
 * Rules (docs/contracts/shell.md, "The activation shell"): every target is handed over synchronously
 * while main's start() runs; a kind or key the shell does not proxy throws at once, naming the
 * line to add to src/shell/registrations.ts.
 */
import type * as vscode from 'vscode';

import type { CommandId } from './commandIds';

export interface Registrar {
  registerCommand(id: CommandId, handler: (...args: unknown[]) => unknown): vscode.Disposable;
  /** The TreeView the shell created for `viewId` (its options were fixed then), now served by `options`' provider. */
  createTreeView<T>(viewId: string, options: vscode.TreeViewOptions<T>): vscode.TreeView<T>;
  registerWebviewPanelSerializer(viewType: string, serializer: vscode.WebviewPanelSerializer): vscode.Disposable;
  registerAuthenticationProvider(
    id: string,
    label: string,
    provider: vscode.AuthenticationProvider,
    options?: vscode.AuthenticationProviderOptions,
  ): vscode.Disposable;
  registerFileSystemProvider(
    scheme: string,
    provider: vscode.FileSystemProvider,
    options?: { readonly isCaseSensitive?: boolean; readonly isReadonly?: boolean },
  ): vscode.Disposable;
  registerTextDocumentContentProvider(scheme: string, provider: vscode.TextDocumentContentProvider): vscode.Disposable;
  registerFileDecorationProvider(provider: vscode.FileDecorationProvider): vscode.Disposable;
  /** A read-only custom editor (its options were fixed at activation). */
  registerCustomEditorProvider(viewType: string, provider: vscode.CustomReadonlyEditorProvider): vscode.Disposable;
  registerTool<T>(name: string, tool: vscode.LanguageModelTool<T>): vscode.Disposable;
  registerMcpServerDefinitionProvider(id: string, provider: vscode.McpServerDefinitionProvider): vscode.Disposable;
}
