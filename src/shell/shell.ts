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

/** What src/main.ts exports. */
export interface MainModule<Api> {
  start(context: vscode.ExtensionContext, registrar: Registrar): Api;
}

export interface Shell<Api> {
  /** Loads main now if it is not loaded; its start()'s result, or undefined if it failed. */
  loadNow(): Api | undefined;
  readonly state: 'idle' | 'loading' | 'loaded' | 'failed';
}

export function createShell<Api>(context: vscode.ExtensionContext, loadMain: () => MainModule<Api>, entries = REGISTRATIONS): Shell<Api> {
  const slots = new Map<string, Slot<object>>();
  const views: ShellParts['views'] = new Map();
  const registrar = createRegistrar(slots, views);
  let state: Shell<Api>['state'] = 'idle';
  let result: Api | undefined;
  let failure = '';

  const complain = (): void => {
    void vscode.window.showErrorMessage(vscode.l10n.t('Scrapedeck could not start: {0}. Reloading the window may help.', failure));
  };
  const load = (): void => {
    if (state !== 'idle') return;
    state = 'loading';
    try {
      result = loadMain().start(context, registrar);
      state = 'loaded';
    } catch (error) {
      state = 'failed';
      failure = error instanceof Error ? error.message : String(error);
      // The extension host's log keeps the stack for a bug report.
      console.error('Scrapedeck: loading main failed', error);
      complain();
    }
  };

  const parts: ShellParts = {
    slot: <T extends object>(key: string): Slot<T> => {
      const slot = new Slot<T>(key, load);
      slots.set(key, slot);
      context.subscriptions.push(slot);
      return slot;
    },
    views,
    complain,
    manifest: context.extension.packageJSON,
  };
  for (const entry of entries) context.subscriptions.push(entry(parts));

  return {
    loadNow: () => {
      load();
      return result;
    },
    get state() {
      return state;
    },
  };
}
