/**
 * Task parameters and organisation: actions and their loop items, action properties, duplicate
 * and move. Field names are the spec's; values the service may leave out become null, never a
 * made-up default.
 */
import * as z from 'zod';

import { listOf, taskIdListSchema, taskIdSchema } from './opsSchemas';
import { envelope, idSchema, nullableString } from './schemas';

const loopItemSchema = z.union([z.string(), z.number()]).transform((v) => String(v));

export const taskActionSchema = z.object({
  actionType: z.string(),
  actionId: idSchema,
  name: nullableString,
  loopType: nullableString,
  /** null when the action has no list (not a loop, or the service left it out). */
  loopItems: z
    .array(loopItemSchema)
    .nullish()
    .transform((v) => v ?? null),
});
export type TaskAction = z.infer<typeof taskActionSchema>;

export const taskActionsSchema = z.object({
  taskId: idSchema,
  actions: listOf(taskActionSchema),
});
export type TaskActions = z.infer<typeof taskActionsSchema>;
export const taskActionsResponseSchema = envelope(listOf(taskActionsSchema));

/** `{ message: "success" }`; the message is kept as sent (null if absent). */
export const updateResultSchema = z
  .object({ message: nullableString })
  .nullish()
  .transform((v) => ({ message: v?.message ?? null }));
export type UpdateResult = z.infer<typeof updateResultSchema>;
export const updateResultResponseSchema = envelope(updateResultSchema);

export const copiedTaskSchema = z.object({ taskId: idSchema, taskName: z.string() });
export type CopiedTask = z.infer<typeof copiedTaskSchema>;
export const copiedTaskResponseSchema = envelope(copiedTaskSchema);

export const moveResultSchema = z.object({ moved: z.boolean() });
export type MoveResult = z.infer<typeof moveResultSchema>;
export const moveResultResponseSchema = envelope(moveResultSchema);

// ---- requests -------------------------------------------------------------------------------

/** `actionType` values seen: `LoopAction`. */
export const getActionsBodySchema = z.object({
  taskIds: taskIdListSchema,
  actionTypes: z.array(z.string().trim().min(1, 'an action type is required')),
});

export const updateLoopItemsBodySchema = z.object({
  taskId: taskIdSchema,
  actionId: z.string().trim().min(1, 'an action id is required'),
  /** Values seen: `URLList`, `TextList`. */
  loopType: z.string().trim().min(1, 'a loop type is required'),
  loopItems: z.array(z.string()),
  isAppend: z.boolean(),
});
export type UpdateLoopItems = z.infer<typeof updateLoopItemsBodySchema>;

export const actionPropertySchema = z.object({
  name: z.string().trim().min(1, 'a property name is required'),
  value: z.union([z.string(), z.number(), z.boolean()]),
});
export const actionPropertiesSchema = z.object({
  actionType: z.string().trim().min(1, 'an action type is required'),
  actionId: z.string().trim().min(1, 'an action id is required'),
  properties: z.array(actionPropertySchema).min(1, 'at least one property is required'),
});
export type ActionProperties = z.infer<typeof actionPropertiesSchema>;
export const updateActionPropertiesBodySchema = z.object({
  taskId: taskIdSchema,
  actions: z.array(actionPropertiesSchema).min(1, 'at least one action is required'),
});

export const taskGroupIdSchema = z.string().trim().min(1, 'a task group id is required').max(128);
