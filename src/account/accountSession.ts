/**
 * How a signed-in account appears in VS Code's Accounts menu. Pure (no `vscode`), so the rules
 * can be tested in Node: the session names the account and never carries a secret.
 */
import { createHash } from 'node:crypto';

import { english, type Translate } from '../platform/errorText';

export interface SessionAccount {
  /** The username, 'API key …abcd', or a label the user chose. */
  label: string;
  method: 'apiKey' | 'password' | 'sandbox';
  baseUrl: string;
}

export interface AccountsMenuSession {
  id: string;
  /**
   * Always empty. Other extensions may ask VS Code for this provider's sessions; what they get must
   * not let them act for the user, so the API key and tokens stay in SecretStorage only.
   */
  accessToken: '';
  account: { id: string; label: string };
  scopes: readonly string[];
}

/** The label in the Accounts menu: who, and for a sandbox, that it is one. */
export function accountsMenuLabel(account: SessionAccount, t: Translate = english): string {
  return account.method === 'sandbox' ? t('{0} (sandbox)', account.label) : account.label;
}

/**
 * A stable id per service address and account: the same sign-in keeps its id across reloads, and
 * the id reveals neither (a hash of public facts, shortened).
 */
export function accountsMenuSession(account: SessionAccount, t: Translate = english): AccountsMenuSession {
  const id = createHash('sha256')
    .update(`${account.baseUrl}\n${account.method}\n${account.label}`)
    .digest('hex')
    .slice(0, 24);
  return { id, accessToken: '', account: { id, label: accountsMenuLabel(account, t) }, scopes: [] };
}

/** A stable key for "this account at this address" that reveals nothing (remembered per account, e.g. an app's 404). */
export function accountKey(account: SessionAccount): string {
  return accountsMenuSession(account).id;
}
