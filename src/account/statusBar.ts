/**
 * The status-bar item: who is signed in and how, the service address in the tooltip, and the
 * account menu on click. Signed out it offers to sign in.
 */
import * as vscode from 'vscode';
import type { Account, AccountService } from './accountService';

const MAX_LABEL = 24;

export function createAccountStatusBar(account: AccountService): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('scrapedeck.account', vscode.StatusBarAlignment.Left, 0);
  item.name = 'Scrapedeck Account';
  item.command = 'scrapedeck.accountMenu';
  const update = (current: Account | undefined): void => {
    const view = statusBarText(current, account.endpoints.baseUrl);
    item.text = view.text;
    item.tooltip = view.tooltip;
    item.accessibilityInformation = { label: view.accessibility };
    item.show();
  };
  update(account.account);
  const subscription = account.onDidChange(update);
  return vscode.Disposable.from(subscription, item);
}

/** Pure, so the wording can be read (and tested) without a window. */
export function statusBarText(
  current: Account | undefined,
  baseUrl: string,
): { text: string; tooltip: string; accessibility: string } {
  if (current === undefined) {
    return {
      text: '$(account) Sign In',
      tooltip: `Scrapedeck: not signed in to ${baseUrl}. Click to sign in.`,
      accessibility: 'Scrapedeck: not signed in. Click to sign in.',
    };
  }
  const hub = current.datahubUrl === undefined ? 'Data-app hub: not set' : `Data-app hub: ${current.datahubUrl}`;
  const short = current.label.length > MAX_LABEL ? `${current.label.slice(0, MAX_LABEL - 1)}…` : current.label;
  if (current.method === 'sandbox') {
    return {
      text: `$(beaker) ${short} (sandbox)`,
      tooltip: `Scrapedeck sandbox, signed in as ${current.label}\nService: ${current.baseUrl}\n${hub}`,
      accessibility: `Scrapedeck sandbox, signed in as ${current.label}`,
    };
  }
  const how = current.method === 'apiKey' ? 'API key' : 'password';
  const text = current.method === 'apiKey' ? `$(account) ${short}` : `$(account) ${short} (${how})`;
  return {
    text,
    tooltip: `Scrapedeck: signed in as ${current.label} (${how === 'password' ? 'username and password' : how})\nService: ${current.baseUrl}\n${hub}`,
    accessibility: `Scrapedeck: signed in as ${current.label}`,
  };
}
