/**
 * The sandbox's seeded world: accounts, teams, task groups, tasks and data apps. Identities that
 * people type (usernames, passwords, app names, group names) are fixed so the docs and the demo can
 * name them; ids and API keys come from the seed. What each account holds is `accountPlans.ts`.
 */
import { ACCOUNT_PLANS, type AccountPlan, type Activity, type GroupPlan, KINDS, SITES } from './accountPlans';
import type { Plan, SandboxAccount } from './info';
import { base62, intBetween, pick, randomChars, type Rng, rngFor, uuidLike } from './prng';

/** Every sandbox API key starts with this, as the service's keys start with a fixed prefix. */
export const API_KEY_PREFIX = 'sdk_';

/** Seeded health of a task in the analytics history: clearly failing, or slowing down this week. */
export type TaskHealth = 'failing' | 'slowing';

export interface SeedTask {
  taskId: string;
  taskName: string;
  taskGroupId: string;
  health?: TaskHealth;
  /** `big`: the benchmark task whose rows are generated on the fly; `bulk`: one of the extra benchmark tasks. */
  kind?: 'big' | 'bulk';
  /** Runs by one collection method only (a benchmark's fixture; seeded tasks may run by both). */
  oneMethod?: true;
  /** For a duplicate: the task it was copied from (it shares that task's fields and loops). */
  copiedFrom?: string;
}

/** Benchmark additions to the demo account (nothing is added unless asked). */
export interface WorldExtras {
  /** One task with this many rows, generated on the fly (0: none). */
  bigTaskRows?: number;
  /** This many more tasks, for status and health benchmarks (0: none). */
  extraTasks?: number;
  /** The extra tasks each run by one collection method, where a quarter of them would run by both. */
  extraTasksOneMethod?: boolean;
  /** The Benchmarks group is the demo account's only group: an account of exactly `extraTasks` tasks. */
  extraTasksOnly?: boolean;
}

export const BENCH_GROUP_NAME = 'Benchmarks';

export interface SeedGroup {
  taskGroupId: string;
  taskGroupName: string;
  tasks: SeedTask[];
}

export interface SeedApp {
  namespace: string;
  name: string;
  ref: string;
  author: string;
  /** Release versions, oldest first; empty for an app that was never released. */
  releases: string[];
  missingSecrets: string[];
}

export interface SeedAccount {
  username: string;
  password: string;
  apiKey: string;
  plan: Plan;
  userId: string;
  team: string[];
  activity: Activity;
  groups: SeedGroup[];
  apps: SeedApp[];
}

export interface World {
  seed: number;
  accounts: SeedAccount[];
  byUsername: Map<string, SeedAccount>;
  byApiKey: Map<string, SeedAccount>;
  apps: Map<string, SeedApp>;
}

export function buildWorld(seed: number, extras: WorldExtras = {}): World {
  const teams = new Map<string, string[]>();
  for (const p of ACCOUNT_PLANS) teams.set(p.team, [...(teams.get(p.team) ?? []), p.username]);

  const accounts = ACCOUNT_PLANS.map((p) => buildAccount(seed, p, teams.get(p.team) ?? [p.username]));
  const demo = accounts[0];
  if (demo && ((extras.bigTaskRows ?? 0) > 0 || (extras.extraTasks ?? 0) > 0)) {
    const bench = benchGroup(seed, demo, extras);
    demo.groups = extras.extraTasksOnly === true ? [bench] : [...demo.groups, bench];
  }
  const apps = new Map<string, SeedApp>();
  for (const a of accounts) for (const app of a.apps) apps.set(app.ref, app);
  return {
    seed,
    accounts,
    byUsername: new Map(accounts.map((a) => [a.username.toLowerCase(), a])),
    byApiKey: new Map(accounts.map((a) => [a.apiKey, a])),
    apps,
  };
}

