/**
 * The status-bar item: who is signed in and how, the service address in the tooltip, and the
 * account menu on click. Signed out it offers to sign in.
 */
import * as vscode from 'vscode';

import { COMMANDS } from '../platform/commandIds';
import type { Account, ClientHolder } from './clientHolder';

const MAX_LABEL = 24;

export function createAccountStatusBar(
  account: Pick<ClientHolder, 'account' | 'endpoints' | 'onDidChange'>,
): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('scrapedeck.account', vscode.StatusBarAlignment.Left, 0);
  item.name = vscode.l10n.t('Scrapedeck Account');
  item.command = COMMANDS.accountMenu;
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
  const t = vscode.l10n.t;
  if (current === undefined) {
    return {
      text: `$(account) ${t('Sign In')}`,
      tooltip: t('Scrapedeck: not signed in to {0}. Click to sign in.', baseUrl),
      accessibility: t('Scrapedeck: not signed in. Click to sign in.'),
    };
  }
  const hub =
    current.datahubUrl === undefined ? t('Data-app hub: not set') : t('Data-app hub: {0}', current.datahubUrl);
  const short = current.label.length > MAX_LABEL ? `${current.label.slice(0, MAX_LABEL - 1)}…` : current.label;
  if (current.method === 'sandbox') {
    return {
      text: `$(beaker) ${t('{0} (sandbox)', short)}`,
      tooltip: `${t('Scrapedeck sandbox, signed in as {0}', current.label)}\n${t('Service: {0}', current.baseUrl)}\n${hub}`,
      accessibility: t('Scrapedeck sandbox, signed in as {0}', current.label),
    };
  }
  const text = current.method === 'apiKey' ? `$(account) ${short}` : `$(account) ${t('{0} (password)', short)}`;
  const how = current.method === 'apiKey' ? t('API key') : t('username and password');
  return {
    text,
    tooltip: `${t('Scrapedeck: signed in as {0} ({1})', current.label, how)}\n${t('Service: {0}', current.baseUrl)}\n${hub}`,
    accessibility: t('Scrapedeck: signed in as {0}', current.label),
  };
}
