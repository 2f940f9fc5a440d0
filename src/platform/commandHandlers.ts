/**
 * How a capability registers its commands: a `Handlers<K>` object for its own ids of
 * `commandIds.ts`, given to `registerHandlers` in its `createX`. Each returns its `CommandSet`, and
 * main.ts hands them all to `everyCommand`, whose type refuses a command id without a handler.
 */
import type * as vscode from 'vscode';

import { type CommandKey, COMMANDS } from './commandIds';
import type { Registrar } from './registrar';

/** A command's handler: arguments come from menus, links, the palette or other extensions, so they are `unknown` and parsed. */
export type Handler = (...args: unknown[]) => unknown;

export type Handlers<K extends CommandKey> = { readonly [P in K]: Handler };

/**
 * A capability's handlers, its command keys inferred from the object (written once, where each
 * handler is): `keyof ReturnType<typeof xCommands>` then names them for its `CommandSet`.
 */
export function defineHandlers<K extends CommandKey>(handlers: Handlers<K>): Handlers<K> {
  return handlers;
}

/** The ids one capability registered (for the completeness check; carries no handler). */
export interface CommandSet<K extends CommandKey> {
  readonly keys: readonly K[];
}

/** Registers each handler through the shell's registrar; the registrations go into `context.subscriptions`. */
export function registerHandlers<K extends CommandKey>(
  context: Pick<vscode.ExtensionContext, 'subscriptions'>,
  registrar: Pick<Registrar, 'registerCommand'>,
  handlers: Handlers<K>,
): CommandSet<K> {
  const keys = Object.keys(handlers) as K[];
  for (const key of keys) context.subscriptions.push(registrar.registerCommand(COMMANDS[key], handlers[key]));
  return { keys };
}

type KeysOf<T extends readonly CommandSet<CommandKey>[]> = T[number] extends infer S
  ? S extends CommandSet<infer K>
    ? K
    : never
  : never;

/**
 * `true` when the sets cover every command id; otherwise its type names the ids without a handler,
 * so `const complete: true = everyCommand(…)` does not compile.
 */
export function everyCommand<T extends readonly CommandSet<CommandKey>[]>(
  ...sets: T
): [Exclude<CommandKey, KeysOf<T>>] extends [never] ? true : { missing: Exclude<CommandKey, KeysOf<T>> } {
  const seen = new Set<CommandKey>(sets.flatMap((s) => s.keys));
  const missing = (Object.keys(COMMANDS) as CommandKey[]).filter((k) => !seen.has(k));
  return (missing.length === 0 ? true : { missing }) as [Exclude<CommandKey, KeysOf<T>>] extends [never]
    ? true
    : { missing: Exclude<CommandKey, KeysOf<T>> };
}
