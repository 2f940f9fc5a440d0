/**
 * One function per kind of registration the shell makes at activation: each registers a proxy
 * with VS Code whose calls go to the slot(s) main fills later (registrar.ts). The fallbacks are
 * what a proxy answers when main could not load: empty, never pending.
 */
import * as vscode from 'vscode';

import type { CommandId } from '../platform/commandIds';
import { forward, type Slot } from './slot';

export interface ShellParts {
  slot<T extends object>(key: string): Slot<T>;
  /** The tree views the shell created, by id, for `registrar.createTreeView`. */
  readonly views: Map<string, TreeViewShape & { readonly view: vscode.TreeView<unknown> }>;
  /** Says again that Scrapedeck could not start (a command was run after main failed to load). */
  complain(): void;
  /** package.json as VS Code read it (the contributions some registrations follow). */
  readonly manifest: unknown;
}

/** One line of src/shell/registrations.ts. */
export type ShellEntry = (parts: ShellParts) => vscode.Disposable;

type Handler = (...args: unknown[]) => unknown;
export const commandKey = (id: string): string => `command:${id}`;

export const command =
  (id: CommandId): ShellEntry =>
  ({ slot, complain }) => {
    const handler = slot<Handler>(commandKey(id));
    return vscode.commands.registerCommand(id, (...args: unknown[]) => {
      const real = handler.get();
      return real === undefined ? complain() : real(...args);
    });
  };

/** What a tree view's creation fixes; `registrar.createTreeView` must be asked for the same. */
export interface TreeViewShape {
  readonly showCollapseAll?: boolean;
  readonly canSelectMany?: boolean;
  /** MIME types of the view's drag-and-drop controller, when it has one. */
  readonly dragAndDrop?: { readonly dragMimeTypes: readonly string[]; readonly dropMimeTypes: readonly string[] };
}

export const treeKey = (id: string): string => `tree:${id}`;
export const dragAndDropKey = (id: string): string => `dragAndDrop:${id}`;

export const treeView =
  (id: string, shape: TreeViewShape = {}): ShellEntry =>
  ({ slot, views }) => {
    const provider = forward(slot<vscode.TreeDataProvider<unknown>>(treeKey(id)), {
      methods: {
        getChildren: () => [],
        getTreeItem: () => new vscode.TreeItem(''),
        getParent: () => undefined,
      },
      events: ['onDidChangeTreeData'],
    });
    const dnd = shape.dragAndDrop;
    const dragAndDropController =
      dnd &&
      forward(slot<vscode.TreeDragAndDropController<unknown>>(dragAndDropKey(id)), {
        methods: { handleDrag: () => undefined, handleDrop: () => undefined },
        values: { dragMimeTypes: [...dnd.dragMimeTypes], dropMimeTypes: [...dnd.dropMimeTypes] },
      });
    const view = vscode.window.createTreeView(id, {
      treeDataProvider: provider,
      dragAndDropController,
      showCollapseAll: shape.showCollapseAll,
      canSelectMany: shape.canSelectMany,
    });
    views.set(id, { ...shape, view });
    return view;
  };

export const serializerKey = (viewType: string): string => `serializer:${viewType}`;

export const webviewPanelSerializer =
  (viewType: string): ShellEntry =>
  ({ slot }) =>
    vscode.window.registerWebviewPanelSerializer(
      viewType,
      forward(slot<vscode.WebviewPanelSerializer>(serializerKey(viewType)), {
        // A panel nobody can fill is closed rather than left blank.
        methods: { deserializeWebviewPanel: (panel) => Promise.resolve(panel.dispose()) },
      }),
    );

export const authKey = (id: string): string => `auth:${id}`;

export const authenticationProvider =
  (id: string, label: string, options?: vscode.AuthenticationProviderOptions): ShellEntry =>
  ({ slot }) =>
    vscode.authentication.registerAuthenticationProvider(
      id,
      label,
      forward(slot<vscode.AuthenticationProvider>(authKey(id)), {
        methods: {
          getSessions: () => Promise.resolve([]),
          createSession: () => Promise.reject(new Error(vscode.l10n.t('Scrapedeck could not start.'))),
          removeSession: () => Promise.resolve(),
        },
        events: ['onDidChangeSessions'],
      }),
      options,
    );

export const fileSystemKey = (scheme: string): string => `fileSystem:${scheme}`;

export const fileSystemProvider =
  (scheme: string, options?: { readonly isCaseSensitive?: boolean; readonly isReadonly?: boolean }): ShellEntry =>
  ({ slot }) => {
    const unavailable = (): never => {
      throw vscode.FileSystemError.Unavailable(vscode.l10n.t('Scrapedeck could not start.'));
    };
    return vscode.workspace.registerFileSystemProvider(
      scheme,
      forward(slot<vscode.FileSystemProvider>(fileSystemKey(scheme)), {
        methods: {
          watch: () => new vscode.Disposable(() => undefined),
          stat: unavailable,
          readDirectory: unavailable,
          createDirectory: unavailable,
          readFile: unavailable,
          writeFile: unavailable,
          delete: unavailable,
          rename: unavailable,
        },
        events: ['onDidChangeFile'],
      }),
      options,
    );
  };

