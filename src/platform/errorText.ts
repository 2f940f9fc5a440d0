/**
 * The one place user-facing error text is composed from an error and what the user was doing:
 * what failed, the service's message once, at most one hint, in sentence case with single
 * punctuation. The request id is never part of the text: callers offer it as an action
 * ("Copy Request ID"). No `vscode`: the translator is passed in (vscode.l10n.t in the extension),
 * so every kind x context can be checked in plain Node.
 */
import { type ApiErrorKind, errorMessage, isApiError } from '../api/errors/errors';
import { plainText } from './plainText';

export type Translate = (message: string, ...args: (string | number)[]) => string;

/** English, with {0}-style arguments, for tests and for callers without l10n. */
export const english: Translate = (message, ...args) =>
  message.replace(/\{(\d+)\}/g, (m, i: string) => String(args[Number(i)] ?? m));

/** The plans the task, data and analytics operations need (the spec's default for them). */
export const TASK_PLANS = ['Standard', 'Professional', 'Enterprise'] as const;

interface ContextSpec {
  /** What failed, without a full stop; may depend on the kind (a refused key reads differently). */
  failed(t: Translate, subject: string, kind: ApiErrorKind | undefined): string;
  /** Plans that allow the operation, named once for a 403. */
  plans?: readonly string[];
  /** A hint for this context that replaces the kind's own (still at most one). */
  hint?(t: Translate, kind: ApiErrorKind | undefined): string | undefined;
}

/** Every context a failure is reported in. A new one is added here, so the unit test covers it. */
export const ERROR_CONTEXTS = {
  loadGroups: { failed: (t) => t('Could not load task groups'), plans: TASK_PLANS },
  loadTasks: { failed: (t, s) => t('Could not load the tasks of “{0}”', s), plans: TASK_PLANS },
  openAnalytics: { failed: (t) => t('Could not open task analytics'), plans: TASK_PLANS },
  checkApiKey: {
    failed: (t, _s, kind) => (kind === 'auth' ? t('That API key was not accepted') : t('Could not check the API key')),
    hint: (t, kind) => (kind === 'auth' ? t('Check the key and try again.') : undefined),
  },
  signInPassword: {
    failed: (t, _s, kind) =>
      kind === 'auth' ? t('The username or password was not accepted') : t('Could not sign in'),
    hint: (t, kind) => (kind === 'auth' ? t('Check them and try again.') : undefined),
  },
  openSandbox: { failed: (t) => t('Could not open the sandbox') },
  trackApp: { failed: (t, s) => t('Could not track {0}', s) },
  stopTracking: { failed: (t, s) => t('Could not stop tracking {0}', s) },
  deprecate: { failed: (t, s) => t('Could not deprecate {0}', s) },
  // A task's data (src/data); the subject is the task's name, the file is named in the advice.
  exportData: { failed: (t, s) => t('Could not export the data of “{0}”', s), plans: TASK_PLANS },
  browseData: { failed: (t, s) => t('Could not browse the data of “{0}”', s), plans: TASK_PLANS },
  pullNewRows: { failed: (t, s) => t('Could not pull the new rows of “{0}”', s), plans: TASK_PLANS },
  openPullFile: { failed: (t, s) => t('Could not open the file for the new rows of “{0}”', s) },
  writeNewRows: { failed: (t, s) => t('Could not write the new rows of “{0}”', s) },
  markExported: { failed: (t, s) => t('Could not mark the new rows of “{0}” as exported', s), plans: TASK_PLANS },
  removeData: { failed: (t, s) => t('Could not remove the data of “{0}”', s), plans: TASK_PLANS },
  healthUnavailable: { failed: (t) => t('Task health is unavailable'), plans: TASK_PLANS },
  healthRefresh: { failed: (t, s) => t('Could not refresh the health of {0}', s) },
  // Runs (src/runs) compose the sentence with the task's name themselves; the subject is it.
  runs: { failed: (_t, s) => s, plans: ['Professional', 'Enterprise'] },
  organiseTasks: { failed: (_t, s) => s, plans: TASK_PLANS },
} satisfies Record<string, ContextSpec>;

export type ErrorContext = keyof typeof ERROR_CONTEXTS;

export interface ErrorText {
  /** What failed, the service's message, at most one hint: whole sentences. */
  text: string;
  /** The request id to offer as an action; never inside `text`. */
  requestId: string | undefined;
  kind: ApiErrorKind | undefined;
}

export function composeErrorText(
  error: unknown,
  context: ErrorContext,
  rawSubject = '',
  t: Translate = english,
): ErrorText {
  const api = isApiError(error) ? error : undefined;
  const kind = api?.kind;
  const spec: ContextSpec = ERROR_CONTEXTS[context];
  // The subject (a task's or app's name, or a sentence the caller made with one) and the service's
  // message are outside text: through plainText, long enough for a sentence.
  const subject = plainText(rawSubject, 400);
  const raw = plainText(api?.message ?? errorMessage(error), 1000);
  const message = sentence(raw);
  const hint = spec.hint?.(t, kind) ?? kindHint(t, kind, spec.plans, raw);
  const parts = [sentence(spec.failed(t, subject, kind)), message, hint === undefined ? '' : sentence(hint)];
  return { text: joinSentences(parts), requestId: api?.requestId || undefined, kind };
}

/** The hints that depend on who reads them: a person in VS Code (the default) or a model (agents/failure.ts). */
export interface HintWords {
  rateLimited: string;
  unreachable: string;
  /** A refused or expired sign-in; none for a person (the reporter offers Sign In Again). */
  auth?: string;
}

/** The hint of an error kind, or none; a 403 names the plans unless the service already did. */
export function kindHint(
  t: Translate,
  kind: ApiErrorKind | undefined,
  plans: readonly string[] | undefined,
  message: string,
  words?: HintWords,
): string | undefined {
  switch (kind) {
    case 'auth':
      return words?.auth;
    case 'forbidden':
      if (plans === undefined || plans.length === 0 || plans.every((p) => message.includes(p))) return undefined;
      return t('This needs a {0} plan.', planList(plans, t));
    case 'rate-limited':
      return (
        words?.rateLimited ??
        t('The service is limiting requests: try again in a moment, or lower scrapedeck.requestsPerSecond.')
      );
    case 'network':
    case 'timeout':
      return words?.unreachable ?? t('Check your connection, scrapedeck.baseUrl and the proxy settings.');
    default:
      return undefined;
  }
}

/** "Standard, Professional or Enterprise" */
export function planList(plans: readonly string[], t: Translate = english): string {
  if (plans.length <= 1) return plans[0] ?? '';
  return t('{0} or {1}', plans.slice(0, -1).join(', '), plans[plans.length - 1] ?? '');
}

/**
 * One or more sentences, each ending with one full stop (or its own ? or !) and starting with a
 * capital, unless it starts with an identifier (`app_id`, `scrapedeck.baseUrl`) that must stay as is.
 */
export function sentence(text: string): string {
  const flat = text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/([.!?])[.!?]+/g, '$1');
  if (flat === '') return '';
  const capital = /^[a-z]+(?=[\s,;:]|[.!?](?:\s|$)|$)/.test(flat) ? flat.charAt(0).toUpperCase() + flat.slice(1) : flat;
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

/** Joins sentences, dropping any sentence already said (case and punctuation aside). */
export function joinSentences(parts: readonly string[]): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of parts) {
    for (const s of splitSentences(part)) {
      const key = s
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
      if (key === '' || seen.has(key)) continue;
      seen.add(key);
      out.push(s);
    }
  }
  return out.join(' ');
}

export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[^\sa-z])/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
