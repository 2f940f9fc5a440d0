/** scrapedeck_list_tasks: the account's tasks, found by name and group, a page at a time. */
import * as z from 'zod';

import { catalogProblem, filterTasks, loadCatalog } from '../catalog';
import { groupRefSchema, limitSchema, offsetSchema, queryRefSchema } from '../inputs';
import { defineTool, refusal, reply } from '../tool';

const input = z
  .object({
    query: queryRefSchema.optional(),
    group: groupRefSchema.optional(),
    limit: limitSchema(100, 50, 'tasks'),
    offset: offsetSchema.describe(
      'Skip this many matching tasks (for the next page: the nextOffset of the previous answer).',
    ),
  })
  .strict();

export const listTasksTool = defineTool({
  name: 'scrapedeck_list_tasks',
  title: 'List Scrapedeck Tasks',
  userDescription: 'Find tasks of your Scrapedeck account by name or group.',
  reference: 'scrapedeckTasks',
  modelDescription:
    'Lists the web-scraping tasks of the signed-in Scrapedeck account with their task groups. Filter by part of the task name (query) and/or by group (name or id). ' +
    'Returns the number of matching tasks, one page of them (taskId, taskName, group) and every group with its number of matching tasks; when more match than were returned, nextOffset says where the next page starts. ' +
    'Use it first to find task ids for the other Scrapedeck tools (analytics, run status, start or stop a run, sample rows).',
  readOnly: true,
  idempotent: true,
  input,
  progress: (i, t) =>
    i.query ? t('Finding Scrapedeck tasks named like “{0}”…', i.query) : t('Listing Scrapedeck tasks…'),
  async run(i, ctx) {
    const { t } = ctx;
    let matching;
    let groups;
    try {
      const catalog = await loadCatalog(ctx.client, ctx);
      matching = filterTasks(catalog, i, t);
      groups = catalog.groups;
    } catch (e) {
      return refusal(catalogProblem(e, t('Could not list the tasks'), ctx));
    }
    const page = matching.slice(i.offset, i.offset + i.limit);
    const nextOffset = i.offset + page.length < matching.length ? i.offset + page.length : null;
    const perGroup = groups
      .map((g) => ({
        groupId: g.groupId,
        groupName: g.groupName,
        matchingTasks: matching.filter((task) => task.groupId === g.groupId).length,
      }))
      .filter((g) => g.matchingTasks > 0 || (i.query === undefined && i.group === undefined));
    const summary =
      matching.length === 0
        ? groups.length === 1
          ? t('No task matches. The account has 1 task group; try another query.')
          : t('No task matches. The account has {0} task groups; try another query or group.', groups.length)
        : page.length === 0
          ? matching.length === 1
            ? t('1 task matches, but offset {0} is past it: use offset 0.', i.offset)
            : t(
                '{0} tasks match, but offset {1} is past the last of them: use an offset below {0}.',
                matching.length,
                i.offset,
              )
          : nextOffset === null
            ? matching.length === 1
              ? t('1 task matches; it is listed.')
              : t('{0} tasks match; all are listed (from offset {1}).', matching.length, i.offset)
            : t(
                '{0} tasks match; tasks {1}-{2} are listed. Call again with offset {3} for more.',
                matching.length,
                i.offset + 1,
                i.offset + page.length,
                nextOffset,
              );
    return reply(summary, {
      total: matching.length,
      offset: i.offset,
      nextOffset,
      tasks: page.map((task) => ({ taskId: task.taskId, taskName: task.taskName, group: task.groupName })),
      groups: perGroup.slice(0, 100),
    });
  },
});
