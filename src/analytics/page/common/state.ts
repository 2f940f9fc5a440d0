/** The page's state in one place, and what of it is kept across reloads. */
import { type FormIssues, type FormValues, parseWholeNumber } from '../../model/formModel';
import type { SortState } from '../../model/tableModel';
import type { PageState, Preset, ResultState, WireError } from '../../protocol';
import { ANALYTICS_LIMITS } from '../../protocol/wire';

/**
 * query: Run query, its first page. rest: the rest of the result on screen, fetched in the
 * background (the result stays usable). fetchAll: "Fetch all pages" of a query not on screen.
 */
export type RequestKind = 'query' | 'rest' | 'fetchAll';

export interface PendingRequest {
  id: string;
  kind: RequestKind;
  fetched?: number;
  total?: number;
  /** Where the fetch stops, when short of `total` (scrapedeck.analytics.autoFetchRows). */
  target?: number;
}

export interface ShownError {
  error: WireError;
  /** What was being done, for the headline. */
  action: string;
}

export interface AppState {
  today: string | undefined;
  preset: Preset | undefined;
  form: FormValues | undefined;
  /** Issues on screen; shown once a field was touched or Run was pressed. */
  issues: FormIssues;
  result: ResultState | undefined;
  /** The restored result's rows were too many to keep; they are being fetched again. */
  resultDropped: boolean;
  sort: SortState | undefined;
  /** "Show all": the table holds every row fetched (virtualised), not one page. */
  showAll: boolean;
  /** Rows per table page: the form's page size when valid, else the last valid one. */
  pageSize: number;
  request: PendingRequest | undefined;
  /** A 400 from the server: shown next to the form. */
  formError: ShownError | undefined;
  /** Any other failure: shown above the results. */
  error: ShownError | undefined;
  notice: string | undefined;
  signedIn: boolean;
  /** The account the content belongs to (its tag from the host); undefined signed out. */
  account: string | undefined;
}

export function initialState(): AppState {
  return {
    today: undefined,
    preset: undefined,
    form: undefined,
    issues: {},
    result: undefined,
    resultDropped: false,
    sort: undefined,
    showAll: false,
    pageSize: ANALYTICS_LIMITS.pageSizeDefault,
    request: undefined,
    formError: undefined,
    error: undefined,
    notice: undefined,
    signedIn: true,
    account: undefined,
  };
}

/** The form's page size when it is a valid one; undefined otherwise. */
export function validPageSize(form: FormValues | undefined): number | undefined {
  const n = form ? parseWholeNumber(form.pageSize) : null;
  return n !== null && n >= ANALYTICS_LIMITS.pageSizeMin && n <= ANALYTICS_LIMITS.pageSizeMax ? n : undefined;
}

/** The result on screen has every row of its query. */
export function isComplete(result: ResultState): boolean {
  return result.records.length >= result.total;
}

export function toPageState(s: AppState): PageState {
  const out: PageState = { version: 2 };
  if (s.account !== undefined) out.account = s.account;
  if (s.preset) out.preset = s.preset;
  if (s.form) out.form = s.form;
  if (s.result) out.result = s.result;
  if (s.sort) out.sort = s.sort;
  if (s.showAll) out.showAll = true;
  return out;
}
