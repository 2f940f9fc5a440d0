/**
 * The account boundary of the analytics panel: what of a page's saved state belongs to the account
 * that was signed in (its results, the tasks and members picked, the preset naming its tasks) and
 * is dropped when another account (or nobody) is signed in. The dates, granularity, method, page
 * size and sort are the user's, not the account's, and stay.
 */
import type { PageState } from './schemas';

/** `state` as `account` may see it: unchanged when it is that account's, else without the account's parts. */
export function forAccount(state: PageState, account: string | undefined): { state: PageState; cleared: boolean } {
  if (state.account === account) return { state, cleared: false };
  return { state: forgetAccount(state, account), cleared: holdsAccountData(state) };
}

/** The state without anything of its account, tagged with `account` (the one now signed in, if any). */
export function forgetAccount(state: PageState, account: string | undefined): PageState {
  const out: PageState = { version: 2 };
  if (account !== undefined) out.account = account;
  if (state.form) out.form = { ...state.form, taskIds: [], taskLabels: [], memberNames: '', page: 1 };
  if (state.sort) out.sort = state.sort;
  return out;
}

/** Whether the state holds anything an account change drops (so the page says why it is gone). */
export function holdsAccountData(state: PageState): boolean {
  const f = state.form;
  return (
    state.result !== undefined ||
    state.preset !== undefined ||
    (f !== undefined && (f.taskIds.length > 0 || f.memberNames.trim() !== ''))
  );
}
