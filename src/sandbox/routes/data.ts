/**
 * Data: all rows by offset, one run's rows by lot number, rows not yet exported, mark exported,
 * remove. Standard, Professional and Enterprise. Offsets are row numbers in the task's own
 * numbering (see runtime.ts): the returned `offset` is where the next page starts.
 */
import type * as z from 'zod';

import { dataQuerySchema, lotDataQuerySchema, notExportedQuerySchema } from '../../api/schemas/dataSchemas';
import { SERVICE_CODES } from '../../api/schemas/opsSchemas';
import { taskIdBodySchema } from '../../api/schemas/runSchemas';
import { ok, type Reply } from '../http/respond';
import type { SeedTask } from '../seed/seed';
import type { Slice } from '../state/runtime';
import type { RouteRequest, SandboxState } from '../state/state';
import { authorize, body, check, opsError, type Outcome, ownTask, queryOf } from './opsCommon';

function page(state: SandboxState, task: SeedTask, window: Slice, offset: number, size: number): Reply {
  const from = Math.min(Math.max(offset, window.from), window.to);
  const to = Math.min(from + size, window.to);
  return ok({
    offset: to,
    total: window.to - window.from,
    restTotal: window.to - to,
    data: state.ops.runs.rows(task).rows(from, to),
  });
}

/** Authorised, parameters checked, the caller's task found: in that order, as every route answers. */
function queried<S extends z.ZodType<{ taskId: string }>>(
  req: RouteRequest,
  state: SandboxState,
  operation: string,
  schema: S,
  input: unknown,
): Outcome<{ task: SeedTask; q: z.output<S> }> {
  const account = authorize(req, state, 'data', operation);
  if (!account.ok) return account;
  const q = check(schema, input);
  if (!q.ok) return q;
  const task = ownTask(state, account.value, q.value.taskId);
  return task.ok ? { ok: true, value: { task: task.value, q: q.value } } : task;
}

export function handleDataAll(req: RouteRequest, state: SandboxState): Reply {
  const r = queried(req, state, 'Get Data by Offset', dataQuerySchema, {
    offset: 0,
    ...queryOf(req, { taskId: 'text', offset: 'int', size: 'int' }),
  });
  if (!r.ok) return r.reply;
  const { task, q } = r.value;
  const rt = state.ops.runs.of(task);
  return page(state, task, { from: rt.visibleStart, to: rt.rowCount(state.now()) }, q.offset, q.size);
}

export function handleLotData(req: RouteRequest, state: SandboxState): Reply {
  const raw = queryOf(req, { taskId: 'text', lotno: 'text', offset: 'int', size: 'int' });
  const r = queried(req, state, 'Get Data From a Designated Batch', lotDataQuerySchema, {
    offset: 0,
    ...raw,
    lotNo: raw.lotno,
  });
  if (!r.ok) return r.reply;
  const { task, q } = r.value;
  const lot = state.ops.runs.of(task).lot(q.lotNo, state.now());
  if (!lot)
    return opsError('not-found', SERVICE_CODES.invalidLotNo, `lotno: task "${task.taskName}" has no run "${q.lotNo}"`);
  return page(state, task, lot, q.offset, q.size);
}

export function handleNotExported(req: RouteRequest, state: SandboxState): Reply {
  const r = queried(
    req,
    state,
    'Get Non-Exported Data',
    notExportedQuerySchema,
    queryOf(req, { taskId: 'text', size: 'int' }),
  );
  if (!r.ok) return r.reply;
  const { task, q } = r.value;
  const { slice, total } = state.ops.runs.of(task).handOut(q.size, state.now());
  return ok({ total, current: slice.to - slice.from, data: state.ops.runs.rows(task).rows(slice.from, slice.to) });
}

export function handleMarkExported(req: RouteRequest, state: SandboxState): Reply {
  const task = bodyTask(req, state, 'Mark Data as Exported');
  if (!task.ok) return task.reply;
  state.ops.runs.of(task.value).markExported();
  return ok(null);
}

export function handleRemove(req: RouteRequest, state: SandboxState): Reply {
  const task = bodyTask(req, state, 'Remove Data');
  if (!task.ok) return task.reply;
  state.ops.runs.of(task.value).remove(state.now());
  return ok(null);
}

function bodyTask(req: RouteRequest, state: SandboxState, operation: string): Outcome<SeedTask> {
  const account = authorize(req, state, 'data', operation);
  if (!account.ok) return account;
  const b = body(req, taskIdBodySchema);
  if (!b.ok) return b;
  return ownTask(state, account.value, b.value.taskId);
}
