/**
 * The shell's side of `platform/registrar.ts`: main hands each real target to the slot the
 * shell's proxy reads. A key the shell has no proxy for, or a tree view asked for with other
 * options than the shell created it with, throws at once with the fix in the message (so a new
 * registration fails the first integration test instead of silently never being called).
 */
import type * as vscode from 'vscode';

import type { Registrar } from '../platform/registrar';
import {
  authKey,
  commandKey,
  contentKey,
  customEditorKey,
  DECORATIONS_KEY,
  dragAndDropKey,
  fileSystemKey,
  mcpKey,
  serializerKey,
  type ShellParts,
  toolKey,
  treeKey,
} from './kinds';
import type { Slot } from './slot';

export function createRegistrar(slots: ReadonlyMap<string, Slot<object>>, views: ShellParts['views']): Registrar {
  const provide = (key: string, target: object): vscode.Disposable => {
    const slot = slots.get(key);
    if (slot === undefined)
      throw new Error(
        `Scrapedeck: the activation shell has no proxy for ${key}; add its line to src/shell/registrations.ts`,
      );
    return slot.set(target);
  };

  return {
    registerCommand: (id, handler) => provide(commandKey(id), handler),
    createTreeView<T>(viewId: string, options: vscode.TreeViewOptions<T>): vscode.TreeView<T> {
      const shell = views.get(viewId);
      if (shell === undefined)
        throw new Error(
          `Scrapedeck: the activation shell created no tree view ${viewId}; add its line to src/shell/registrations.ts`,
        );
      const dnd = options.dragAndDropController;
      const same = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
        JSON.stringify(a ?? []) === JSON.stringify(b ?? []);
      const mismatch =
        Boolean(options.showCollapseAll) !== Boolean(shell.showCollapseAll) ||
        Boolean(options.canSelectMany) !== Boolean(shell.canSelectMany) ||
        (dnd === undefined) !== (shell.dragAndDrop === undefined) ||
        (dnd !== undefined &&
          (!same(dnd.dragMimeTypes, shell.dragAndDrop?.dragMimeTypes) ||
            !same(dnd.dropMimeTypes, shell.dragAndDrop?.dropMimeTypes)));
      if (mismatch)
        throw new Error(
          `Scrapedeck: tree view ${viewId} is created with other options than src/shell/registrations.ts declares`,
        );
      provide(treeKey(viewId), options.treeDataProvider);
      if (dnd !== undefined) provide(dragAndDropKey(viewId), dnd);
      return shell.view as vscode.TreeView<unknown> as vscode.TreeView<T>;
    },
    registerWebviewPanelSerializer: (viewType, serializer) => provide(serializerKey(viewType), serializer),
    // The label and options were given at activation (registrations.ts).
    registerAuthenticationProvider: (id, _label, provider) => provide(authKey(id), provider),
    registerFileSystemProvider: (scheme, provider) => provide(fileSystemKey(scheme), provider),
    registerTextDocumentContentProvider: (scheme, provider) => provide(contentKey(scheme), provider),
    registerFileDecorationProvider: (provider) => provide(DECORATIONS_KEY, provider),
    // Its options were given at activation (registrations.ts).
    registerCustomEditorProvider: (viewType, provider) => provide(customEditorKey(viewType), provider),
    registerTool: (name, tool) => provide(toolKey(name), tool),
    registerMcpServerDefinitionProvider: (id, provider) => provide(mcpKey(id), provider),
  };
}
