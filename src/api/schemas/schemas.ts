/**
 * zod schemas of every request body, resource, envelope and error shape in the spec
 * (shared/spec/interface.md). Written once; the client parses responses with them and the
 * sandbox builds its replies to them, so the two cannot drift. Unknown extra fields are
 * tolerated (zod strips them); nullable metrics stay null, never 0.
 */
import * as z from 'zod';

import { analyticsPageSchema } from './analyticsSchemas';
import { headerValueProblem } from './headerValues';

// ---- building blocks -------------------------------------------------------------------------

/** Ids arrive as strings; tolerate numbers and normalise to string. */
export const idSchema = z.union([z.string().min(1), z.number().int()]).transform((v) => String(v));

export const nullableString = z
  .string()
  .nullish()
  .transform((v) => v ?? null);

export const requestIdSchema = z.string().min(1);

/** The success envelope: `{ data, requestId }`. */
export function envelope<T extends z.core.$ZodType>(data: T) {
  return z.object({ data, requestId: requestIdSchema });
}

// ---- tokens ----------------------------------------------------------------------------------

export const passwordGrantRequestSchema = z.object({
  username: z.string().min(1, 'username is required'),
  password: z.string().min(1, 'password is required'),
  grant_type: z.literal('password'),
});
export type PasswordGrantRequest = z.infer<typeof passwordGrantRequestSchema>;

export const refreshGrantRequestSchema = z.object({
  refresh_token: z.string().min(1, 'refresh_token is required'),
  grant_type: z.literal('refresh_token'),
});
export type RefreshGrantRequest = z.infer<typeof refreshGrantRequestSchema>;

export const tokenRequestSchema = z.discriminatedUnion('grant_type', [
  passwordGrantRequestSchema,
  refreshGrantRequestSchema,
]);
export type TokenRequest = z.infer<typeof tokenRequestSchema>;

/** `expires_in` appears as a numeric string in one place and as an integer in another. */
export const expiresInSchema = z
  .union([z.number().int().nonnegative(), z.string().regex(/^\d+$/, 'must be a whole number of seconds')])
  .transform((v) => Number(v));

/** A token the service hands out is sent back as a header: one the header layer would refuse is refused here. */
const headerSafeToken = z
  .string()
  .min(1)
  .refine((v) => headerValueProblem(v, 'The token') === undefined, {
    message: 'contains a character that cannot be sent in an HTTP header',
  });

export const tokenDataSchema = z.object({
  access_token: headerSafeToken,
  expires_in: expiresInSchema,
  token_type: z.string().min(1),
  refresh_token: headerSafeToken,
});
export type TokenData = z.infer<typeof tokenDataSchema>;
export const tokenResponseSchema = envelope(tokenDataSchema);

// ---- task groups and tasks (only the fields the extension shows) ----------------------------

export const taskGroupSchema = z.object({
  taskGroupId: idSchema,
  taskGroupName: z.string(),
});
export type TaskGroup = z.infer<typeof taskGroupSchema>;
export const taskGroupListResponseSchema = envelope(z.array(taskGroupSchema));

export const taskSchema = z.object({
  taskId: idSchema,
  taskName: z.string(),
});
export type Task = z.infer<typeof taskSchema>;
export const taskSearchResponseSchema = envelope(z.array(taskSchema));

// ---- task analytics (analyticsSchemas.ts, shared with the analytics page) ---------------------

export * from './analyticsSchemas';
export const analyticsResponseSchema = envelope(analyticsPageSchema);

// ---- data-app hub ----------------------------------------------------------------------------

/**
 * `namespace/name`: two non-empty parts without further slashes or white space, neither of them
 * `.` or `..` (a URL would resolve those to another hub path, carrying the API key there).
 */
export const APP_REF_RE = /^(?!\.\.?\/)[^\s/]+\/(?!\.\.?$)[^\s/]+$/;
/** Real references are a few dozen characters; a longer one is refused before anything is sent or shown. */
export const APP_REF_MAX = 200;
export const appRefSchema = z
  .string()
  .trim()
  .max(APP_REF_MAX, `an app reference has at most ${APP_REF_MAX} characters`)
  .regex(APP_REF_RE, 'an app reference is namespace/name, e.g. acme/price-tracker');
export type AppRef = z.infer<typeof appRefSchema>;

export const deprecatedAppSchema = z.object({
  app_name: z.string(),
  namespace: z
    .string()
    .nullish()
    .transform((v) => v ?? undefined),
  version: z
    .string()
    .nullish()
    .transform((v) => v ?? undefined),
  status: z.string(),
  missing_secrets: z
    .array(z.string())
    .nullish()
    .transform((v) => v ?? undefined),
});
export type DeprecatedApp = z.infer<typeof deprecatedAppSchema>;
/** The hub's success shape is `{ data }`; a `requestId` is kept when present. */
export const deprecateResponseSchema = z.object({
  data: deprecatedAppSchema,
  requestId: requestIdSchema.optional(),
});

// ---- errors ----------------------------------------------------------------------------------

/** Token operations: `{ error: { code: string, message }, requestId }`. */
export const tokenErrorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
  requestId: requestIdSchema,
});
export type TokenErrorBody = z.infer<typeof tokenErrorSchema>;

/** Task analytics (HTTP 400, and the main interface generally): `{ error: { code: integer, message }, requestId }`. */
export const analyticsErrorSchema = z.object({
  error: z.object({ code: z.number().int(), message: z.string() }),
  requestId: requestIdSchema,
});
export type AnalyticsErrorBody = z.infer<typeof analyticsErrorSchema>;

/** Data-app hub: `{ error: { code, category, message, retryable } }`. */
export const hubErrorSchema = z.object({
  error: z.object({
    code: z.union([z.string(), z.number()]),
    category: z.string(),
    message: z.string(),
    retryable: z.boolean(),
  }),
  requestId: requestIdSchema.optional(),
});
export type HubErrorBody = z.infer<typeof hubErrorSchema>;

/** Any of the three error shapes, loosely: what a client needs to build one error from a reply. */
export const anyErrorSchema = z.object({
  error: z.object({
    code: z.union([z.string(), z.number()]).optional(),
    category: z.string().optional(),
    message: z.string().optional(),
    retryable: z.boolean().optional(),
  }),
  requestId: z.string().optional(),
  /** Agent-workflow guidance, honoured where the server sends it. */
  retryGuidance: z.unknown().optional(),
});
export type AnyErrorBody = z.infer<typeof anyErrorSchema>;
