/** Whose data-app lists are in use: the signed-in account at its hub (undefined: signed out, or no hub). */
import { accountKey } from '../account/accountSession';
import type { Account } from '../account/clientHolder';
import type { AppScope } from './appStore';

export function appScopeOf(account: Account | undefined): AppScope | undefined {
  if (account === undefined || account.datahubUrl === undefined) return undefined;
  return { hub: account.datahubUrl, account: accountKey(account) };
}
