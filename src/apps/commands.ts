/**
 * Commands of the Data Apps view: add, stop tracking, copy the reference, deprecate. The
 * deprecation itself is `apps/deprecateFlow.ts`; these only find the app and its hub.
 */
import * as vscode from 'vscode';
import * as z from 'zod';

import type { ClientHolder } from '../account/clientHolder';
import { defineHandlers } from '../platform/commandHandlers';
import { plainText } from '../platform/plainText';
import type { Reporter } from '../platform/reporter';
import type { Ui } from '../platform/ui';
import { appScopeOf } from './appScope';
import type { AppsTreeProvider } from './appsProvider';
import type { AppScope } from './appStore';
import type { AppStore } from './appStore';
import { deprecateApp, type DeprecateOutcome } from './deprecateFlow';
import { ensureHubApiKey, reportMissingHubAddress } from './hubPrerequisites';
import { parseAppRef, validateAppRefInput } from './trackedApps';

const t = vscode.l10n.t;

export interface AppCommandDeps {
  account: ClientHolder;
  apps: { provider: AppsTreeProvider; store: AppStore };
  ui: Ui;
  log: vscode.LogOutputChannel;
  reporter: Pick<Reporter, 'report'>;
}

/** Menus pass an `AppNode`; other callers may pass a plain ref. Parsed, never trusted. */
const appArgSchema = z.union([
  z.object({ app: z.object({ ref: z.string() }) }).transform((n) => n.app.ref),
  z.string(),
]);

export function appCommands(deps: AppCommandDeps) {
  const { ui } = deps;
  const { provider, store } = deps.apps;
  const report = deps.reporter.report;

  /** The account's lists at its hub, or undefined after telling the user what is missing. */
  const requireHub = (): AppScope | undefined => {
    const account = deps.account.account;
    if (account === undefined) {
      void ui.showInformationMessage(t('Sign in to Scrapedeck to track data apps.'));
      return undefined;
    }
    if (account.datahubUrl === undefined) {
      reportMissingHubAddress(ui);
      return undefined;
    }
    return appScopeOf(account);
  };

  return defineHandlers({
    appsAdd: async (): Promise<string | undefined> => {
      const hub = requireHub();
      if (hub === undefined) return undefined;
      const text = await ui.showInputBox({
        title: t('Add Data App'),
        prompt: t(
          'The app reference, as namespace/name. The service cannot list your apps, so Scrapedeck shows the ones you add.',
        ),
        placeHolder: 'acme/price-tracker', // l10n-exempt: an example reference, not words
        ignoreFocusOut: true,
        validateInput: (value) => validateAppRefInput(value, (ref) => provider.find(ref), t),
      });
      if (text === undefined) return undefined;
      // The box validates as the user types, but a replaced Ui (tests) may not: check again.
      const problem = validateAppRefInput(text, (ref) => provider.find(ref), t);
      const parsed = parseAppRef(text);
      if (problem !== undefined || parsed === undefined) {
        void ui.showWarningMessage(
          t('Not added: {0}.', problem ?? t('An app reference is namespace/name, e.g. acme/price-tracker')),
        );
        return undefined;
      }
      try {
        await store.add(hub, parsed.ref);
      } catch (error) {
        await report(error, 'trackApp', parsed.ref);
        return undefined;
      }
      return parsed.ref;
    },

    appsRemove: async (arg): Promise<boolean> => {
      const ref = refOf(arg);
      const hub = requireHub();
      if (ref === undefined || hub === undefined) return false;
      if (provider.find(ref)?.source === 'settings') {
        const openSettings = t('Open Settings');
        const choice = await ui.showInformationMessage(
          t(
            '{0} is listed in the scrapedeck.trackedApps setting, so Stop Tracking cannot remove it. Remove it from that setting instead.',
            ref,
          ),
          openSettings,
        );
        if (choice === openSettings)
          await vscode.commands.executeCommand('workbench.action.openSettings', 'scrapedeck.trackedApps');
        return false;
      }
      try {
        return await store.remove(hub, ref);
      } catch (error) {
        await report(error, 'stopTracking', ref);
        return false;
      }
    },

    appsCopyRef: async (arg) => {
      const ref = refOf(arg);
      if (ref === undefined) return;
      await vscode.env.clipboard.writeText(ref);
      vscode.window.setStatusBarMessage(`$(copy) ${t('Copied {0}', ref)}`, 3000);
    },

    appsDeprecate: async (arg): Promise<DeprecateOutcome | undefined> => {
      const ref = refOf(arg) ?? (await pickApp(deps));
      if (ref === undefined) return undefined;
      if (provider.stateOf(ref).kind === 'unknown') {
        // The menus hide Deprecate for it; a ref from the palette or a link gets the same answer.
        void ui.showInformationMessage(
          t('The hub said it has no app {0} that this account authors. Add it again to ask the hub again.', ref),
        );
        return 'not-found';
      }
      return deprecateApp(ref, {
        account: deps.account,
        ui,
        log: deps.log,
        store,
        report,
        setBusy: (r, busy) => provider.setBusy(r, busy),
        hub: {
          reportMissingAddress: () => reportMissingHubAddress(ui),
          ensureApiKey: () => ensureHubApiKey(deps.account, ui),
        },
      });
    },
  });
}

function refOf(arg: unknown): string | undefined {
  const parsed = appArgSchema.safeParse(arg);
  return parsed.success ? parseAppRef(parsed.data)?.ref : undefined;
}

/** From the palette there is no node: offer the tracked apps that can still be deprecated. */
async function pickApp(deps: AppCommandDeps): Promise<string | undefined> {
  const { provider } = deps.apps;
  const candidates = provider.tracked().filter((a) => provider.stateOf(a.ref).kind === 'idle');
  if (candidates.length === 0) {
    void deps.ui.showInformationMessage(
      t('No tracked data app to deprecate. Add one with “Add Data App…” in the Data Apps view.'),
    );
    return undefined;
  }
  const picked = await deps.ui.showQuickPick(
    candidates.map((a) => ({
      label: plainText(a.ref),
      description: a.source === 'settings' ? t('(from settings)') : undefined,
      ref: a.ref,
    })),
    { title: t('Deprecate Data App'), placeHolder: t('Which app?') },
  );
  return picked?.ref;
}
