/** A manual clock for limiter tests: time moves only when the test says so. */
import type { Timers } from '../../../src/api/http/limiter';

interface Task {
  id: number;
  at: number;
  fn: () => void;
}

export class FakeTimers implements Timers {
  private t = 0;
  private seq = 0;
  private tasks: Task[] = [];

  /** `lateMs`: every timer fires this much after it is due, as real timers do. */
  constructor(private readonly lateMs = 0) {}

  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const task = { id: ++this.seq, at: this.t + Math.max(0, ms) + this.lateMs, fn };
    this.tasks.push(task);
    return task.id;
  }
  clearTimeout(handle: unknown): void {
    this.tasks = this.tasks.filter((task) => task.id !== handle);
  }
  /** Runs every timer due up to now + ms, in time order, letting promise callbacks settle between. */
  async advance(ms: number): Promise<void> {
    const target = this.t + ms;
    for (;;) {
      await flush();
      const due = this.tasks.filter((task) => task.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.tasks = this.tasks.filter((task) => task !== due);
      this.t = due.at;
      due.fn();
    }
    this.t = target;
    await flush();
  }
}

async function flush(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}
