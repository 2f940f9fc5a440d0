/** What `startSandbox` (server.ts) is started with, its defaults, and what it hands back. */
import type { SubtaskSpelling } from '../api/schemas/runSchemas';
import type { SandboxInfo } from './seed/info';
import type { StateNote } from './state/persist';
import { DEFAULT_QUEUE_SECONDS, DEFAULT_RUN_SECONDS, type TaskClock } from './state/runBook';
import type { SandboxStats } from './state/state';

export interface SandboxOptions {
  port?: number;
  host?: string;
  tokenTtlSeconds?: number;
  /** Requests per second per credential; 0 turns the limit off. */
  rateLimit?: number;
  /** Fraction (0..1) of responses that fail like real networks do. */
  faults?: number;
  seed?: number;
  /** One line per request (method, path, status, duration, requestId); never a secret. */
  log?: (line: string) => void;
  /** The clock (epoch ms) for "today", token expiry, the rate limit and runs. */
  now?: () => number;
  /** How long a started run takes, in seconds (default 30). */
  runSeconds?: number;
  /** The seconds queued and running of a run of the task of this name, where they differ from `queueSeconds` and `runSeconds`. */
  clockByTask?: Readonly<Record<string, TaskClock>>;
  /** Adds a "Big export" task with this many rows (generated on the fly) to the demo account. */
  bigTaskRows?: number;
  /** Adds this many tasks to the demo account's Benchmarks group. */
  extraTasks?: number;
  /** Those tasks each run by one collection method (the health benchmark's second case). */
  extraTasksOneMethod?: boolean;
  /** Those tasks are the demo account's only ones (an account of exactly that many tasks). */
  extraTasksOnly?: boolean;
  /** Which spellings of start/stop subtasks the sandbox answers (default both). */
  subtaskSpelling?: SubtaskSpelling | 'both';
  /** How long a started run waits for a cloud node (`Waiting`) before it extracts, in seconds (default 5; 0: at once). */
  queueSeconds?: number;
  /** Tasks that never ran in the cloud: left out of statuses v2 (`omit`, default, as published) or answered `Stopped` with 0 runs. */
  neverRun?: 'omit' | 'stopped';
  /**
   * Keep what users change (marks, runs, loop items, copies and moves, deprecations, tokens) in
   * this file across restarts: read at start, written after each request that changed something.
   */
  statePath?: string;
}

export interface RunningSandbox {
  info: SandboxInfo;
  stats: SandboxStats;
  /** With `statePath`: whether a saved state was applied, started fresh, or one was set aside (and why). */
  state?: StateNote;
  close(): Promise<void>;
}

export const DEFAULTS = {
  port: 0,
  host: '127.0.0.1',
  tokenTtlSeconds: 7200,
  rateLimit: 20,
  faults: 0,
  seed: 1,
  runSeconds: DEFAULT_RUN_SECONDS,
  queueSeconds: DEFAULT_QUEUE_SECONDS,
} as const;