export const contentKey = (scheme: string): string => `content:${scheme}`;

export const textDocumentContentProvider =
  (scheme: string): ShellEntry =>
  ({ slot }) =>
    vscode.workspace.registerTextDocumentContentProvider(
      scheme,
      forward(slot<vscode.TextDocumentContentProvider>(contentKey(scheme)), {
        methods: { provideTextDocumentContent: () => undefined },
        events: ['onDidChange'],
      }),
    );

export const customEditorKey = (viewType: string): string => `customEditor:${viewType}`;

export const customReadonlyEditorProvider =
  (viewType: string): ShellEntry =>
  ({ slot }) =>
    vscode.window.registerCustomEditorProvider(
      viewType,
      forward(slot<vscode.CustomReadonlyEditorProvider>(customEditorKey(viewType)), {
        methods: {
          openCustomDocument: (uri) => ({ uri: uri as vscode.Uri, dispose: () => undefined }),
          // An editor nobody can fill is closed rather than left blank.
          resolveCustomEditor: (_document, panel) => Promise.resolve((panel as vscode.WebviewPanel).dispose()),
        },
      }),
      { supportsMultipleEditorsPerDocument: true },
    );

export const DECORATIONS_KEY = 'decorations';

export const fileDecorationProvider =
  (): ShellEntry =>
  ({ slot }) =>
    vscode.window.registerFileDecorationProvider(
      forward(slot<vscode.FileDecorationProvider>(DECORATIONS_KEY), {
        methods: { provideFileDecoration: () => undefined },
        events: ['onDidChangeFileDecorations'],
      }),
    );

export const toolKey = (name: string): string => `tool:${name}`;

export const languageModelTool =
  (name: string): ShellEntry =>
  ({ slot }) =>
    vscode.lm.registerTool(
      name,
      forward(slot<vscode.LanguageModelTool<unknown>>(toolKey(name)), {
        methods: {
          invoke: () => Promise.reject(new Error(vscode.l10n.t('Scrapedeck could not start.'))),
          prepareInvocation: () => undefined,
        },
      }),
    );

/** Every tool package.json contributes (`contributes.languageModelTools[].name`): VS Code registers no other. */
export const contributedLanguageModelTools = (): ShellEntry => (parts) => {
  const contributes = (parts.manifest as { contributes?: { languageModelTools?: unknown } } | undefined)?.contributes;
  const tools = Array.isArray(contributes?.languageModelTools) ? (contributes.languageModelTools as unknown[]) : [];
  const names = tools.flatMap((t) =>
    typeof t === 'object' && t !== null && typeof (t as { name?: unknown }).name === 'string'
      ? [(t as { name: string }).name]
      : [],
  );
  return vscode.Disposable.from(...names.map((name) => languageModelTool(name)(parts)));
};

export const mcpKey = (id: string): string => `mcp:${id}`;

/**
 * VS Code asks for MCP server definitions right after activation, at window start-up, while the
 * other extensions start. Answering from main would load all of it then; instead the proxy
 * answers an empty list until main is loaded, loads it a moment later, and says the definitions
 * changed, so VS Code asks again and gets the real ones.
 */
export const mcpServerDefinitionProvider =
  (id: string, loadAfterMs = 2_000): ShellEntry =>
  ({ slot }) => {
    const target = slot<vscode.McpServerDefinitionProvider>(mcpKey(id));
    const changed = target.relay('onDidChangeMcpServerDefinitions');
    let timer: ReturnType<typeof setTimeout> | undefined;
    const proxy: vscode.McpServerDefinitionProvider = {
      onDidChangeMcpServerDefinitions: changed.event as vscode.Event<void>,
      provideMcpServerDefinitions: (token) => {
        const real = target.peek();
        if (real !== undefined) return real.provideMcpServerDefinitions(token);
        timer ??= setTimeout(() => {
          if (target.get() !== undefined) changed.fire(undefined);
        }, loadAfterMs);
        return [];
      },
      resolveMcpServerDefinition: (server, token) => {
        const real = target.get();
        return real?.resolveMcpServerDefinition ? real.resolveMcpServerDefinition(server, token) : server;
      },
    };
    // Hosts without MCP support (older code-server builds) simply do not get it.
    const lm = vscode.lm as Partial<typeof vscode.lm>;
    const registration =
      typeof lm.registerMcpServerDefinitionProvider === 'function'
        ? lm.registerMcpServerDefinitionProvider(id, proxy)
        : new vscode.Disposable(() => undefined);
    return new vscode.Disposable(() => {
      clearTimeout(timer);
      registration.dispose();
    });
  };
