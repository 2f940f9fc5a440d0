/** The page's state in one place, and what of it is kept across reloads. */
import type { FormIssues, FormValues } from '../../analyticsModel/formModel';
import type { SortState } from '../../analyticsModel/tableModel';
import type { PageState, Preset, ResultState, WireError } from '../protocol';

export type RequestKind = 'query' | 'fetchAll';

export interface PendingRequest {
  id: string;
  kind: RequestKind;
  fetched?: number;
  total?: number;
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
  /** The restored "all pages" result was too big to keep; its records must be fetched again. */
  resultDropped: boolean;
  sort: SortState | undefined;
  request: PendingRequest | undefined;
  /** A 400 from the server: shown next to the form. */
  formError: ShownError | undefined;
  /** Any other failure: shown above the results. */
  error: ShownError | undefined;
  notice: string | undefined;
  signedIn: boolean;
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
    request: undefined,
    formError: undefined,
    error: undefined,
    notice: undefined,
    signedIn: true,
  };
}

export function toPageState(s: AppState): PageState {
  const out: PageState = { version: 1 };
  if (s.preset) out.preset = s.preset;
  if (s.form) out.form = s.form;
  if (s.result) out.result = s.result;
  if (s.sort) out.sort = s.sort;
  return out;
}
