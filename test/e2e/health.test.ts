/**
 * Task health as a new user meets it, in the real workbench with the packaged .vsix and the
 * journey's sandbox: sign in with the Tasks view open, see which tasks fail (Needs attention, the
 * view's badge, coloured and lettered rows), why (the figures in the row and its tooltip), and dig
 * in (Open Analytics from the notification). Screenshots in artifacts/e2e/h*.png. It leaves the
 * workbench as it found it: groups collapsed, signed out, no notification.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import type { Page } from 'playwright-core';

import { addDays } from '../../src/api/schemas/dates';
import { secretTargets } from './secrets';
import { useWorkbench } from './session';
import {
  e2e,
  type E2eContext,
  type SandboxAccount,
  type SandboxInfo,
  sandboxRequest,
  until,
  type Workbench,
} from './support';

/** The names of the tasks over the default thresholds, computed from a raw Day query (both windows, all tasks). */
async function overThresholds(info: SandboxInfo, account: SandboxAccount): Promise<Map<string, 'failing' | 'slowing'>> {
  const today = new Date().toISOString().slice(0, 10);
  const start = addDays(today, -6);
  type Rec = {
    taskId: string;
    taskName: string | null;
    dayKey: string;
    executionMetrics: { runCount: number | null; failureCount: number | null; totalExecutionSeconds: number | null };
  };
  const records: Rec[] = [];
  for (let page = 1; ; page++) {
    const body = await sandboxRequest<{ total: number; data: Rec[] }>(info, account, 'POST', '/taskanalytics/queries', {
      start: addDays(today, -13),
      end: today,
      timeGranularity: 'Day',
      page,
      pageSize: 100,
    });
    records.push(...body.data);
    if (page * 100 >= body.total) break;
  }
  const sums = new Map<string, number[]>(); // by task id: runs, failures, seconds, timed — now, then before
  const names = new Map<string, string>();
  for (const r of records) {
    names.set(r.taskId, r.taskName ?? r.taskId);
    const s = sums.get(r.taskId) ?? [0, 0, 0, 0, 0, 0, 0, 0];
    sums.set(r.taskId, s);
    const o = r.dayKey >= start ? 0 : 4;
    const m = r.executionMetrics;
    s[o] = (s[o] ?? 0) + (m.runCount ?? 0);
    s[o + 1] = (s[o + 1] ?? 0) + (m.failureCount ?? 0);
    if (m.totalExecutionSeconds !== null) {
      s[o + 2] = (s[o + 2] ?? 0) + m.totalExecutionSeconds;
      s[o + 3] = (s[o + 3] ?? 0) + (m.runCount ?? 0);
    }
  }
  const out = new Map<string, 'failing' | 'slowing'>();
  for (const [id, [runs = 0, failures = 0, secs = 0, timed = 0, , , secsBefore = 0, timedBefore = 0]] of sums) {
    const name = names.get(id) ?? id;
    if (runs > 0 && failures / runs > 0.2) out.set(name, 'failing');
    else if (timed > 0 && timedBefore > 0 && secsBefore > 0 && secs / timed > 1.5 * (secsBefore / timedBefore))
      out.set(name, 'slowing');
  }
  return out;
}

/** The extension log's lines of finished health refreshes ("Task health: N task(s) need attention, M announced as new"). */
function settledLines(ctx: E2eContext): string[] {
  return secretTargets(ctx).extensionLogs.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => /Task health: \d+ task\(s\) need attention, \d+ announced as new$/.test(line)),
  );
}

