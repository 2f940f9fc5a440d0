/** The route table: which handler, which error shape, and whether faults and the rate limit apply. */
import { SUBTASK_ACTION_PATHS } from '../../api/schemas/runSchemas';
import { errorReply, type Iface, type Reply } from '../http/respond';
import { credentialKey } from '../state/auth';
import type { RouteRequest, SandboxState } from '../state/state';
import { handleAnalytics } from './analytics';
import { handleDataAll, handleLotData, handleMarkExported, handleNotExported, handleRemove } from './data';
import { handleDeprecate } from './hub';
import { handleCopy, handleMove } from './organise';
import { handleGetActions, handleUpdateActionProperties, handleUpdateLoopItems } from './params';
import {
  handleStart,
  handleStatusesV1,
  handleStatusesV2,
  handleStop,
  handleSubtaskAction,
  handleSubtaskStatuses,
} from './runs';
import { handleTaskGroups, handleTaskSearch } from './tasks';
import { handleToken, tokenRateKey } from './token';

export const DATAHUB_PREFIX = '/datahub';

export interface Route {
  /** Stable id for stats and logs, e.g. `POST /token`. */
  id: string;
  method: string;
  pattern: RegExp;
  /** Names of the pattern's capture groups, in order. */
  params: string[];
  iface: Iface;
  /** The sandbox's own info route is never faulted nor limited: harnesses rely on it. */
  meta?: boolean;
  handle(req: RouteRequest, state: SandboxState): Reply;
  rateKey?(req: RouteRequest, state: SandboxState, remoteAddress: string | undefined): string;
  /** It can change what the sandbox holds (written to the state file after it answered). */
  mutates?: true;
}

const mainKey = (req: RouteRequest, _s: SandboxState, remote: string | undefined): string =>
  credentialKey(req.headers, remote);

/** A main-interface route of the runs, data and task-parameter operations (rate-limited per credential). */
function op(method: 'GET' | 'POST', path: string, handle: Route['handle'], pattern?: RegExp): Route {
  const exact = new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/?$`);
  return {
    id: `${method} ${path}`,
    method,
    pattern: pattern ?? exact,
    params: [],
    iface: 'main',
    handle,
    rateKey: mainKey,
  };
}

/** The same, for an operation that changes what the sandbox holds (not-exported hands rows out). */
function change(method: 'GET' | 'POST', path: string, handle: Route['handle'], pattern?: RegExp): Route {
  return { ...op(method, path, handle, pattern), mutates: true };
}

/**
 * Start/stop subtasks: both published readings of `subtasks{start}` (`subtasks:start`,
 * `subtasks/start`, a `:` sent encoded too). Which of them the sandbox answers is its
 * `subtaskSpelling` behaviour (both by default); the other then gets the unknown-route 404.
 */
function subtaskPattern(verb: 'start' | 'stop'): RegExp {
  const escape = (p: string) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const spelled = Object.values(SUBTASK_ACTION_PATHS).map((paths) => escape(paths[verb]));
  return new RegExp(`^(?:/cloudextraction/subtasks(?::|/|%3A)${verb}|${spelled.join('|')})/?$`, 'i');
}

const ROUTES: Route[] = [
  {
    id: 'GET /__sandbox',
    method: 'GET',
    pattern: /^\/__sandbox\/?$/,
    params: [],
    iface: 'main',
    meta: true,
    handle: (_req, state) => ({ status: 200, body: { ...state.info } }),
  },
  {
    id: 'POST /token',
    method: 'POST',
    pattern: /^\/token\/?$/,
    params: [],
    iface: 'token',
    handle: handleToken,
    rateKey: tokenRateKey,
    mutates: true,
  },
  {
    id: 'GET /taskGroup',
    method: 'GET',
    pattern: /^\/taskGroup\/?$/,
    params: [],
    iface: 'main',
    handle: handleTaskGroups,
    rateKey: mainKey,
  },
  {
    id: 'GET /task/search',
    method: 'GET',
    pattern: /^\/task\/search\/?$/,
    params: [],
    iface: 'main',
    handle: handleTaskSearch,
    rateKey: mainKey,
  },
  {
    id: 'POST /taskanalytics/queries',
    method: 'POST',
    pattern: /^\/taskanalytics\/queries\/?$/,
    params: [],
    iface: 'main',
    handle: handleAnalytics,
    rateKey: mainKey,
  },
  op('POST', '/cloudextraction/statuses', handleStatusesV1),
  op('POST', '/cloudextraction/statuses/v2', handleStatusesV2),
  change('POST', '/cloudextraction/start', handleStart),
  change('POST', '/cloudextraction/stop', handleStop),
  op('GET', '/cloudextraction/task/subtasks', handleSubtaskStatuses),
  change('POST', '/cloudextraction/subtasks{start}', handleSubtaskAction('start'), subtaskPattern('start')),
  change('POST', '/cloudextraction/subtasks{stop}', handleSubtaskAction('stop'), subtaskPattern('stop')),
  op('POST', '/task/getActions', handleGetActions),
  change('POST', '/task/updateLoopItems', handleUpdateLoopItems),
  change('POST', '/task/updateActionProperties', handleUpdateActionProperties),
  change('POST', '/task/copy', handleCopy),
  change('POST', '/task/moveToGroup', handleMove),
  op('GET', '/data/all', handleDataAll),
  op('GET', '/data/lotno/all', handleLotData),
  change('GET', '/data/notexported', handleNotExported),
  change('POST', '/data/markexported', handleMarkExported),
  change('POST', '/data/remove', handleRemove),
  {
    id: 'POST /datahub/v1/data-apps/{app_id}/deprecate',
    method: 'POST',
    // app_id may contain a literal slash (namespace/name) or %2F.
    pattern: /^\/datahub\/v1\/data-apps\/(.+)\/deprecate\/?$/,
    params: ['appId'],
    iface: 'hub',
    handle: handleDeprecate,
    rateKey: mainKey,
    mutates: true,
  },
];

export type Match =
  | { kind: 'route'; route: Route; params: Record<string, string> }
  | { kind: 'error'; id: string; iface: Iface; reply: Reply };

export function matchRoute(method: string, pathname: string): Match {
  const iface: Iface = pathname === DATAHUB_PREFIX || pathname.startsWith(`${DATAHUB_PREFIX}/`) ? 'hub' : 'main';
  const candidates = ROUTES.filter((r) => r.pattern.test(pathname));
  const route = candidates.find((r) => r.method === method);
  if (route) {
    const m = route.pattern.exec(pathname);
    const params: Record<string, string> = {};
    route.params.forEach((name, i) => (params[name] = m?.[i + 1] ?? ''));
    return { kind: 'route', route, params };
  }
  if (candidates.length > 0) {
    const allow = candidates.map((r) => r.method).join(', ');
    const first = candidates[0] as Route;
    return {
      kind: 'error',
      id: 'method-not-allowed',
      iface: first.iface,
      reply: errorReply(first.iface, 'method-not-allowed', `${method} is not allowed here; use ${allow}`, {
        headers: { allow },
      }),
    };
  }
  return {
    kind: 'error',
    id: 'unknown',
    iface,
    reply: errorReply(iface, 'not-found', `No route ${method} ${pathname}`),
  };
}
