/**
 * What the route handlers share: the seeded world, the precomputed records, the token store, the
 * hub's deprecation marks, the counters and the clock. One instance per running sandbox (no
 * module-level mutable state), so tests can run several side by side.
 */
import type { IncomingHttpHeaders } from 'node:http';

import type { SubtaskSpelling } from '../../api/schemas/runSchemas';
import type { SandboxInfo } from '../seed/info';
import type { World } from '../seed/seed';
import type { TaskIndex } from '../seed/taskIndex';
import type { RecordPage, RecordQuery } from './analytics';
import type { TokenStore } from './auth';
import type { LoopStore } from './loops';
import type { RunBook } from './runBook';

/** Counters for tests and the bench ("exactly one refresh"). Live: read them any time. */
export interface SandboxStats {
  requests: number;
  /** Per route id, e.g. `POST /token`, `GET /taskGroup`, `unknown`. */
  byRoute: Record<string, number>;
  /** Per HTTP status sent ("200", "429", …); dropped connections are not in here. */
  byStatus: Record<string, number>;
  status429: number;
  /** Successful grants only. */
  passwordGrants: number;
  refreshGrants: number;
  /** When each successful refresh grant was answered (epoch ms): tests tell one expiry's renewals from the next one's. */
  refreshGrantTimes: number[];
  faultsInjected: number;
  droppedConnections: number;
}

export function newStats(): SandboxStats {
  return {
    requests: 0,
    byRoute: {},
    byStatus: {},
    status429: 0,
    passwordGrants: 0,
    refreshGrants: 0,
    refreshGrantTimes: [],
    faultsInjected: 0,
    droppedConnections: 0,
  };
}

export interface SandboxState {
  world: World;
  /** Answers validated analytics queries from the precomputed records. */
  queryRecords: (q: RecordQuery) => RecordPage;
  tokens: TokenStore;
  /** Refs (`namespace/name`) of deprecated apps. */
  deprecated: Set<string>;
  stats: SandboxStats;
  now: () => number;
  info: SandboxInfo;
  /** Runs, data, loops, duplicates and moves: what changes while the sandbox runs. */
  ops: SandboxOps;
  /** Where the service's published behaviour is uncertain, which reading this sandbox plays. */
  behaviour: SandboxBehaviour;
}

export interface SandboxBehaviour {
  /** Which spellings of start/stop subtasks answer (`both` by default); the other is an unknown route. */
  subtaskSpelling: SubtaskSpelling | 'both';
  /** Tasks that never ran in the cloud: left out of statuses v2 (`omit`, the published behaviour) or answered Stopped with 0 runs. */
  neverRun: 'omit' | 'stopped';
}

export interface SandboxOps {
  tasks: TaskIndex;
  runs: RunBook;
  loops: LoopStore;
}

export interface RouteRequest {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  /** The raw request body (empty for GET); handlers parse it with zod. */
  body: string;
  /** Path parameters captured by the router (the hub's app_id, still encoded). */
  params: Record<string, string>;
}

export type JsonParse = { ok: true; value: unknown } | { ok: false };

/** Bad JSON is a 400, never a crash. */
export function parseJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
