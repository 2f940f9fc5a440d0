/**
 * What the runs, data and task-parameter routes share: authentication, the plan table, the
 * string-coded error envelope of these operations, and reading bodies and query parameters with
 * the client's own schemas.
 */
import type * as z from 'zod';

import { SERVICE_CODES } from '../../api/schemas/opsSchemas';
import { type ErrorKind, errorReply, type Reply } from '../http/respond';
import type { Plan } from '../seed/info';
import type { SeedAccount, SeedTask } from '../seed/seed';
import { authenticateMain } from '../state/auth';
import { parseJson, type RouteRequest, type SandboxState } from '../state/state';

/** Which plans an operation family needs (spec: "Other operations", more-endpoints.md "Plans"). */
export type Need = 'cloud' | 'params' | 'data' | 'organise';

const PRO: readonly Plan[] = ['Professional', 'Enterprise'];
const STANDARD: readonly Plan[] = ['Standard', 'Professional', 'Enterprise'];
const NEEDS: Record<Need, { plans: readonly Plan[]; label: string }> = {
  cloud: { plans: PRO, label: 'a Professional or Enterprise plan' },
  params: { plans: PRO, label: 'a Professional or Enterprise plan' },
  data: { plans: STANDARD, label: 'a Standard, Professional or Enterprise plan' },
  organise: { plans: STANDARD, label: 'a Standard, Professional or Enterprise plan' },
};

/** An error of these operations: `{ error: { code: <string>, message }, requestId }`. */
export function opsError(kind: ErrorKind, code: string, message: string): Reply {
  return errorReply('main', kind, message, { mainCode: code });
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; reply: Reply };

/** Authenticates (integer-coded 401s, as the other routes), then checks the plan (403 `Forbidden.Plan`). */
export function authorize(req: RouteRequest, state: SandboxState, need: Need, operation: string): Outcome<SeedAccount> {
  const auth = authenticateMain(req.headers, state.world, state.tokens);
  if (!auth.ok) return auth;
  const { plans, label } = NEEDS[need];
  if (!plans.includes(auth.account.plan)) {
    return {
      ok: false,
      reply: opsError(
        'forbidden',
        SERVICE_CODES.plan,
        `${operation} requires ${label}; this account is on the ${auth.account.plan} plan.`,
      ),
    };
  }
  return { ok: true, value: auth.account };
}

/** A value checked with a schema; a problem is a 400 naming the field (`InvalidParameter.Required` when it is missing). */
export function check<S extends z.ZodType>(schema: S, input: unknown): Outcome<z.output<S>> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  const path = issue?.path ?? [];
  const field = path.length > 0 ? path.map(String).join('.') : 'body';
  const missing = path.length > 0 && valueAt(input, path) === undefined;
  const code = missing ? SERVICE_CODES.required : SERVICE_CODES.invalidParameter;
  return {
    ok: false,
    reply: opsError('bad-request', code, `${field}: ${missing ? 'is required' : (issue?.message ?? 'is invalid')}`),
  };
}

export function body<S extends z.ZodType>(req: RouteRequest, schema: S): Outcome<z.output<S>> {
  const json = parseJson(req.body === '' ? '{}' : req.body);
  if (!json.ok)
    return { ok: false, reply: opsError('bad-request', SERVICE_CODES.invalidParameter, 'body: not valid JSON') };
  return check(schema, json.value);
}

/**
 * Query parameters as an object for a schema: whole numbers become numbers (anything else stays
 * text and fails the schema), absent ones are left out.
 */
export function queryOf(req: RouteRequest, names: Record<string, 'text' | 'int'>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [name, type] of Object.entries(names)) {
    const raw = req.url.searchParams.get(name);
    if (raw === null) continue;
    out[name] = type === 'int' && /^-?\d{1,15}$/.test(raw.trim()) ? Number(raw) : raw;
  }
  return out;
}

/** The caller's task, or 404 `InvalidTaskId` (another account's task is as unknown as a made-up id). */
export function ownTask(state: SandboxState, account: SeedAccount, taskId: string): Outcome<SeedTask> {
  const task = state.ops.tasks.task(account, taskId);
  return task
    ? { ok: true, value: task }
    : {
        ok: false,
        reply: opsError('not-found', SERVICE_CODES.invalidTaskId, `taskId: no task "${taskId}" in this account`),
      };
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = input;
  for (const key of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}