describe('Task health (real workbench, packaged .vsix, sandbox)', function () {
  this.timeout(300_000);
  let info: SandboxInfo;
  let account: SandboxAccount;
  let page: Page;
  let wb: Workbench;
  let expected: Map<string, 'failing' | 'slowing'>;
  const label = `Ada health ${Date.now().toString(36)}`;

  // Passed on as the other specs expect it: no editor, groups collapsed, signed out, quiet.
  useWorkbench('health', {
    prepare: async (sandbox) => {
      info = sandbox;
      account = info.accounts[0] as SandboxAccount;
      expected = await overThresholds(info, account);
    },
    opened: (win) => ({ page, wb } = win),
  });

  it('H1. signing in with the Tasks view open shows Needs attention, its count on the view, and one notification', async () => {
    assert.ok(expected.size >= 6, `the sandbox seeds 6 tasks over the thresholds (${expected.size})`);
    await wb.openScrapedeck();
    // An account this window has not seen yet (a label of this run's own): what it last saw is
    // remembered per account, so ada's password sign-in in another spec would have seen the list.
    await wb.signInWithApiKey(account.apiKey, label);
    await wb.row('Tasks', 'Needs attention').waitFor();
    const toast = wb.notification(`${expected.size} tasks need attention`);
    await toast.waitFor();
    // Each task over a threshold is listed under Needs attention, with its figures in the row.
    for (const [name, kind] of expected) {
      const row = wb.row('Tasks', name).first();
      await row.waitFor();
      const text = await row.innerText();
      // Why first, short (issue 48 item 5): the reason is not what a narrow sidebar cuts.
      assert.match(text, kind === 'failing' ? /\d+% failed/ : /× slower/, text);
    }
    // The view's badge on the activity bar counts them.
    const badge = wb.activityEntry().locator('xpath=ancestor::li[1]').locator('.badge .badge-content');
    assert.equal((await badge.innerText()).trim(), String(expected.size));
    await wb.screenshot('h1-health-needs-attention');
  });

  it('H2. a row says why in its tooltip: the figures and the window', async () => {
    const [name] = [...expected].find(([, k]) => k === 'failing') ?? [];
    assert.ok(name);
    const hover = await wb.tooltip(wb.row('Tasks', name).first(), 'Health over the last 7 days');
    // MarkdownString.appendText keeps spaces as non-breaking ones: compare with plain spaces.
    const text = (await hover.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /Failed: \d+ of \d+ runs \(\d+%\)/, text);
    assert.match(text, /Needs attention: failure rate above 20%/, text);
    // The letter beside the name is explained (issue 48 item 5).
    assert.match(text, /F beside the name: failing, more than 20% of its runs failed\./, text);
    await wb.screenshot('h2-health-tooltip');
    await page.mouse.move(700, 450);
  });

  it('H3. "Open Analytics" in the notification charts the tasks that need attention', async () => {
    const toast = wb.notification(`${expected.size} tasks need attention`);
    // A toast that has timed out lives on in the notification center, buttons included.
    if (!(await toast.isVisible())) await wb.runCommand('Notifications: Show Notifications');
    await toast.hover();
    await toast.locator('a.monaco-button, .monaco-button').filter({ hasText: 'Open Analytics' }).first().click();
    await page.locator('.tabs-container .tab').filter({ hasText: 'Analytics: Needs attention' }).first().waitFor();
    await wb.screenshot('h3-health-open-analytics');
    await page.keyboard.press('Control+W');
  });

  it('H4. groups show the worst of their tasks; the tree with health', async () => {
    // A group holding a failing task says so in its row; opened, its tasks carry their figures.
    const group = wb
      .view('Tasks')
      .locator('.monaco-list-row[aria-level="1"]')
      .filter({ hasText: /\d+ failing/ })
      .first();
    await group.waitFor();
    assert.match(await group.innerText(), /\d+ tasks · \d+ failing/);
    await group.click();
    await wb
      .view('Tasks')
      .locator('.monaco-list-row[aria-level="2"]')
      .filter({ hasText: /% failed/ })
      .first()
      .waitFor();
    await wb.screenshot('h4-tasks-with-health');
  });

  it('H5. signed out and in again, the same tasks are not announced again: only what is new since the list was last seen', async () => {
    await wb.clearNotifications();
    const before = settledLines(e2e()).length;
    await wb.signInWithApiKey(account.apiKey, label); // signs out first, from the welcome
    await wb.row('Tasks', 'Needs attention').waitFor();
    const badge = wb.activityEntry().locator('xpath=ancestor::li[1]').locator('.badge .badge-content');
    await badge.filter({ hasText: String(expected.size) }).waitFor();
    assert.equal((await badge.innerText()).trim(), String(expected.size), 'the same tasks still need attention');
    // The refresh that fills the list logs how many it announced, after it would have announced:
    // that line, not a pause, proves nothing more is coming.
    await until('the health refresh after signing in again is logged', async () => settledLines(e2e()).length > before);
    const settled = settledLines(e2e()).slice(before);
    assert.ok(
      settled.every((line) => / 0 announced as new$/.test(line)),
      settled.join(' | '),
    );
    assert.equal(await wb.notification('tasks need attention').count(), 0, 'no second announcement of the same tasks');
    await wb.screenshot('h5-health-no-repeat-after-sign-in');
  });
});
