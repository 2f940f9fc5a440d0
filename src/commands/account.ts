/**
 * The account menu (the status-bar item's click), the log and the settings shortcuts.
 */
import * as vscode from 'vscode';
import type { AccountService } from '../account/accountService';
import type { Ui } from '../platform/ui';

export interface AccountMenuDeps {
  account: AccountService;
  ui: Ui;
  log: vscode.LogOutputChannel;
}

interface MenuItem extends vscode.QuickPickItem {
  run: () => Thenable<unknown>;
}

const run = (command: string) => () => vscode.commands.executeCommand(command);
const t = vscode.l10n.t;

export function registerAccountCommands(context: vscode.ExtensionContext, deps: AccountMenuDeps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('scrapedeck.accountMenu', () => accountMenu(deps)),
    vscode.commands.registerCommand('scrapedeck.showLog', () => deps.log.show()),
    vscode.commands.registerCommand('scrapedeck.openSettings', () =>
      vscode.commands.executeCommand('workbench.action.openSettings', '@ext:scrapedeck.scrapedeck'),
    ),
    vscode.commands.registerCommand('scrapedeck.openHubSettings', () =>
      vscode.commands.executeCommand('workbench.action.openSettings', 'scrapedeck.datahubUrl'),
    ),
  );
}

function signInItems(): MenuItem[] {
  return [
    { label: `$(key) ${t('Sign In with API Key')}`, run: run('scrapedeck.signInWithApiKey') },
    { label: `$(account) ${t('Sign In with Username and Password')}`, run: run('scrapedeck.signInWithPassword') },
    { label: `$(beaker) ${t('Try the Sandbox')}`, description: t('seeded data, no account needed'), run: run('scrapedeck.trySandbox') },
  ];
}

/** "How do you want to sign in?" and the chosen sign-in (the Accounts menu's Sign In uses it too). */
export async function chooseSignIn(ui: Ui): Promise<void> {
  const next = await ui.showQuickPick(signInItems(), { title: t('Sign In to Scrapedeck'), placeHolder: t('How do you want to sign in?') });
  if (next !== undefined) await next.run();
}

export async function accountMenu(deps: AccountMenuDeps): Promise<void> {
  const account = deps.account.account;
  const common: MenuItem[] = [
    { label: '', kind: vscode.QuickPickItemKind.Separator, run: () => Promise.resolve() },
    { label: `$(settings-gear) ${t('Open Settings')}`, run: run('scrapedeck.openSettings') },
    { label: `$(output) ${t('Show Log')}`, run: run('scrapedeck.showLog') },
  ];
  let items: MenuItem[];
  if (account === undefined) {
    items = [...signInItems(), ...common];
  } else {
    items = [
      { label: `$(sign-out) ${t('Sign Out')}`, description: account.label, run: run('scrapedeck.signOut') },
      {
        label: `$(arrow-swap) ${t('Switch Account…')}`,
        description: t('sign out, then sign in another way'),
        run: async () => {
          await vscode.commands.executeCommand('scrapedeck.signOut');
          await chooseSignIn(deps.ui);
        },
      },
      ...common,
      {
        label: `$(key) ${t('Set Data-App Hub API Key')}`,
        description: account.method === 'password' ? (account.hasHubKey ? t('set') : t('not set')) : t('uses your API key'),
        run: run('scrapedeck.setHubApiKey'),
      },
    ];
  }
  const title = account === undefined ? t('Scrapedeck: not signed in') : t('Scrapedeck: {0}', account.label);
  const choice = await deps.ui.showQuickPick(items, { title, placeHolder: deps.account.endpoints.baseUrl });
  if (choice !== undefined) await choice.run();
}
