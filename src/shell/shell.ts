/**
 * The activation shell: registers every proxy of registrations.ts, and loads main the first time
 * one of them is called (or at once, when `loadNow()` is asked, as tests do). Loading is
 * synchronous and happens once; if main throws, Scrapedeck says so in an error message, the
 * proxies answer with their empty fallbacks (views empty, commands repeating the message), and
 * nothing waits forever.
 */
import * as vscode from 'vscode';

import type { Registrar } from '../platform/registrar';
import type { ShellParts } from './kinds';
import { createRegistrar } from './registrar';
import { REGISTRATIONS } from './registrations';
import { Slot } from './slot';

/** How the shell's own part went, for main to write to the log (the shell has no channel). */
export interface ShellTimings {
  /** activate(): registering every proxy, in ms. */
  readonly activateMs: number;
  /** The proxy whose first call loaded main (e.g. `tree:scrapedeck.tasks`), or 'loadNow'. */
  readonly firstCall: string;
  /** From the end of activate() to that first call, in ms. */
  readonly idleMs: number;
}

/** What src/main.ts exports. */
export interface MainModule<Api> {
  start(context: vscode.ExtensionContext, registrar: Registrar, timings?: ShellTimings): Api;
}

export interface Shell<Api> {
  /** Loads main now if it is not loaded; its start()'s result, or undefined if it failed. */
  loadNow(): Api | undefined;
  readonly state: 'idle' | 'loading' | 'loaded' | 'failed';
}

export function createShell<Api>(
  context: vscode.ExtensionContext,
  loadMain: () => MainModule<Api>,
  entries = REGISTRATIONS,
): Shell<Api> {
  const slots = new Map<string, Slot<object>>();
  const views: ShellParts['views'] = new Map();
  const registrar = createRegistrar(slots, views);
  let state: Shell<Api>['state'] = 'idle';
  let result: Api | undefined;
  let failure = '';
  const activateStart = performance.now();
  let activateEnd = activateStart;

  const complain = (): void => {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('Scrapedeck could not start: {0}. Reloading the window may help.', failure),
    );
  };
  const load = (firstCall: string): void => {
    if (state !== 'idle') return;
    state = 'loading';
    const timings: ShellTimings = {
      activateMs: activateEnd - activateStart,
      firstCall,
      idleMs: performance.now() - activateEnd,
    };
    try {
      result = loadMain().start(context, registrar, timings);
      state = 'loaded';
    } catch (error) {
      state = 'failed';
      failure = error instanceof Error ? error.message : String(error); // not api/errors: the shell bundles nothing of the client
      // The extension host's log keeps the stack for a bug report.
      console.error('Scrapedeck: loading main failed', error);
      complain();
    }
  };

  const parts: ShellParts = {
    slot: <T extends object>(key: string): Slot<T> => {
      const slot = new Slot<T>(key, () => load(key));
      slots.set(key, slot);
      context.subscriptions.push(slot);
      return slot;
    },
    views,
    complain,
    manifest: context.extension.packageJSON,
  };
  for (const entry of entries) context.subscriptions.push(entry(parts));
  activateEnd = performance.now();

  return {
    loadNow: () => {
      load('loadNow');
      return result;
    },
    get state() {
      return state;
    },
  };
}
