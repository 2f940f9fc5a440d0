/**
 * A small event emitter shaped like `vscode.EventEmitter`, without `vscode`: the account's vault
 * and client holder use it so they run (and are unit-tested) in plain Node. Its `event` fits
 * wherever a `vscode.Event<T>` is expected.
 */

export interface Disposable {
  dispose(): void;
}

/** Structurally the same as `vscode.Event<T>`. */
export type Event<T> = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: Disposable[]) => Disposable;

export class Emitter<T> implements Disposable {
  private listeners: ((e: T) => unknown)[] = [];
  private disposed = false;

  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    const bound = thisArgs === undefined ? listener : listener.bind(thisArgs);
    if (!this.disposed) this.listeners.push(bound);
    const subscription = {
      dispose: () => {
        this.listeners = this.listeners.filter((l) => l !== bound);
      },
    };
    disposables?.push(subscription);
    return subscription;
  };

  fire(value: T): void {
    // A listener that throws must not keep the others from hearing the event.
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (e) {
        console.error('Scrapedeck: an event listener failed', e);
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}
