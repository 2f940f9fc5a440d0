/**
 * The activation shell. activate() registers, as thin proxies, everything VS Code needs from an
 * active Scrapedeck (shell/registrations.ts) and returns: no zod, no client, no views are read or
 * compiled here. The rest, src/main.ts (its own file, dist/main.js), loads the first time one of
 * the proxies is called: the first tree, command, restored panel or Accounts menu request.
 */
import * as vscode from 'vscode';

import type * as Main from './main';
import { createShell } from './shell/shell';
import type { ScrapedeckTestApi } from './testSeam';

export type { ScrapedeckTestApi } from './testSeam';

/**
 * Other extensions see what activate() returns. Installed as users install it, Scrapedeck returns
 * nothing: the test seam (`testSeam.ts`) exists only when VS Code runs Scrapedeck's own tests,
 * which load main at once so the seam is there when activation resolves.
 */
export function activate(context: vscode.ExtensionContext): ScrapedeckTestApi | undefined {
  // The bundle maps this require to dist/main.js (esbuild.mjs, lazyChunks).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const shell = createShell(context, () => require('./main') as typeof Main);
  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  const seam = shell.loadNow();
  if (shell.state !== 'loaded') throw new Error('Scrapedeck: main failed to load (see the error above)');
  return seam;
}

export function deactivate(): void {
  // Everything, the embedded sandbox included, is disposed through context.subscriptions.
}
