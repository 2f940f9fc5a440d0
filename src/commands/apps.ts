/**
 * Commands of the Data Apps view: add, stop tracking, copy the reference, deprecate. The
 * deprecation itself is `apps/deprecateFlow.ts`; these only find the app and its hub.
 */
import * as vscode from 'vscode';
import * as z from 'zod';
import type { AppStore } from '../apps/appStore';
import { type DeprecateDeps, type DeprecateOutcome, deprecateApp } from '../apps/deprecateFlow';
import { parseAppRef, validateAppRefInput } from '../apps/trackedApps';
import type { Ui } from '../platform/ui';
import type { AppsTreeProvider } from '../views/apps/appsProvider';

export interface AppCommandDeps extends Omit<DeprecateDeps, 'setBusy' | 'store'> {
  provider: AppsTreeProvider;
  store: AppStore;
  ui: Ui;
}

/** Menus pass an `AppNode`; other callers may pass a plain ref. Parsed, never trusted. */
const appArgSchema = z.union([
  z.object({ app: z.object({ ref: z.string() }) }).transform((n) => n.app.ref),
  z.string(),
]);

const SET_HUB_URL = 'Set Hub URL';
const OPEN_SETTINGS = 'Open Settings';

export function registerAppCommands(context: vscode.ExtensionContext, deps: AppCommandDeps): void {
  const { provider, store, ui } = deps;
  const register = (id: string, run: (...args: unknown[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, run));

  /** The hub to store apps under, or undefined after telling the user what is missing. */
  const requireHub = (): string | undefined => {
    const account = deps.account.account;
    if (account === undefined) {
      void ui.showInformationMessage('Sign in to Scrapedeck to track data apps.');
      return undefined;
    }
    if (account.datahubUrl === undefined) {
      void ui
        .showWarningMessage('The data-app hub address is not set. Set scrapedeck.datahubUrl (the address before /v1/…) to use data apps.', SET_HUB_URL)
        .then((choice) => choice === SET_HUB_URL && vscode.commands.executeCommand('scrapedeck.openHubSettings'));
      return undefined;
    }
    return account.datahubUrl;
  };

  register('scrapedeck.apps.add', async (): Promise<string | undefined> => {
    const hub = requireHub();
    if (hub === undefined) return undefined;
    const text = await ui.showInputBox({
      title: 'Add Data App',
      prompt: 'The app reference, as namespace/name. The service cannot list your apps, so Scrapedeck shows the ones you add.',
      placeHolder: 'acme/price-tracker',
      ignoreFocusOut: true,
      validateInput: (value) => validateAppRefInput(value, (ref) => provider.find(ref)),
    });
    if (text === undefined) return undefined;
    // The box validates as the user types, but a replaced Ui (tests) may not: check again.
    const problem = validateAppRefInput(text, (ref) => provider.find(ref));
    const parsed = parseAppRef(text);
    if (problem !== undefined || parsed === undefined) {
      void ui.showWarningMessage(`Not added: ${problem ?? 'an app reference is namespace/name'}.`);
      return undefined;
    }
    try {
      await store.add(hub, parsed.ref);
    } catch (error) {
      await deps.report(error, `Tracking ${parsed.ref}`);
      return undefined;
    }
    return parsed.ref;
  });

  register('scrapedeck.apps.remove', async (arg): Promise<boolean> => {
    const ref = refOf(arg);
    const hub = requireHub();
    if (ref === undefined || hub === undefined) return false;
    const app = provider.find(ref);
    if (app?.source === 'settings') {
      const choice = await ui.showInformationMessage(
        `${ref} is listed in the scrapedeck.trackedApps setting, so Stop Tracking cannot remove it. Remove it from that setting instead.`,
        OPEN_SETTINGS,
      );
      if (choice === OPEN_SETTINGS) await vscode.commands.executeCommand('workbench.action.openSettings', 'scrapedeck.trackedApps');
      return false;
    }
    try {
      return await store.remove(hub, ref);
    } catch (error) {
      await deps.report(error, `Stopping tracking ${ref}`);
      return false;
    }
  });

  register('scrapedeck.apps.copyRef', async (arg) => {
    const ref = refOf(arg);
    if (ref === undefined) return;
    await vscode.env.clipboard.writeText(ref);
    vscode.window.setStatusBarMessage(`$(copy) Copied ${ref}`, 3000);
  });

  register('scrapedeck.apps.deprecate', async (arg): Promise<DeprecateOutcome | undefined> => {
    const ref = refOf(arg) ?? (await pickApp(deps));
    if (ref === undefined) return undefined;
    return deprecateApp(ref, { ...deps, setBusy: (r, busy) => provider.setBusy(r, busy) });
  });
}

function refOf(arg: unknown): string | undefined {
  const parsed = appArgSchema.safeParse(arg);
  return parsed.success ? parseAppRef(parsed.data)?.ref : undefined;
}

/** From the palette there is no node: offer the tracked apps that can still be deprecated. */
async function pickApp(deps: AppCommandDeps): Promise<string | undefined> {
  const candidates = deps.provider.tracked().filter((a) => deps.provider.stateOf(a.ref).kind === 'idle');
  if (candidates.length === 0) {
    void deps.ui.showInformationMessage('No tracked data app to deprecate. Add one with “Add Data App…” in the Data Apps view.');
    return undefined;
  }
  const picked = await deps.ui.showQuickPick(
    candidates.map((a) => ({ label: a.ref, description: a.source === 'settings' ? '(from settings)' : undefined, ref: a.ref })),
    { title: 'Deprecate Data App', placeHolder: 'Which app?' },
  );
  return picked?.ref;
}
