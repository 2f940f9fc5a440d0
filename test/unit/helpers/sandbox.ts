/**
 * Starts a sandbox on an ephemeral port and talks to it over real HTTP. Every reply goes through
 * `checkShape`: its requestId (body and x-request-id) and the shared schema of its route and
 * status, so each test also proves that "every response parses with the shared schemas".
 */
import * as assert from 'node:assert/strict';

import type { z } from 'zod';

import { dataPageResponseSchema, notExportedResponseSchema } from '../../../src/api/schemas/dataSchemas';
import { nullDataResponseSchema, serviceErrorSchema } from '../../../src/api/schemas/opsSchemas';
import {
  subtaskStatusResponseSchema,
  taskStatusV1ResponseSchema,
  taskStatusV2ResponseSchema,
} from '../../../src/api/schemas/runSchemas';
import {
  analyticsErrorSchema,
  analyticsResponseSchema,
  deprecateResponseSchema,
  hubErrorSchema,
  taskGroupListResponseSchema,
  taskSearchResponseSchema,
  tokenErrorSchema,
  tokenResponseSchema,
} from '../../../src/api/schemas/schemas';
import {
  copiedTaskResponseSchema,
  moveResultResponseSchema,
  taskActionsResponseSchema,
  updateResultResponseSchema,
} from '../../../src/api/schemas/taskOpsSchemas';
import { type SandboxAccount, sandboxInfoSchema } from '../../../src/sandbox/seed/info';
import { type RunningSandbox, type SandboxOptions, startSandbox } from '../../../src/sandbox/server';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body (undefined when the body is not JSON). */
  json: Record<string, unknown> | undefined;
  ms: number;
}

export interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Sent as JSON unless it is already a string. */
  body?: unknown;
  /** Skip the shape check (fault tests expect non-JSON bodies). */
  raw?: boolean;
}

/** The runs, data and task-parameter operations (more-endpoints.md): success schema by path. */
const OPS_SUCCESS: [string, z.ZodType][] = [
  ['/cloudextraction/statuses/v2', taskStatusV2ResponseSchema],
  ['/cloudextraction/statuses', taskStatusV1ResponseSchema],
  ['/cloudextraction/task/subtasks', subtaskStatusResponseSchema],
  ['/cloudextraction/', nullDataResponseSchema],
  ['/task/getActions', taskActionsResponseSchema],
  ['/task/updateLoopItems', updateResultResponseSchema],
  ['/task/updateActionProperties', updateResultResponseSchema],
  ['/task/copy', copiedTaskResponseSchema],
  ['/task/moveToGroup', moveResultResponseSchema],
  ['/data/all', dataPageResponseSchema],
  ['/data/lotno/all', dataPageResponseSchema],
  ['/data/notexported', notExportedResponseSchema],
  ['/data/', nullDataResponseSchema],
];

export function isOpsPath(path: string): boolean {
  return OPS_SUCCESS.some(([prefix]) => path.startsWith(prefix));
}

function successSchema(path: string): z.ZodType | undefined {
  const op = OPS_SUCCESS.find(([prefix]) => path.startsWith(prefix));
  if (op) return op[1];
  if (path.startsWith('/token')) return tokenResponseSchema;
  if (path.startsWith('/taskGroup')) return taskGroupListResponseSchema;
  if (path.startsWith('/task/search')) return taskSearchResponseSchema;
  if (path.startsWith('/taskanalytics/queries')) return analyticsResponseSchema;
  if (path.startsWith('/datahub/')) return deprecateResponseSchema;
  if (path.startsWith('/__sandbox')) return sandboxInfoSchema;
  return undefined;
}

function errorSchema(path: string): z.ZodType {
  if (isOpsPath(path) || path.startsWith('/taskGroup') || path.startsWith('/task/search')) return serviceErrorSchema;
  if (path.startsWith('/token')) return tokenErrorSchema;
  if (path.startsWith('/datahub')) return hubErrorSchema;
  return analyticsErrorSchema;
}

export function checkShape(path: string, r: Reply): void {
  const headerId = r.headers.get('x-request-id');
  assert.ok(headerId, `x-request-id header on ${path}`);
  assert.ok(r.json, `JSON body on ${path} (got ${r.text.slice(0, 80)})`);
  assert.equal(r.json.requestId, headerId, `body requestId equals x-request-id on ${path}`);
  const schema = r.status === 200 ? successSchema(path) : errorSchema(path);
  assert.ok(schema, `a schema for ${r.status} ${path}`);
  const parsed = schema.safeParse(r.json);
  assert.ok(
    parsed.success,
    `${r.status} ${path} parses with the shared schema: ${parsed.success ? '' : parsed.error.message}`,
  );
}

export class TestSandbox {
  private constructor(readonly sandbox: RunningSandbox) {}

  static async start(options: SandboxOptions = {}): Promise<TestSandbox> {
    return new TestSandbox(await startSandbox({ rateLimit: 0, ...options }));
  }

  get info() {
    return this.sandbox.info;
  }
  get stats() {
    return this.sandbox.stats;
  }
  account(plan: SandboxAccount['plan']): SandboxAccount {
    const a = this.info.accounts.find((x) => x.plan === plan);
    assert.ok(a, `a ${plan} account`);
    return a;
  }
  user(username: string): SandboxAccount {
    const a = this.info.accounts.find((x) => x.username === username);
    assert.ok(a, `account ${username}`);
    return a;
  }

  async call(path: string, options: CallOptions = {}): Promise<Reply> {
    const started = performance.now();
    const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${this.info.baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    let json: Record<string, unknown> | undefined;
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json = undefined;
    }
    const reply: Reply = { status: res.status, headers: res.headers, text, json, ms: performance.now() - started };
    if (!options.raw) checkShape(path, reply);
    return reply;
  }

  /** POST /taskanalytics/queries with an API key. */
  analytics(apiKey: string, body: unknown): Promise<Reply> {
    return this.call('/taskanalytics/queries', { headers: { 'x-api-key': apiKey }, body });
  }

  async token(body: unknown): Promise<Reply> {
    return this.call('/token', { body });
  }

  close(): Promise<void> {
    return this.sandbox.close();
  }
}

/** `error.code` of an error reply. */
export function codeOf(r: Reply): unknown {
  return (r.json?.error as { code?: unknown } | undefined)?.code;
}
export function messageOf(r: Reply): string {
  return String((r.json?.error as { message?: unknown } | undefined)?.message ?? '');
}
export function dataOf<T>(r: Reply): T {
  return r.json?.data as T;
}

/** A clock tests can move. */
export class FakeClock {
  constructor(public ms: number) {}
  readonly now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}
