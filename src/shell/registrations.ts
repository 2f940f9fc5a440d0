/**
 * Everything Scrapedeck registers with VS Code at activation, one line each: thin proxies that
 * load main (src/main.ts, dist/main.js) on their first call and then delegate to what main
 * handed over through the registrar. VS Code needs these to exist as soon as Scrapedeck is
 * active (a command from the palette, a restored panel, the Accounts menu, a visible view), so
 * they live here; their code does not. A new registration in main needs its line here too (the
 * registrar throws, naming this file, until it has one).
 */
import { COMMAND_IDS } from '../platform/commandIds';
import { authenticationProvider, command, contributedLanguageModelTools, treeView, webviewPanelSerializer, type ShellEntry } from './kinds';

export const REGISTRATIONS: readonly ShellEntry[] = [
  ...COMMAND_IDS.map(command),
  treeView('scrapedeck.tasks', { showCollapseAll: true }),
  treeView('scrapedeck.apps'),
  webviewPanelSerializer('scrapedeck.analytics'),
  authenticationProvider('scrapedeck', 'Scrapedeck', { supportsMultipleAccounts: false }),
  contributedLanguageModelTools(),
];
