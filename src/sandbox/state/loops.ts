/**
 * Task actions and their loop items: each task has one to three loops (most of URLs, some of
 * texts), created on first use from the seed; replacing or appending items changes what later
 * reads return. A duplicate starts with a copy of its original's actions.
 */
import { chance, intBetween, pick, rngFor, uuidLike } from '../seed/prng';
import type { SeedTask } from '../seed/seed';

export interface SandboxAction {
  actionType: string;
  actionId: string;
  name: string;
  loopType: 'URLList' | 'TextList';
  loopItems: string[];
  /** Set by update action properties; `name` also renames the action. */
  properties: Record<string, string | number | boolean>;
}

/** Bounds of the sandbox (the service's are not published). */
export const LOOP_LIMITS = { items: 10_000, itemLength: 2048 } as const;

const SITES = ['shop.example.com', 'news.example.org', 'jobs.example.net', 'homes.example.com', 'reviews.example.io'];
const PATHS = ['category', 'search', 'list', 'page', 'section'];
const KEYWORDS = [
  'running shoes',
  'espresso machine',
  'standing desk',
  'data engineer',
  'two-bedroom flat',
  'noise cancelling',
  'ergonomic chair',
  'Zürich',
  '東京 ラーメン',
];

export class LoopStore {
  private readonly actions = new Map<string, SandboxAction[]>();

  constructor(private readonly seed: number) {}

  of(task: SeedTask): SandboxAction[] {
    let list = this.actions.get(task.taskId);
    if (!list) this.actions.set(task.taskId, (list = this.seeded(task.copiedFrom ?? task.taskId)));
    return list;
  }

  /** Lists created or changed so far (the state file writes them). */
  entries(): IterableIterator<[string, SandboxAction[]]> {
    return this.actions.entries();
  }

  /** A task's actions read back from the state file. */
  restore(taskId: string, actions: SandboxAction[]): void {
    this.actions.set(taskId, actions);
  }

  /** A duplicate gets the source's actions as they are now (later edits of either stay apart). */
  clone(source: SeedTask, copy: SeedTask): void {
    this.actions.set(
      copy.taskId,
      this.of(source).map((a) => ({ ...a, loopItems: [...a.loopItems], properties: { ...a.properties } })),
    );
  }

  private seeded(taskId: string): SandboxAction[] {
    const rng = rngFor(this.seed, 'loops', taskId);
    const loops = chance(rng, 0.7) ? 1 : chance(rng, 0.67) ? 2 : 3;
    return Array.from({ length: loops }, (_, i) => {
      const text = i > 0 && chance(rng, 0.5);
      const site = pick(rng, SITES);
      const path = pick(rng, PATHS);
      const count = intBetween(rng, 3, 25);
      return {
        actionType: 'LoopAction',
        actionId: uuidLike(rng),
        name: text ? `Loop keywords ${i + 1}` : `Loop URLs ${i + 1}`,
        loopType: text ? 'TextList' : 'URLList',
        loopItems: Array.from({ length: count }, (_, n) =>
          text ? pick(rng, KEYWORDS) : `https://${site}/${path}/${intBetween(rng, 1, 400)}?page=${n + 1}`,
        ),
        properties: {},
      };
    });
  }
}

/** Why an item cannot be in a URL list (undefined when it can): an absolute http(s) URL. */
export function urlItemProblem(item: string): string | undefined {
  if (item.trim() !== item || item === '') return 'a URL has no surrounding white space';
  try {
    const url = new URL(item);
    return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : 'a URL starts with http:// or https://';
  } catch {
    return 'not a URL';
  }
}
