/**
 * What a run status means for the tree, without `vscode`: the service publishes `Extracting` and
 * `Stopped`, and may send anything else. Public clients also read `Finished`, `Waiting` (queued
 * for a cloud node) and `Unexecuted` (accepted, not started yet); an older interface numbers them
 * (0 running, 3 waiting). Known words map to a kind; any other text is `unknown`, shown as it came
 * (cleaned of control characters and cut to a readable length), never refused.
 */

/** `queued`: the run is going to run (waiting for a node, or accepted and not started yet). */
export type RunKind = 'queued' | 'extracting' | 'stopped' | 'finished' | 'failed' | 'unknown';

/** A state of our own while a start or stop request is on its way (the tree updates at once). */
export type PendingAction = 'starting' | 'stopping';

/** Lower-case words and the kind they mean. Extra spellings are guesses at unpublished values. */
const WORDS: Readonly<Record<string, RunKind>> = {
  waiting: 'queued',
  unexecuted: 'queued',
  queued: 'queued',
  '3': 'queued',
  extracting: 'extracting',
  '0': 'extracting',
  running: 'extracting',
  stopped: 'stopped',
  finished: 'finished',
  completed: 'finished',
  complete: 'finished',
  succeeded: 'finished',
  failed: 'failed',
  failure: 'failed',
  error: 'failed',
};

export function runKindOf(status: string): RunKind {
  return WORDS[status.trim().toLowerCase()] ?? 'unknown';
}

/** A run under way or about to be (extracting, or queued): worth polling for, and Stop Run applies. */
export function isUnderWay(kind: RunKind): boolean {
  return kind === 'extracting' || kind === 'queued';
}

export const STATUS_TEXT_MAX = 40;

/** The status as sent, safe to show on one line: control characters dropped, at most 40 characters. */
export function statusText(status: string): string {
  const flat = status
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (flat === '') return '?';
  return flat.length > STATUS_TEXT_MAX ? `${flat.slice(0, STATUS_TEXT_MAX - 1)}…` : flat;
}

/** A theme icon by id, with an optional theme colour id (`testing.iconPassed`). */
export interface IconSpec {
  readonly id: string;
  readonly colour?: string;
}

/**
 * One icon per kind, each different, so the state reads without colour too: a watch while queued,
 * a spinner while extracting, a square when stopped, a tick, a cross, a question mark, an empty
 * circle for a task that never ran in the cloud; a second spinner shape (`loading~spin`) while our
 * own request is on its way.
 */
export const RUN_ICONS: Readonly<Record<RunKind | PendingAction | 'neverRun', IconSpec>> = {
  queued: { id: 'watch' },
  extracting: { id: 'sync~spin' },
  stopped: { id: 'debug-stop' },
  finished: { id: 'pass', colour: 'testing.iconPassed' },
  failed: { id: 'error', colour: 'testing.iconFailed' },
  unknown: { id: 'question' },
  starting: { id: 'loading~spin' },
  stopping: { id: 'loading~spin' },
  neverRun: { id: 'circle-large-outline' },
};
