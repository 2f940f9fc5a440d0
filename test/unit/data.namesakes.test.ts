/**
 * Tasks of one name told apart (issue 48): the suggested file names use the group's name where it
 * tells them apart ("eBay product details (Price monitoring)"), a piece of the id only as a last
 * resort; and the question before mixing two tasks' rows in one file has its safe answer first
 * (the default button).
 */
import * as assert from 'node:assert/strict';

import { namesakeAmong, suggestedFileName } from '../../src/data/formats/rowFormats';
import { modalItems } from '../../src/platform/prompts/modalItems';
import { startSandbox } from '../../src/sandbox/server';
import { sandboxClient } from '../shared/pullScenario';

describe('data: tasks of one name', () => {
  it('the seed\'s two "eBay product details" get their groups\' names in the suggested file names', async () => {
    const sandbox = await startSandbox({ rateLimit: 0 });
    const client = sandboxClient(sandbox.info.baseUrl, sandbox.info.accounts[0]?.apiKey ?? '');
    try {
      const tasks: { taskId: string; taskName: string; groupName: string }[] = [];
      for (const g of (await client.listTaskGroups()).data)
        for (const t of (await client.searchTasks(g.taskGroupId)).data)
          tasks.push({ taskId: t.taskId, taskName: t.taskName, groupName: g.taskGroupName });
      const named = tasks.filter((t) => t.taskName === 'eBay product details');
      assert.ok(named.length >= 2, 'the seed has two tasks of that name');
      const names = named.map((t) => suggestedFileName(t, namesakeAmong(t.taskId, named)));
      assert.deepEqual(
        names.sort(),
        named.map((t) => `eBay product details (${t.groupName})`).sort(),
        'readable and distinct',
      );
      const one = named[0] as (typeof named)[number];
      assert.equal(
        suggestedFileName(one, namesakeAmong(one.taskId, named), ' run 7'),
        `eBay product details (${one.groupName}) run 7`,
      );
    } finally {
      await client.close();
      await sandbox.close();
    }
  });

  it('the group only where it tells them apart; else a piece of the id; a name of its own stays as it is', () => {
    assert.equal(namesakeAmong('a', [{ taskId: 'a', groupName: 'G' }]), undefined);
    assert.deepEqual(
      namesakeAmong('a', [
        { taskId: 'a', groupName: 'Shop' },
        { taskId: 'b', groupName: 'Shop' },
      ]),
      {},
      'same group name: the group does not tell them apart',
    );
    assert.deepEqual(namesakeAmong('a', [{ taskId: 'a' }, { taskId: 'b', groupName: 'Shop' }]), {}, 'group unknown');
    const task = { taskId: '1e3d54f6-aaaa', taskName: 'Prices' };
    assert.equal(suggestedFileName(task, undefined), 'Prices');
    assert.equal(suggestedFileName(task, {}), 'Prices 1e3d54f6');
    assert.equal(suggestedFileName(task, { group: 'a/b: c' }), 'Prices (a b c)', 'the group made safe for a file name');
    const long = suggestedFileName({ taskId: 'x', taskName: 'n'.repeat(200) }, { group: 'Price monitoring' });
    assert.ok(long.endsWith(' (Price monitoring)') && long.length <= 120, long);
  });

  it("the modal's default button: the action, or the safe answer where the action is the risky one", () => {
    assert.deepEqual(modalItems('Remove Data…', 'Keep the Data'), [
      { title: 'Remove Data…' },
      { title: 'Keep the Data', isCloseAffordance: true },
    ]);
    // VS Code makes the first item that is not the close affordance the primary (Enter) button.
    const risky = modalItems('Append Anyway', 'Don’t Append', 'keep');
    assert.equal(risky.find((i) => i.isCloseAffordance !== true)?.title, 'Don’t Append');
    assert.deepEqual(
      risky.map((i) => i.title),
      ['Don’t Append', 'Append Anyway'],
    );
  });
});