function buildAccount(seed: number, p: AccountPlan, team: string[]): SeedAccount {
  const keyRng = rngFor(seed, 'apiKey', p.username);
  const idRng = rngFor(seed, 'ids', p.username);
  const usedGroupIds = new Set<string>();
  const groups = p.groups.map((g, gi) => buildGroup(idRng, usedGroupIds, g, rngFor(seed, 'names', p.username, gi)));
  for (const [health, places] of [
    ['failing', p.health?.failing ?? []],
    ['slowing', p.health?.slowing ?? []],
  ] as const) {
    for (const [gi, ti] of places) {
      const task = groups[gi]?.tasks[ti];
      if (task) task.health = health;
    }
  }
  return {
    username: p.username,
    password: `sandbox-${p.username}`,
    apiKey: API_KEY_PREFIX + base62(keyRng, 40),
    plan: p.plan,
    userId: `u_${randomChars(idRng, 12)}`,
    team,
    activity: p.activity,
    groups,
    apps: p.apps.map((a) => ({
      namespace: p.username,
      name: a.name,
      ref: `${p.username}/${a.name}`,
      author: p.username,
      releases: a.releases,
      missingSecrets: a.missingSecrets,
    })),
  };
}

function buildGroup(idRng: Rng, used: Set<string>, g: GroupPlan, nameRng: Rng): SeedGroup {
  let taskGroupId: string;
  do taskGroupId = String(intBetween(idRng, 100000, 999999));
  while (used.has(taskGroupId));
  used.add(taskGroupId);
  const names = new Set<string>();
  const tasks: SeedTask[] = [];
  for (let i = 0; i < g.size; i++) {
    let taskName: string;
    if (g.prefix) taskName = `${g.prefix} ${String(i + 1).padStart(3, '0')}`;
    else {
      taskName = `${pick(nameRng, SITES)} ${pick(nameRng, KINDS)}`;
      // Site × kind can repeat; a suffix keeps names distinct as real users make them.
      if (names.has(taskName)) taskName = `${taskName} (${i + 1})`;
    }
    names.add(taskName);
    tasks.push({ taskId: uuidLike(idRng), taskName, taskGroupId });
  }
  return { taskGroupId, taskGroupName: g.name, tasks };
}

/** The benchmark group: its ids come from a stream of their own, so the seeded world stays as it was. */
function benchGroup(seed: number, account: SeedAccount, extras: WorldExtras): SeedGroup {
  const rng = rngFor(seed, 'bench', account.username);
  const used = new Set(account.groups.map((g) => g.taskGroupId));
  let taskGroupId: string;
  do taskGroupId = String(intBetween(rng, 100000, 999999));
  while (used.has(taskGroupId));
  const tasks: SeedTask[] = [];
  const big = extras.bigTaskRows ?? 0;
  if (big > 0)
    tasks.push({
      taskId: uuidLike(rng),
      taskName: `Big export (${big.toLocaleString('en-US')} rows)`,
      taskGroupId,
      kind: 'big',
    });
  for (let i = 0; i < (extras.extraTasks ?? 0); i++) {
    tasks.push({
      taskId: uuidLike(rng),
      taskName: `Bulk task ${String(i + 1).padStart(4, '0')}`,
      taskGroupId,
      kind: 'bulk',
      ...(extras.extraTasksOneMethod === true ? { oneMethod: true as const } : {}),
    });
  }
  return { taskGroupId, taskGroupName: BENCH_GROUP_NAME, tasks };
}

/** The public view of an account (`SandboxInfo.accounts`). */
export function publicAccount(a: SeedAccount): SandboxAccount {
  return {
    username: a.username,
    password: a.password,
    apiKey: a.apiKey,
    plan: a.plan,
    team: [...a.team],
    apps: a.apps.map((app) => app.ref),
  };
}

export function allTasks(a: SeedAccount): SeedTask[] {
  return a.groups.flatMap((g) => g.tasks);
}
