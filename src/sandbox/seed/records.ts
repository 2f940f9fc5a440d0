/**
 * Daily analytics records, generated from the seed once per account, when the sandbox first needs
 * them (an analytics query or a task's run history, server.ts), not at its start: one record per
 * task, day and collection method that had activity. Not every task runs every day, not every task
 * uses both methods, and some metrics are null (not measured), which is not 0.
 */
import { addDays, type DayNumber, parseDay } from '../../api/schemas/dates';
import type { CollectionMethod } from '../../api/schemas/schemas';
import type { Activity } from './accountPlans';
import { chance, floatBetween, intBetween, type Rng, rngFor } from './prng';
import { allTasks, type SeedAccount, type SeedTask, type TaskHealth } from './seed';

/** Days of history kept: the three-month query window plus slack. */
export const RECORD_DAYS = 100;

/** The health window the seeded failing and slowing tasks are built for (issue 14's default). */
export const HEALTH_WINDOW_DAYS = 7;
/** How much longer a seeded slowing task's runs take over the last 7 days than before. */
export const SLOWDOWN_FACTOR = 2.2;

export interface Metrics {
  totalCollected: number | null;
  deduplicatedVolume: number | null;
  runCount: number | null;
  successCount: number | null;
  failureCount: number | null;
  durationPerRunSeconds: number | null;
  totalExecutionSeconds: number | null;
  successRate: number | null;
  failureRate: number | null;
  captchaCount: number | null;
  simpleTemplateCount: number | null;
  proxyIpCount: number | null;
  balance: number | null;
}

export interface DailyRecord {
  day: DayNumber;
  date: string;
  taskId: string;
  taskName: string;
  userId: string;
  method: CollectionMethod;
  metrics: Metrics;
}

interface TaskProfile {
  cloudRate: number;
  localRate: number;
  runsPerDay: number;
  successProbability: number;
  secondsPerRun: number;
  itemsPerRun: number;
  usesTemplate: boolean;
  captchaPerRun: number;
}

