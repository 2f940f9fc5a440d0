/**
 * globalState with its writes in order. VS Code's extension host keeps an extension's globalState as
 * one object: update() changes it in place, a flush a moment later sends it whole to the workbench,
 * and the workbench sends the stored object back, which replaces the extension host's object. The
 * echo of a flush is sent before the flush's answer, so it has arrived when update()'s promise
 * resolves; an update made while another flush is on its way is lost when that echo lands. So each
 * write waits for the one before it; until it runs, get() and keys() answer from the pending values.
 * Applied once, in main.ts, to the context every capability is given.
 */
import type * as vscode from 'vscode';

/** What an extension's globalState offers (`vscode.Memento` with `setKeysForSync`). */
export interface GlobalMemento {
  keys(): readonly string[];
  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): Thenable<void>;
  setKeysForSync(keys: readonly string[]): void;
}

export class OrderedMemento implements GlobalMemento {
  /** The value each key will have once its last queued write has run (undefined: removed). */
  private readonly pending = new Map<string, { value: unknown; write: number }>();
  private tail: Promise<void> = Promise.resolve();
  private writes = 0;

  constructor(private readonly inner: GlobalMemento) {}

  keys(): readonly string[] {
    const keys = new Set(this.inner.keys());
    for (const [key, { value }] of this.pending) {
      if (value === undefined) keys.delete(key);
      else keys.add(key);
    }
    return [...keys];
  }

  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  get<T>(key: string, defaultValue?: T): T | undefined {
    const queued = this.pending.get(key);
    if (queued === undefined) {
      const stored = this.inner.get<T>(key);
      return stored === undefined ? defaultValue : stored;
    }
    return queued.value === undefined ? defaultValue : (queued.value as T);
  }

  update(key: string, value: unknown): Promise<void> {
    const write = ++this.writes;
    this.pending.set(key, { value, write });
    const done = this.tail.then(() => this.inner.update(key, value));
    // One write's failure is its caller's to see; the next write runs all the same.
    this.tail = done.then(
      () => undefined,
      () => undefined,
    );
    const settled = () => {
      if (this.pending.get(key)?.write === write) this.pending.delete(key);
    };
    return done.then(settled, (error: unknown) => {
      settled();
      throw error;
    });
  }

  setKeysForSync(keys: readonly string[]): void {
    this.inner.setKeysForSync(keys);
  }
}

/**
 * The same context with its globalState ordered. The context VS Code gives is frozen, so the copy
 * inherits from it (every other member, subscriptions included, is the original's).
 */
export function withOrderedGlobalState(context: vscode.ExtensionContext): vscode.ExtensionContext {
  const globalState = new OrderedMemento(context.globalState);
  return Object.create(context, { globalState: { value: globalState, enumerable: true } }) as vscode.ExtensionContext;
}
