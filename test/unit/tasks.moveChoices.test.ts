/**
 * Move to Group… (src/tasks/moveChoices.ts): from a task's context menu it moves the clicked task,
 * or the whole selection when the clicked task is in it (issue 48: the move was drag-only); the
 * groups offered leave out the one every task is in already. The manifest offers it in the task's
 * menu (also on a multi-selection) and in the command palette when signed in.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { groupsToOffer, movingTasksOf } from '../../src/tasks/moveChoices';

const row = (taskId: string, taskGroupId: string) => ({
  task: { taskId, taskName: `Task ${taskId}` },
  group: { taskGroupId, taskGroupName: `Group ${taskGroupId}` },
  contextValue: 'task runnable',
});
const moving = (taskId: string, taskGroupId: string) => ({ taskId, taskName: `Task ${taskId}`, taskGroupId });

describe('tasks: Move to Group…', () => {
  it('moves every selected task together when the clicked one is selected, only the clicked one otherwise', () => {
    const a = row('a', 'g1');
    const b = row('b', 'g2');
    const c = row('c', 'g1');
    assert.deepEqual(movingTasksOf(a, [a, b, c]), [moving('a', 'g1'), moving('b', 'g2'), moving('c', 'g1')]);
    assert.deepEqual(movingTasksOf(a, [b, c]), [moving('a', 'g1')], 'a click outside the selection');
    assert.deepEqual(movingTasksOf(a, undefined), [moving('a', 'g1')]);
    // Rows that are not tasks (a group, "Load more…") are left out of the selection.
    assert.deepEqual(movingTasksOf(a, [a, { group: { taskGroupId: 'g3', taskGroupName: 'G' } }]), [moving('a', 'g1')]);
  });

  it('without a task row (the command palette, a bad argument) it moves nothing by itself: the palette asks', () => {
    assert.equal(movingTasksOf(undefined, undefined), undefined);
    assert.equal(movingTasksOf({ task: { taskId: 'a', taskName: 'A' } }, []), undefined, 'no group: not a row');
    assert.equal(
      movingTasksOf({ task: { taskId: '', taskName: 'A' }, group: { taskGroupId: 'g', taskGroupName: '' } }, []),
      undefined,
    );
    assert.equal(movingTasksOf('a', []), undefined);
  });

  it('offers every group but the one all the tasks are in', () => {
    const groups = ['g1', 'g2', 'g3'].map((id) => ({ taskGroupId: id, taskGroupName: `Group ${id}` }));
    assert.deepEqual(
      groupsToOffer([moving('a', 'g1')], groups).map((g) => g.taskGroupId),
      ['g2', 'g3'],
    );
    assert.deepEqual(
      groupsToOffer([moving('a', 'g1'), moving('b', 'g2')], groups).map((g) => g.taskGroupId),
      ['g1', 'g2', 'g3'],
      'tasks of two groups can go to either',
    );
  });

  it("is in a task's context menu (a multi-selection too) and in the command palette when signed in", () => {
    const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
      contributes: { menus: Record<string, { command: string; when?: string }[]> };
    };
    const entries = (menu: string) =>
      (manifest.contributes.menus[menu] ?? []).filter((e) => e.command === 'scrapedeck.tasks.moveToGroup');
    const item = entries('view/item/context');
    assert.equal(item.length, 1);
    assert.equal(item[0]?.when, 'view == scrapedeck.tasks && viewItem =~ /\\btask\\b/');
    assert.doesNotMatch(item[0]?.when ?? '', /listMultiSelection/, 'several selected tasks move together');
    assert.deepEqual(
      entries('commandPalette').map((e) => e.when),
      ['scrapedeck.signedIn'],
    );
  });
});
