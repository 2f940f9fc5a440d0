/**
 * Bringing a row of a side-bar tree into sight, for Workbench.reveal (support.ts). A tree draws only
 * the rows in sight, and rows above it (health's "Needs attention", a group's other tasks) can push
 * a task out of sight; a parent scrolled past stays pinned at the top ("sticky scroll") and takes
 * the clicks meant for the rows under it. Each scroll is waited on by the list's position, never
 * by time.
 */
import type { Locator, Page } from 'playwright-core';

import { waitUntil } from './waits';

/** Scrolls the side bar's trees until `row` is drawn and clear of its tree's sticky headers. */
export async function revealRow(page: Page, row: Locator): Promise<void> {
  if (!(await row.isVisible().catch(() => false))) await scrollUntilDrawn(page, row);
  const body = row.locator('xpath=ancestor::div[contains(concat(" ", @class, " "), " pane-body ")][1]');
  const sticky = body.locator('.monaco-tree-sticky-container').first();
  const [rowBox, bodyBox, stickyBox] = await Promise.all([
    row.boundingBox({ timeout: 5_000 }).catch(() => null),
    body.boundingBox({ timeout: 5_000 }).catch(() => null),
    sticky
      .count()
      .then((n) => (n > 0 ? sticky.boundingBox({ timeout: 1_000 }) : null))
      .catch(() => null),
  ]);
  if (rowBox === null || bodyBox === null) return;
  const top = Math.max(bodyBox.y, stickyBox === null ? 0 : stickyBox.y + stickyBox.height);
  if (rowBox.y >= top && rowBox.y + rowBox.height <= bodyBox.y + bodyBox.height) return;
  // Bring it to the middle of the view, under any sticky header.
  const list = row.locator('xpath=ancestor::div[contains(concat(" ", @class, " "), " monaco-list ")][1]');
  await page.mouse.move(bodyBox.x + bodyBox.width / 2, bodyBox.y + bodyBox.height / 2);
  await scrollBy(page, list, rowBox.y - (bodyBox.y + bodyBox.height / 2));
}

/**
 * Where a side-bar list is scrolled to: a monaco list moves its rows container (as tall as every
 * row) under its viewport, so the two boxes give the position and the most it can be.
 */
async function scrollOf(list: Locator): Promise<{ top: number; max: number } | undefined> {
  return list
    .evaluate(
      (el) => {
        const rows = el.querySelector('.monaco-list-rows');
        if (rows === null) return undefined;
        const view = el.getBoundingClientRect();
        const all = rows.getBoundingClientRect();
        return { top: Math.round(view.top - all.top), max: Math.max(0, Math.round(all.height - view.height)) };
      },
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
}

/**
 * Turns the wheel over the list (the pointer is over it) and waits until it has scrolled; at its
 * end already (nothing to scroll that way), it returns at once. False when it is at that end.
 */
async function scrollBy(page: Page, list: Locator, dy: number): Promise<boolean> {
  const before = await scrollOf(list);
  if (before === undefined || Math.abs(dy) < 1) return false;
  if ((dy > 0 && before.top >= before.max) || (dy < 0 && before.top <= 0)) return false;
  await page.mouse.wheel(0, dy);
  await waitUntil(
    'the list to scroll',
    async () => {
      const now = await scrollOf(list);
      return now !== undefined && now.top !== before.top;
    },
    { timeoutMs: 5_000, intervalMs: 50 },
  );
  return true;
}

/** Goes down each side-bar tree from its top, a page at a time, until `row` is drawn or the tree ends. */
async function scrollUntilDrawn(page: Page, row: Locator): Promise<void> {
  const lists = page.locator('.part.sidebar .pane-body .monaco-list');
  for (let i = 0; i < (await lists.count()); i++) {
    const list = lists.nth(i);
    const box = await list.boundingBox().catch(() => null);
    if (box === null || box.height < 10) continue;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await scrollBy(page, list, -100_000);
    for (let step = 0; step < 50; step++) {
      if (await row.isVisible().catch(() => false)) return;
      if (!(await scrollBy(page, list, box.height * 0.6))) break; // the tree's end
    }
    if (await row.isVisible().catch(() => false)) return;
  }
}
