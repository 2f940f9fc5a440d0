/**
 * VS Code's globalState as the extension host keeps it (ExtHostMemento with MainThreadStorage, checked
 * against code-server 4.x's bundle): one object for the whole extension, changed in place by update()
 * and sent whole by a flush a task later; the workbench stores it and sends the stored object back
 * (before its answer to the flush), which replaces the extension host's object.
 */
import type { GlobalMemento } from '../../src/platform/state/orderedMemento';

/** The extension host's event loop: each task in its own turn, promises settle in between. */
export class Loop {
  private readonly tasks: (() => void)[] = [];
  private running = false;
  post(task: () => void): void {
    this.tasks.push(task);
    if (this.running) return;
    this.running = true;
    setImmediate(() => this.next());
  }
  private next(): void {
    const task = this.tasks.shift();
    if (task === undefined) {
      this.running = false;
      return;
    }
    task();
    setImmediate(() => this.next());
  }
  /** Resolves once every task posted so far, and those they post, have run. */
  async drain(): Promise<void> {
    while (this.running) await new Promise((r) => setImmediate(r));
  }
}

/** globalState as VS Code 1.9x's extension host keeps it (ExtHostMemento and MainThreadStorage). */
export class EchoingMemento implements GlobalMemento {
  private local: Record<string, unknown>;
  /** What the workbench stored: what the next start reads. */
  stored: Record<string, unknown>;
  private waiting: (() => void)[] = [];
  private scheduled = false;
  /** Called when the workbench has stored a flush (its echo and answer are on their way). */
  onStored: (() => void) | undefined;
  constructor(
    private readonly loop: Loop,
    initial: Record<string, unknown> = {},
  ) {
    this.local = { ...initial };
    this.stored = { ...initial };
  }
  keys(): readonly string[] {
    return Object.keys(this.local);
  }
  get<T>(key: string): T | undefined;
  get<T>(key: string, defaultValue: T): T;
  get<T>(key: string, defaultValue?: T): T | undefined {
    const value = this.local[key] as T | undefined;
    return value === undefined ? defaultValue : value;
  }
  setKeysForSync(keys: readonly string[]): void {
    this.keysForSync = [...keys];
  }
  keysForSync: string[] = [];
  update(key: string, value: unknown): Promise<void> {
    if (value === undefined) delete this.local[key];
    else this.local[key] = JSON.parse(JSON.stringify(value)) as unknown;
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (this.scheduled) return;
      this.scheduled = true;
      this.loop.post(() => this.flush());
    });
  }
  private flush(): void {
    this.scheduled = false;
    const sent = JSON.stringify(this.local);
    const answered = this.waiting.splice(0);
    this.loop.post(() => {
      this.stored = JSON.parse(sent) as Record<string, unknown>;
      // The storage change event comes back before the answer to the flush.
      this.loop.post(() => (this.local = JSON.parse(sent) as Record<string, unknown>));
      this.loop.post(() => answered.forEach((done) => done()));
      this.onStored?.();
    });
  }
}
