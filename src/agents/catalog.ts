/**
 * The account's tasks with their groups, read fresh for every tool call (the service has no search
 * by name: the group list, then each group's tasks). Nothing is cached, so a call never answers
 * with another account's tasks. Also how a tool finds "the task" a model names: by id, or by its
 * exact name when that is unique.
 */
import type { ScrapedeckClient } from '../api/client';
import type { Translate } from '../platform/errorText';
import { plainText } from '../platform/plainText';
import { DATA_PLANS, failureText } from './failure';
import type { ToolContext } from './tool';

export interface CatalogTask {
  taskId: string;
  taskName: string;
  groupId: string;
  groupName: string;
}

export interface Catalog {
  groups: { groupId: string; groupName: string }[];
  tasks: CatalogTask[];
}

/** A failure to read the catalog, already worded for the model (`cause`: the service's error, if any). */
export class CatalogError extends Error {}

export async function loadCatalog(
  client: ScrapedeckClient,
  ctx: Pick<ToolContext, 't' | 'signInHint' | 'signal'>,
): Promise<Catalog> {
  const { t, signal } = ctx;
  let groups: { groupId: string; groupName: string }[];
  try {
    groups = (await client.listTaskGroups({ signal })).data.map((g) => ({
      groupId: g.taskGroupId,
      groupName: g.taskGroupName,
    }));
  } catch (e) {
    throw new CatalogError(failureText(e, { failed: t('Could not list the task groups'), plans: DATA_PLANS }, ctx), {
      cause: e,
    });
  }
  // Concurrently: the client's limiter paces them.
  const lists = await Promise.all(
    groups.map(async (g) => {
      try {
        return (await client.searchTasks(g.groupId, { signal })).data;
      } catch (e) {
        throw new CatalogError(
          failureText(
            e,
            { failed: t('Could not list the tasks of the group “{0}”', plainText(g.groupName)), plans: DATA_PLANS },
            ctx,
          ),
          { cause: e },
        );
      }
    }),
  );
  const tasks = groups.flatMap((g, i) =>
    (lists[i] ?? []).map((task) => ({
      taskId: task.taskId,
      taskName: task.taskName,
      groupId: g.groupId,
      groupName: g.groupName,
    })),
  );
  return { groups, tasks };
}

const fold = (s: string): string => s.trim().toLowerCase();

/** Tasks whose name contains `query` (case-insensitive), in groups named or numbered `group`. */
export function filterTasks(
  catalog: Catalog,
  filter: { query?: string | undefined; group?: string | undefined },
  t: Translate,
): CatalogTask[] {
  let tasks = catalog.tasks;
  if (filter.group !== undefined) {
    const group = findGroup(catalog, filter.group, t);
    tasks = tasks.filter((task) => task.groupId === group.groupId);
  }
  if (filter.query !== undefined && filter.query.trim() !== '') {
    const needle = fold(filter.query);
    tasks = tasks.filter((task) => task.taskName.toLowerCase().includes(needle));
  }
  return tasks;
}

export function findGroup(catalog: Catalog, ref: string, t: Translate): { groupId: string; groupName: string } {
  const byId = catalog.groups.find((g) => g.groupId === ref.trim());
  if (byId) return byId;
  const byName = catalog.groups.filter((g) => fold(g.groupName) === fold(ref));
  if (byName.length === 1 && byName[0]) return byName[0];
  const names = catalog.groups
    .slice(0, 20)
    .map((g) => `“${g.groupName}”`)
    .join(', ');
  if (byName.length > 1)
    throw new CatalogError(
      t(
        'Several task groups are named “{0}”: pass the group id instead ({1}).',
        plainText(ref),
        byName.map((g) => g.groupId).join(', '),
      ),
    );
  throw new CatalogError(
    t('No task group has the name or id “{0}”. The groups are: {1}.', plainText(ref), names === '' ? t('none') : names),
  );
}

/** The task a model means: an exact id, or else a unique exact name (case aside). */
export function findTask(catalog: Catalog, ref: string, t: Translate): CatalogTask {
  const byId = catalog.tasks.find((task) => task.taskId === ref.trim());
  if (byId) return byId;
  const byName = catalog.tasks.filter((task) => fold(task.taskName) === fold(ref));
  if (byName.length === 1 && byName[0]) return byName[0];
  if (byName.length > 1) {
    const options = byName
      .slice(0, 10)
      .map((task) => `${task.taskId} (${task.groupName})`)
      .join(', ');
    throw new CatalogError(
      t('{0} tasks are named “{1}”: pass one of their ids instead: {2}.', byName.length, plainText(ref), options),
    );
  }
  const similar = catalog.tasks.filter((task) => task.taskName.toLowerCase().includes(fold(ref))).slice(0, 5);
  const hint =
    similar.length > 0
      ? t('Tasks with similar names: {0}.', similar.map((task) => `“${task.taskName}” (${task.taskId})`).join(', '))
      : t('Use scrapedeck_list_tasks to find it.');
  throw new CatalogError(`${t('No task of this account has the id or name “{0}”.', plainText(ref))} ${hint}`);
}

/** A CatalogError's text, or the error worded as a failure of `failed`. */
export function catalogProblem(e: unknown, failed: string, ctx: Pick<ToolContext, 't' | 'signInHint'>): string {
  return e instanceof CatalogError ? e.message : failureText(e, { failed }, ctx);
}

/** The tasks a tool's input names: its own refs (each found, each once), else those of group and query (every task when neither). */
export function selectTasks(
  catalog: Catalog,
  refs: readonly string[] | undefined,
  scope: { query?: string | undefined; group?: string | undefined },
  t: Translate,
): CatalogTask[] {
  const found = refs !== undefined ? refs.map((ref) => findTask(catalog, ref, t)) : filterTasks(catalog, scope, t);
  const seen = new Set<string>();
  return found.filter((task) => !seen.has(task.taskId) && seen.add(task.taskId) !== undefined);
}
