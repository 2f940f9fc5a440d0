/**
 * Keyboard (issue 16 item 4): Tab reaches every control of the form in document order, each
 * shows a focus ring (an outline in --vscode-focusBorder that stands out, 3:1, from what is
 * around it), and the query runs and the table sorts from the keyboard alone.
 */
import * as assert from 'node:assert/strict';

import { contrast, GRAPHIC_CONTRAST, parseColour } from '../../src/analytics/model/colour';
import { answer, assertClean, TODAY } from './flows';
import type { AnalyticsPage } from './harness';
import { grid } from './records';
import { useStandIn } from './standIn';

interface Focused {
  id: string;
  outlineStyle: string;
  outlineWidth: number;
  outlineColor: string;
  around: string;
  inForm: boolean;
}

/** What has focus now, and how its ring is drawn. */
async function focused(p: AnalyticsPage): Promise<Focused> {
  return p.page.evaluate(() => {
    type El = {
      id: string;
      tagName: string;
      textContent: string | null;
      closest(s: string): El | null;
      parentElement: El | null;
    };
    const g = globalThis as unknown as {
      document: { activeElement: El | null; body: El };
      getComputedStyle(e: El): {
        outlineStyle: string;
        outlineWidth: string;
        outlineColor: string;
        backgroundColor: string;
      };
    };
    const el = g.document.activeElement ?? g.document.body;
    const style = g.getComputedStyle(el);
    // The first painted background around the element: where its ring is drawn.
    let around = 'rgba(0, 0, 0, 0)';
    for (let up = el.parentElement; up; up = up.parentElement) {
      const bg = g.getComputedStyle(up).backgroundColor;
      if (bg && bg !== 'transparent' && !/,\s*0\)$/.test(bg)) {
        around = bg;
        break;
      }
    }
    return {
      id: el.id || `${el.tagName.toLowerCase()}:${(el.textContent ?? '').trim().slice(0, 20)}`,
      outlineStyle: style.outlineStyle,
      outlineWidth: parseFloat(style.outlineWidth) || 0,
      outlineColor: style.outlineColor,
      around,
      inForm: el.closest('form.query-form') !== null,
    };
  });
}

/** The form's tabbable controls in document order (what Tab must visit). */
async function tabbable(p: AnalyticsPage): Promise<string[]> {
  return p.page.$$eval('form.query-form :is(input, select, textarea, button, a[href], [tabindex])', (els) =>
    els
      .filter((e) => {
        const el = e as unknown as { disabled?: boolean; tabIndex: number; getClientRects(): ArrayLike<unknown> };
        return !el.disabled && el.tabIndex >= 0 && el.getClientRects().length > 0;
      })
      .map((e) => (e as unknown as { id: string }).id),
  );
}

describe('analytics page: keyboard', function () {
  const host = useStandIn();

  for (const theme of ['vscode-dark', 'vscode-light', 'vscode-high-contrast', 'vscode-high-contrast-light']) {
    it(`Tab visits every form control in order with a visible focus ring, and Enter runs the query (${theme})`, async () => {
      const p = await host.open(
        { preset: { taskIds: ['task-1'], label: 'Prices' } },
        { theme, width: 1280, height: 900 },
      );
      const expected = await tabbable(p);
      assert.ok(
        expected.includes('f-start') && expected.includes('run'),
        `the form has its controls: ${expected.join(', ')}`,
      );
      await p.page.click('h1'); // nothing focused: the next Tab starts at the top
      const visited: Focused[] = [];
      for (let presses = 0; presses < 80; presses++) {
        await p.page.keyboard.press('Tab');
        const now = await focused(p);
        if (!now.inForm && visited.length > 0) break;
        // A date field takes one Tab per part (month, day, year): one stop, counted once.
        if (now.inForm && visited[visited.length - 1]?.id !== now.id) visited.push(now);
      }
      assert.deepEqual(
        visited.map((f) => f.id),
        expected,
        'Tab order = document order, nothing skipped',
      );
      for (const f of visited) {
        assert.notEqual(f.outlineStyle, 'none', `${f.id} shows a focus ring`);
        assert.ok(f.outlineWidth >= 1, `${f.id}: ring at least 1 px (${f.outlineWidth})`);
        const ring = parseColour(f.outlineColor);
        const around = parseColour(f.around);
        assert.ok(ring && around, `${f.id}: ring ${f.outlineColor} on ${f.around}`);
        assert.ok(
          contrast(ring, around) >= GRAPHIC_CONTRAST,
          `${f.id}: ring ${f.outlineColor} on ${f.around} is ${contrast(ring, around).toFixed(2)}:1`,
        );
      }
      // Back to Run with Shift+Tab, then Enter.
      for (let presses = 0; presses < 20 && (await focused(p)).id !== 'run'; presses++)
        await p.page.keyboard.press('Shift+Tab');
      assert.equal((await focused(p)).id, 'run');
      await p.page.keyboard.press('Enter');
      const q = await p.waitForPosted('query');
      await answer(p, q, grid(3, 7, TODAY));
      await assertClean(p);
    });
  }

  it('sorts the table from the keyboard: Enter and Space on a column header', async () => {
    const p = await host.open({}, { width: 1280, height: 900 });
    await p.page.click('#run');
    await answer(p, await p.waitForPosted('query'), grid(3, 7, TODAY));
    const header = p.page.locator('table.records thead th[data-column]').nth(1);
    await header.locator('button.sort').focus();
    await p.page.keyboard.press('Enter');
    await p.page.waitForFunction(
      () =>
        (globalThis as unknown as { document: { querySelector(s: string): unknown } }).document.querySelector(
          'table.records thead th[aria-sort]',
        ) !== null,
    );
    const first = await header.getAttribute('aria-sort');
    assert.ok(first === 'ascending' || first === 'descending', `sorted (${String(first)})`);
    await header.locator('button.sort').focus();
    await p.page.keyboard.press('Space');
    await p.page.waitForFunction((before) => {
      const th = (
        globalThis as unknown as {
          document: { querySelectorAll(s: string): ArrayLike<{ getAttribute(n: string): string | null }> };
        }
      ).document.querySelectorAll('table.records thead th[data-column]')[1];
      return th?.getAttribute('aria-sort') !== before;
    }, first);
    assert.notEqual(await header.getAttribute('aria-sort'), first, 'Space turns the order around');
    await assertClean(p);
  });
});
