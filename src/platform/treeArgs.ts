/**
 * Arguments of the Tasks view's commands. Menus pass tree nodes, other callers plain objects:
 * parsed with zod, never trusted.
 */
import * as z from 'zod';

export const groupArgSchema = z.union([
  z.object({ group: z.object({ taskGroupId: z.string(), taskGroupName: z.string() }) }).transform((n) => n.group),
  z.object({ taskGroupId: z.string(), taskGroupName: z.string() }),
]);

export const taskArgSchema = z
  .object({ task: z.object({ taskId: z.string(), taskName: z.string() }) })
  .transform((n) => n.task);
