/**
 * Everything Scrapedeck registers with VS Code at activation, one line each: thin proxies that
 * load main (src/main.ts, dist/main.js) on their first call and then delegate to what main
 * handed over through the registrar. VS Code needs these to exist as soon as Scrapedeck is
 * active (a command from the palette, a restored panel, the Accounts menu, a visible view), so
 * they live here; their code does not. A new registration in main needs its line here too (the
 * registrar throws, naming this file, until it has one).
 */
import { COMMAND_IDS } from '../platform/commandIds';
import {
  authenticationProvider,
  command,
  contributedLanguageModelTools,
  customReadonlyEditorProvider,
  fileDecorationProvider,
  fileSystemProvider,
  mcpServerDefinitionProvider,
  type ShellEntry,
  treeView,
  webviewPanelSerializer,
} from './kinds';

/** The Tasks view's drag-and-drop MIME type (VS Code's own for the view: `application/vnd.code.tree.<viewid lowercased>`). */
const TASKS_MIME = 'application/vnd.code.tree.scrapedeck.tasks';

export const REGISTRATIONS: readonly ShellEntry[] = [
  ...COMMAND_IDS.map(command),
  // runs: canSelectMany and drag and drop move tasks between groups (src/tasks/taskDragAndDrop.ts)
  treeView('scrapedeck.tasks', {
    showCollapseAll: true,
    canSelectMany: true,
    dragAndDrop: { dragMimeTypes: [TASKS_MIME], dropMimeTypes: [TASKS_MIME] },
  }),
  treeView('scrapedeck.apps'),
  webviewPanelSerializer('scrapedeck.analytics'),
  authenticationProvider('scrapedeck', 'Scrapedeck', { supportsMultipleAccounts: false }),
  contributedLanguageModelTools(),
  // runs: the URL-list documents (src/runs/loopUri.ts, LOOP_SCHEME)
  fileSystemProvider('scrapedeck', { isCaseSensitive: true }),
  // data: the data browser as Open With… for .csv, .jsonl, .json, .sqlite and .db (src/data/browse/host/customEditor.ts)
  customReadonlyEditorProvider('scrapedeck.dataBrowser'),
  // health: the Tasks view's health decorations (src/health/decorations.ts)
  fileDecorationProvider(),
  // agents: the MCP server definition (src/agents/manifest.ts, MCP_PROVIDER_ID)
  mcpServerDefinitionProvider('scrapedeck.mcpServers'),
];