export const round = (value: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

/**
 * Records of one account for the `days` days ending `today`, sorted by (day, taskId, method) so a
 * Day query is a slice and needs no sort.
 */
export function buildDailyRecords(
  seed: number,
  account: SeedAccount,
  today: string,
  days = RECORD_DAYS,
): DailyRecord[] {
  const tasks = [...allTasks(account)].sort((a, b) => (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0));
  const profiles = tasks.map((t) => ({
    task: t,
    profile: oneMethod(withHealth(taskProfile(rngFor(seed, 'profile', t.taskId), account.activity), t.health), t),
  }));
  const out: DailyRecord[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const date = addDays(today, -i);
    const day = parseDay(date) as DayNumber;
    const weekend = [0, 6].includes(new Date(day * 86_400_000).getUTCDay());
    for (const { task, profile } of profiles) {
      // One stream per task and date: a day's figures do not depend on when the sandbox started.
      const rng = rngFor(seed, 'records', task.taskId, date);
      // A seeded slowing task runs this much longer over the last 7 days (today included) than before.
      const slowdown = task.health === 'slowing' && i < HEALTH_WINDOW_DAYS ? SLOWDOWN_FACTOR : 1;
      const steady = task.health !== undefined; // seeded health tasks run every day, so the window has figures
      const cloud = chance(rng, profile.cloudRate * (weekend && account.activity === 'normal' && !steady ? 0.6 : 1));
      const local = chance(rng, profile.localRate * (weekend ? 0.5 : 1));
      if (cloud) out.push(record(account, task, day, date, 'Cloud', dayMetrics(rng, profile, 'Cloud', slowdown)));
      if (local) out.push(record(account, task, day, date, 'Local', dayMetrics(rng, profile, 'Local', slowdown)));
    }
  }
  return out;
}

function record(
  account: SeedAccount,
  task: SeedTask,
  day: DayNumber,
  date: string,
  method: CollectionMethod,
  metrics: Metrics,
): DailyRecord {
  return { day, date, taskId: task.taskId, taskName: task.taskName, userId: account.userId, method, metrics };
}

/**
 * A seeded failing task fails about half its runs; a failing or slowing one runs in the cloud
 * every day, so the health window always has figures. Applied after the profile's draws, so no
 * other task's figures move.
 */
function withHealth(profile: TaskProfile, health: TaskHealth | undefined): TaskProfile {
  if (health === undefined) return profile;
  const steady = { ...profile, cloudRate: 1, runsPerDay: Math.max(profile.runsPerDay, 6) };
  return health === 'failing' ? { ...steady, successProbability: 0.4 + (profile.successProbability - 0.9) } : steady;
}

/** A task marked to run by one method keeps its cloud runs and drops its local ones (no other draw moves). */
function oneMethod(profile: TaskProfile, task: SeedTask): TaskProfile {
  return task.oneMethod === true && profile.cloudRate > 0 ? { ...profile, localRate: 0 } : profile;
}

function taskProfile(rng: Rng, activity: Activity): TaskProfile {
  const base = {
    runsPerDay: intBetween(rng, 1, 24),
    // Ordinary tasks are healthy (well under a 20 % failure rate): the seeded failing ones stand out.
    successProbability: floatBetween(rng, 0.9, 0.995),
    secondsPerRun: floatBetween(rng, 20, 900),
    itemsPerRun: intBetween(rng, 40, 2000),
    usesTemplate: chance(rng, 0.4),
    captchaPerRun: chance(rng, 0.3) ? floatBetween(rng, 0.2, 3) : 0,
  };
  const kind = rng();
  if (activity === 'heavy') {
    // The Enterprise account runs in the cloud nearly every day: 140 tasks x ~90 days > 10,000 Day rows.
    return { ...base, cloudRate: floatBetween(rng, 0.97, 1), localRate: kind < 0.3 ? floatBetween(rng, 0.1, 0.3) : 0 };
  }
  if (kind < 0.55) return { ...base, cloudRate: floatBetween(rng, 0.55, 0.92), localRate: 0 };
  if (kind < 0.7) return { ...base, cloudRate: 0, localRate: floatBetween(rng, 0.35, 0.75) };
  return { ...base, cloudRate: floatBetween(rng, 0.4, 0.8), localRate: floatBetween(rng, 0.2, 0.45) };
}

function dayMetrics(rng: Rng, p: TaskProfile, method: CollectionMethod, slowdown: number): Metrics {
  const cloud = method === 'Cloud';
  // A few scheduled days where nothing ran: counts 0, per-run figures and rates null.
  const runs = chance(rng, 0.03)
    ? 0
    : Math.max(1, Math.round((cloud ? p.runsPerDay : Math.min(p.runsPerDay, 4)) * floatBetween(rng, 0.6, 1.4)));
  const success = Math.min(runs, Math.round(runs * Math.min(1, p.successProbability + floatBetween(rng, -0.05, 0.05))));
  const failure = runs - success;
  const durationKnown = runs > 0 && !chance(rng, 0.06);
  // Day-to-day spread of ±15 %: no week averages 1.5x the one before unless the task really slowed.
  const duration = durationKnown ? round(p.secondsPerRun * floatBetween(rng, 0.85, 1.15) * slowdown, 2) : null;
  const totalExec = duration === null ? (runs === 0 ? 0 : null) : round(duration * runs, 2);
  const collected = Math.round(success * p.itemsPerRun * floatBetween(rng, 0.5, 1.5));
  const dedup = !cloud && chance(rng, 0.15) ? null : Math.round(collected * floatBetween(rng, 0.6, 0.98));
  const proxies = cloud ? round(runs * floatBetween(rng, 0, 5), 2) : null;
  return {
    totalCollected: collected,
    deduplicatedVolume: dedup,
    runCount: runs,
    successCount: success,
    failureCount: failure,
    durationPerRunSeconds: duration,
    totalExecutionSeconds: totalExec,
    successRate: runs > 0 ? round(success / runs, 4) : null,
    failureRate: runs > 0 ? round(failure / runs, 4) : null,
    // Local runs solve CAPTCHAs and use proxies on the user's machine: the service does not know.
    captchaCount: cloud ? Math.round(runs * p.captchaPerRun * floatBetween(rng, 0.5, 1.5)) : null,
    simpleTemplateCount: p.usesTemplate ? runs : null,
    proxyIpCount: proxies,
    balance: cloud ? round(((runs * (duration ?? p.secondsPerRun)) / 3600) * 0.25 + (proxies ?? 0) * 0.01, 4) : 0,
  };
}

/** What a task's analytics say of its cloud runs; the sandbox's run history follows it (issue 32 item 3). */
export interface CloudHistory {
  /** Cloud runs over the whole history: the task's `executedTimes`. */
  runs: number;
  /** The last day with a cloud run: the last run ended that day. */
  lastDate: string;
  /** That day's cloud runs and failures: how the last run most likely ended. */
  lastRuns: number;
  lastFailures: number;
}

/** Per task id, the cloud runs its records count; a task with none never ran in the cloud. */
export function cloudHistories(records: readonly DailyRecord[]): Map<string, CloudHistory> {
  const out = new Map<string, CloudHistory>();
  // Records are sorted by day: the last record seen of a task is its latest.
  for (const r of records) {
    const runs = r.metrics.runCount ?? 0;
    if (r.method !== 'Cloud' || runs <= 0) continue;
    const h = out.get(r.taskId);
    const failures = r.metrics.failureCount ?? 0;
    if (h === undefined) out.set(r.taskId, { runs, lastDate: r.date, lastRuns: runs, lastFailures: failures });
    else {
      h.runs += runs;
      h.lastDate = r.date;
      h.lastRuns = runs;
      h.lastFailures = failures;
    }
  }
  return out;
}
