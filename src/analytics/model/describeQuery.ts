/**
 * What the panel's title and the page's header say: the query on screen (the result's, else the
 * one the form would run). Pure, so the page and the tests agree on every word.
 */
import { formatInt, shortDay } from './format';
import { pageText } from './pageStrings';

export interface QueryShape {
  start: string;
  end: string;
  timeGranularity?: 'Day' | 'Week' | 'Month' | undefined;
  taskIds?: readonly string[] | undefined;
}

export interface QueryDescription {
  /** The tab: "Analytics: Prices", "Analytics: Prices +2 more", "Analytics: All tasks". */
  title: string;
  /** The header line: "Prices +2 more · Nov 1 – Nov 20, 2026 · by day". */
  subtitle: string;
}

const BY = { Day: 'query.byDay', Week: 'query.byWeek', Month: 'query.byMonth' } as const;

/**
 * The tasks part: their names as the user picked them (ids where no name is known), or the name
 * of the whole set when it has one (a group's tasks are its name, not "Its first task +13 more").
 */
export function describeTasks(
  taskIds: readonly string[] | undefined,
  labelOf: (taskId: string) => string | undefined,
  setLabel?: string,
): string {
  if (!taskIds || taskIds.length === 0) return pageText('chips.allTasks');
  if (setLabel) return setLabel;
  const first = taskIds[0] as string;
  const name = labelOf(first) ?? first;
  return taskIds.length === 1 ? name : pageText('query.moreTasks', name, formatInt(taskIds.length - 1));
}

function dates(start: string, end: string): string {
  const year = end.slice(0, 4);
  if (start === end) return `${shortDay(start)}, ${year}`;
  return start.slice(0, 4) === year
    ? `${shortDay(start)} – ${shortDay(end)}, ${year}`
    : `${shortDay(start)}, ${start.slice(0, 4)} – ${shortDay(end)}, ${year}`;
}

/** `setLabel`: the name of exactly these tasks together (the group or list the panel was opened for). */
export function describeQuery(
  query: QueryShape,
  labelOf: (taskId: string) => string | undefined,
  setLabel?: string,
): QueryDescription {
  const tasks = describeTasks(query.taskIds, labelOf, setLabel);
  return {
    title: pageText('query.title', tasks),
    subtitle: `${tasks} · ${dates(query.start, query.end)} · ${pageText(BY[query.timeGranularity ?? 'Day'])}`,
  };
}
