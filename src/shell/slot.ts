/**
 * A slot is where a proxy registered at activation finds its real target. Asking a slot for its
 * target loads main first if it has not been loaded (synchronously: main hands every target over
 * while its start() runs), so after `get()` the target is there, or never will be (main failed to
 * load, or no longer provides it), and the proxy answers with its harmless fallback instead of
 * hanging.
 *
 * `forward()` builds such a proxy for any provider interface from a list of its methods (each
 * with the fallback used when there is no target) and its events (relayed from the target once
 * it is set).
 */
import * as vscode from 'vscode';

export class Slot<T extends object> {
  private target: T | undefined;
  private readonly relays: { name: string; emitter: vscode.EventEmitter<unknown>; subscription?: vscode.Disposable }[] =
    [];

  constructor(
    readonly key: string,
    private readonly load: () => void,
  ) {}

  /** The target, loading main first if needed. */
  get(): T | undefined {
    if (this.target === undefined) this.load();
    return this.target;
  }

  /** The target if main is loaded, without loading it. */
  peek(): T | undefined {
    return this.target;
  }

  /** Hands the proxy its target; disposing the result takes it back (and stops relaying its events). */
  set(target: T): vscode.Disposable {
    if (this.target !== undefined) throw new Error(`Scrapedeck: ${this.key} was provided twice`);
    this.target = target;
    const events = target as unknown as Record<string, unknown>;
    for (const relay of this.relays) {
      const event = events[relay.name];
      if (typeof event === 'function')
        relay.subscription = (event as vscode.Event<unknown>)((e) => relay.emitter.fire(e));
    }
    return new vscode.Disposable(() => {
      if (this.target !== target) return;
      this.target = undefined;
      for (const relay of this.relays) relay.subscription?.dispose();
    });
  }

  /** An event of the proxy that fires whenever the target's event of that name fires. */
  relay(name: string): vscode.EventEmitter<unknown> {
    const emitter = new vscode.EventEmitter<unknown>();
    this.relays.push({ name, emitter });
    return emitter;
  }

  dispose(): void {
    for (const relay of this.relays) {
      relay.subscription?.dispose();
      relay.emitter.dispose();
    }
  }
}

type Method = (...args: never[]) => unknown;
type MethodName<T> = { [K in keyof T]-?: NonNullable<T[K]> extends Method ? K : never }[keyof T] & string;

export interface ForwardSpec<T> {
  /** Every method VS Code may call, with what it answers when there is no target (or the target lacks an optional method). */
  readonly methods: {
    readonly [K in MethodName<T>]?: (...args: Parameters<Extract<NonNullable<T[K]>, Method>>) => unknown;
  };
  /** Events VS Code subscribes to at registration. */
  readonly events?: readonly (keyof T & string)[];
  /** Plain values VS Code reads at registration (e.g. a drag-and-drop controller's MIME types). */
  readonly values?: Partial<T>;
}

/** A stand-in for the slot's target: the same methods and events, each delegating to the target. */
export function forward<T extends object>(slot: Slot<T>, spec: ForwardSpec<T>): T {
  const proxy: Record<string, unknown> = { ...spec.values };
  for (const [name, fallback] of Object.entries(spec.methods) as [string, (...args: unknown[]) => unknown][]) {
    proxy[name] = (...args: unknown[]): unknown => {
      const target = slot.get() as Record<string, unknown> | undefined;
      const method = target?.[name];
      return typeof method === 'function'
        ? (method as (...a: unknown[]) => unknown).apply(target, args)
        : fallback(...args);
    };
  }
  for (const name of spec.events ?? []) proxy[name] = slot.relay(name).event;
  return proxy as T;
}
