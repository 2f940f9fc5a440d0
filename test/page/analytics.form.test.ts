/** The query form in headless Chromium: inline validation, nothing sent while invalid, tasks, 400s. */
import * as assert from 'node:assert/strict';

import { assertClean, TODAY } from './flows';
import type { AnalyticsPage } from './harness';
import { useStandIn } from './standIn';

describe('analytics page: query form', function () {
  const host = useStandIn();
  let p: AnalyticsPage;
  beforeEach(async () => {
    p = await host.open();
  });

  async function sent(): Promise<number> {
    return (await p.postedOf('query')).length + (await p.postedOf('fetchAll')).length;
  }

  /** Fills a field, presses Run (and Enter in the field), and checks nothing was sent. */
  async function expectRefused(selector: string, value: string, errorId: string, message: RegExp): Promise<void> {
    await p.page.fill(selector, value);
    await p.page.click('#run');
    await p.page.click('#fetch-all');
    await p.page.press(selector === '#f-members' ? '#f-pageSize' : selector, 'Enter');
    const error = p.page.locator(`#${errorId}`);
    await error.waitFor({ state: 'visible' });
    assert.match(await error.innerText(), message);
    const control = p.page.locator(selector);
    assert.equal(await control.getAttribute('aria-invalid'), 'true');
    assert.ok(
      (await control.getAttribute('aria-describedby'))?.split(' ').includes(errorId),
      'the message describes the field',
    );
    assert.equal(await sent(), 0, 'nothing is posted while the form is invalid');
  }

  it('says ready, then shows the default form: the last 7 UTC days ending today', async () => {
    assert.deepEqual((await p.posted())[0], { type: 'ready' });
    assert.equal(await p.page.inputValue('#f-start'), '2026-11-16');
    assert.equal(await p.page.inputValue('#f-end'), TODAY);
    assert.equal(await p.page.inputValue('#f-granularity'), 'Day');
    assert.equal(await p.page.inputValue('#f-method'), 'All');
    assert.equal(await p.page.inputValue('#f-pageSize'), '20');
    assert.equal(await p.text('#f-tasks'), 'All tasks');
    await assertClean(p);
  });

  it('refuses an end after today, inline', async () => {
    await expectRefused('#f-end', '2026-11-23', 'err-end', /End must not be after today \(2026-11-22, UTC\)/);
  });

  it('refuses a start after the end, inline', async () => {
    await p.page.fill('#f-end', '2026-11-20');
    await expectRefused('#f-start', '2026-11-21', 'err-start', /Start must not be after end \(2026-11-20\)/);
  });

  it('refuses a start before the three-month limit, inline', async () => {
    await expectRefused(
      '#f-start',
      '2026-08-21',
      'err-start',
      /within the last three months \(not before 2026-08-22\)/,
    );
  });

  it('refuses page size 0 and 101, inline', async () => {
    await expectRefused('#f-pageSize', '0', 'err-pageSize', /whole number from 1 to 100/);
    await expectRefused('#f-pageSize', '101', 'err-pageSize', /whole number from 1 to 100/);
  });

  it('refuses more than 100 members, inline', async () => {
    const names = Array.from({ length: 101 }, (_, i) => `member${i}`).join(', ');
    await expectRefused('#f-members', names, 'err-memberNames', /At most 100 members \(you entered 101\)/);
  });

  it('moves focus to the first field with an issue when Run is pressed', async () => {
    await p.page.fill('#f-pageSize', '0');
    await p.page.click('#run');
    assert.equal(
      await p.page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id,
      ),
      'f-pageSize',
    );
  });

  it('clears the message once the value is fixed, then Enter in a field runs the query', async () => {
    await p.page.fill('#f-pageSize', '101');
    await p.page.locator('#err-pageSize').waitFor({ state: 'visible' });
    await p.page.fill('#f-pageSize', '50');
    await p.page.locator('#err-pageSize').waitFor({ state: 'hidden' });
    assert.equal(await p.page.locator('#f-pageSize').getAttribute('aria-invalid'), null);
    await p.page.selectOption('#f-granularity', 'Week');
    await p.page.selectOption('#f-method', 'Cloud');
    await p.page.fill('#f-members', 'ann, bob\ncarl');
    await p.page.press('#f-pageSize', 'Enter');
    const q = await p.waitForPosted('query');
    assert.deepEqual(q.query, {
      // 100 rows a request (the fewest against the rate limit); the 50 pages the table.
      start: '2026-11-16',
      end: TODAY,
      page: 1,
      pageSize: 100,
      collectionMethod: 'Cloud',
      timeGranularity: 'Week',
      memberNames: ['ann', 'bob', 'carl'],
    });
    await assertClean(p);
  });

  it('chooses tasks through the host and sends their ids; "All tasks" clears them', async () => {
    await p.page.click('#f-choose-tasks');
    const pick = await p.waitForPosted('pickTasks');
    assert.deepEqual(pick.selected, []);
    await p.send({ type: 'tasksPicked', id: 'someone-else', taskIds: ['x'], taskLabels: ['Stale'] });
    await p.send({ type: 'tasksPicked', id: pick.id, taskIds: ['t-1', 't-2'], taskLabels: ['Prices', '<b>Stock</b>'] });
    await p.page.locator('#f-tasks li', { hasText: 'Prices' }).waitFor();
    assert.deepEqual(await p.page.locator('#f-tasks li').allInnerTexts(), ['Prices', '<b>Stock</b>']);
    assert.equal(await p.page.locator('#f-tasks b').count(), 0, 'labels are text, never markup');
    await p.page.click('#run');
    const q = await p.waitForPosted('query');
    assert.deepEqual((q.query as { taskIds: string[] }).taskIds, ['t-1', 't-2']);
    await p.page.click('#f-clear-tasks');
    assert.equal(await p.text('#f-tasks'), 'All tasks');
    await p.page.click('#run');
    const q2 = await p.waitForPosted('query', 2);
    assert.ok(!('taskIds' in (q2.query as object)), 'all tasks: taskIds omitted');
  });

  it('shows a 400 from the server next to the form with its code, message and request id, and copies the id', async () => {
    await p.page.click('#run');
    const q = await p.waitForPosted('query');
    await p.send({
      type: 'error',
      id: q.id,
      error: {
        kind: 'invalid-request',
        status: 400,
        code: 1002,
        message: 'end is after the current date',
        requestId: 'req-400-abc',
        field: 'end',
      },
    });
    const box = p.page.locator('#form-error');
    await box.waitFor({ state: 'visible' });
    const text = await box.innerText();
    assert.match(text, /HTTP 400/);
    assert.match(text, /Code 1002: end is after the current date/);
    assert.match(text, /req-400-abc/);
    assert.match(await p.text('#err-end'), /end is after the current date/);
    await box.locator('button', { hasText: 'Copy request ID' }).click();
    assert.deepEqual(await p.waitForPosted('copy'), { type: 'copy', text: 'req-400-abc' });
    await assertClean(p);
  });
});
