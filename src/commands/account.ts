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
    { label: '$(key) Sign In with API Key', run: run('scrapedeck.signInWithApiKey') },
    { label: '$(account) Sign In with Username and Password', run: run('scrapedeck.signInWithPassword') },
    { label: '$(beaker) Try the Sandbox', description: 'seeded data, no account needed', run: run('scrapedeck.trySandbox') },
  ];
}

export async function accountMenu(deps: AccountMenuDeps): Promise<void> {
  const account = deps.account.account;
  const common: MenuItem[] = [
    { label: '', kind: vscode.QuickPickItemKind.Separator, run: () => Promise.resolve() },
    { label: '$(settings-gear) Open Settings', run: run('scrapedeck.openSettings') },
    { label: '$(output) Show Log', run: run('scrapedeck.showLog') },
  ];
  let items: MenuItem[];
  if (account === undefined) {
    items = [...signInItems(), ...common];
  } else {
    items = [
      { label: '$(sign-out) Sign Out', description: account.label, run: run('scrapedeck.signOut') },
      {
        label: '$(arrow-swap) Switch Account…',
        description: 'sign out, then sign in another way',
        run: async () => {
          await vscode.commands.executeCommand('scrapedeck.signOut');
          const next = await deps.ui.showQuickPick(signInItems(), { title: 'Sign In to Scrapedeck', placeHolder: 'How do you want to sign in?' });
          if (next !== undefined) await next.run();
        },
      },
      ...common,
      {
        label: '$(key) Set Data-App Hub API Key',
        description: account.method === 'password' ? (account.hasHubKey ? 'set' : 'not set') : 'uses your API key',
        run: run('scrapedeck.setHubApiKey'),
      },
    ];
  }
  const title = account === undefined ? 'Scrapedeck: not signed in' : `Scrapedeck: ${account.label}`;
  const choice = await deps.ui.showQuickPick(items, { title, placeHolder: deps.account.endpoints.baseUrl });
  if (choice !== undefined) await choice.run();
}
