/**
 * What a running sandbox tells the world about itself: `GET /__sandbox`, the `--json` line and
 * `RunningSandbox.info`. A zod schema so harnesses and "Try the sandbox" can recognise one.
 */
import * as z from 'zod';

export const PLANS = ['Free', 'Standard', 'Professional', 'Enterprise'] as const;
export const planSchema = z.enum(PLANS);
export type Plan = z.infer<typeof planSchema>;

export const sandboxAccountSchema = z.object({
  username: z.string().min(1),
  password: z.string().min(1),
  apiKey: z.string().min(1),
  plan: planSchema,
  /** Member names of the account's team, the account itself included. */
  team: z.array(z.string()),
  /** Apps the account authors, as `namespace/name`. */
  apps: z.array(z.string()),
});
export type SandboxAccount = z.infer<typeof sandboxAccountSchema>;

export const sandboxInfoSchema = z.object({
  baseUrl: z.string().url(),
  datahubUrl: z.string().url(),
  accounts: z.array(sandboxAccountSchema).min(1),
});
export type SandboxInfo = z.infer<typeof sandboxInfoSchema>;
