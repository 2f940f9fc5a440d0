/**
 * The account menu (the status-bar item's click), the log and the settings shortcuts.
 */
import * as vscode from 'vscode';
import * as z from 'zod';

import { defineHandlers } from '../platform/commandHandlers';
import { COMMANDS } from '../platform/commandIds';
import { copyRequestId } from '../platform/reporter';
import type { Ui } from '../platform/ui';
import type { AccountMenuDeps } from './authDeps';

export type { AccountMenuDeps };

interface MenuItem extends vscode.QuickPickItem {
  run: () => Thenable<unknown>;
}

const run = (command: string) => () => vscode.commands.executeCommand(command);
const t = vscode.l10n.t;

/** A request id as the client keeps it (cut to 128 printable characters); anything else is ignored. */
const requestIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(128)
  .regex(/^[\x21-\x7e]+$/);

export function accountCommands(deps: AccountMenuDeps) {
  return defineHandlers({
    // From tooltips and messages that show a request id: one click copies it.
    copyRequestId: async (arg) => {
      const id = requestIdSchema.safeParse(arg);
      if (id.success) await copyRequestId(id.data);
    },
    accountMenu: () => accountMenu(deps),
    showLog: () => deps.log.show(),
    openSettings: () => vscode.commands.executeCommand('workbench.action.openSettings', '@ext:scrapedeck.scrapedeck'),
    openHubSettings: () => vscode.commands.executeCommand('workbench.action.openSettings', 'scrapedeck.datahubUrl'),
  });
}

function signInItems(): MenuItem[] {
  return [
    { label: `$(key) ${t('Sign In with API Key')}`, run: run(COMMANDS.signInWithApiKey) },
    { label: `$(account) ${t('Sign In with Username and Password')}`, run: run(COMMANDS.signInWithPassword) },
    {
      label: `$(beaker) ${t('Try the Sandbox')}`,
      description: t('seeded data, no account needed'),
      run: run(COMMANDS.trySandbox),
    },
  ];
}

/** "How do you want to sign in?" and the chosen sign-in (the Accounts menu's Sign In uses it too). */
export async function chooseSignIn(ui: Ui): Promise<void> {
  const next = await ui.showQuickPick(signInItems(), {
    title: t('Sign In to Scrapedeck'),
    placeHolder: t('How do you want to sign in?'),
  });
  if (next !== undefined) await next.run();
}

export async function accountMenu(deps: AccountMenuDeps): Promise<void> {
  const account = deps.account.account;
  const common: MenuItem[] = [
    { label: '', kind: vscode.QuickPickItemKind.Separator, run: () => Promise.resolve() },
    { label: `$(settings-gear) ${t('Open Settings')}`, run: run(COMMANDS.openSettings) },
    { label: `$(output) ${t('Show Log')}`, run: run(COMMANDS.showLog) },
  ];
  let items: MenuItem[];
  if (account === undefined) {
    items = [...signInItems(), ...common];
  } else {
    items = [
      { label: `$(sign-out) ${t('Sign Out')}`, description: account.label, run: run(COMMANDS.signOut) },
      {
        label: `$(arrow-swap) ${t('Switch Account…')}`,
        description: t('sign in another way; signed out of this one only then'),
        run: run(COMMANDS.switchAccount),
      },
      ...common,
      {
        label: `$(key) ${t('Set Data-App Hub API Key')}`,
        description:
          account.method === 'password' ? (account.hasHubKey ? t('set') : t('not set')) : t('uses your API key'),
        run: run(COMMANDS.setHubApiKey),
      },
    ];
  }
  const title = account === undefined ? t('Scrapedeck: not signed in') : t('Scrapedeck: {0}', account.label);
  const choice = await deps.ui.showQuickPick(items, { title, placeHolder: deps.account.endpoints.baseUrl });
  if (choice !== undefined) await choice.run();
}
