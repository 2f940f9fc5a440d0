/**
 * Accessibility (issue 16 item 4): axe-core finds no serious or critical violation in the form,
 * the results (summary, charts, table), an error and a sorted table, in the dark, light and
 * high-contrast themes.
 */
import * as assert from 'node:assert/strict';

import { axeProblems } from './axe';
import { assertClean, runAndAnswer, TODAY } from './flows';
import type { AnalyticsPage } from './harness';
import { grid } from './records';
import { useStandIn } from './standIn';

const THEMES = ['vscode-dark', 'vscode-light', 'vscode-high-contrast', 'vscode-high-contrast-light'];

describe('analytics page: accessibility (axe-core)', function () {
  const host = useStandIn();

  for (const theme of THEMES) {
    it(`has no serious or critical violations in ${theme}: form, results, error, sorted table`, async () => {
      const p: AnalyticsPage = await host.open(
        { preset: { taskIds: ['task-1'], label: 'Prices' } },
        { theme, width: 1280, height: 900 },
      );
      const problems: string[] = [];
      problems.push(...(await axeProblems(p, 'form')));
      await p.page.fill('#f-pageSize', '0'); // an inline field error
      problems.push(...(await axeProblems(p, 'form with an invalid field')));
      await p.page.fill('#f-pageSize', '100');
      const q = await runAndAnswer(p, grid(4, 14, TODAY));
      problems.push(...(await axeProblems(p, 'results')));
      await p.page.locator('table.records thead button.sort').first().click();
      problems.push(...(await axeProblems(p, 'sorted table')));
      await p.page.click('#run');
      const again = await p.waitForPosted('query', 2);
      assert.notEqual(again.id, q.id);
      await p.send({
        type: 'error',
        id: again.id,
        error: { kind: 'rate-limited', status: 429, message: 'Too many requests, slow down.', requestId: 'req-429' },
      });
      await p.page.locator('#error').waitFor({ state: 'visible' });
      problems.push(...(await axeProblems(p, 'error')));
      assert.deepEqual(problems, []);
      await assertClean(p);
    });
  }
});
