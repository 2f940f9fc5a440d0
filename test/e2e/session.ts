/**
 * The browser and the workbench windows of the end-to-end tier. One Chromium serves every spec
 * file (launching it cost each spec ~2-3 s), and a loaded workbench is passed on from one spec
 * to the next when the spec before left it as found: signed out at the welcome, Scrapedeck's
 * view shown, no editor, no notification, no menu, box or dialog open. A window in any other
 * state is closed and the next spec loads a fresh one, so one spec's failure cannot spread.
 * Loading a window (its extension host started, Scrapedeck activated) cost each spec 7-11 s,
 * and a closed window's extension host lives on in code-server for its reconnection grace time,
 * so fewer windows also means less load on the machine while the later specs run.
 */
import type { BrowserContext, Page } from 'playwright-core';

import { e2e, type E2eContext, launch, type SandboxInfo, sandboxInfo, Workbench } from './support';

let browser: Promise<{ context: BrowserContext; page: Page }> | undefined;
/** Windows left as found, by the address they were opened at. */
const kept = new Map<string, Page>();
/** The address each open window was opened at. */
const opened = new WeakMap<Page, string>();

export interface SpecWindow {
  page: Page;
  wb: Workbench;
}

/** The tier's one browser, launched on first use; its first (blank) page is the first window. */
function sharedBrowser(ctx: E2eContext): Promise<{ context: BrowserContext; page: Page }> {
  browser ??= launch(ctx);
  return browser;
}

/**
 * Whether the window is as every spec expects to find it. Looks only (counts and visibility, no
 * wait): the clean-up before it (leaveAsFound) has waited for its states already.
 */
export async function isAsFound(wb: Workbench): Promise<boolean> {
  const page = wb.page;
  if (page.isClosed()) return false;
  const none = async (selector: string): Promise<boolean> => (await page.locator(selector).count()) === 0;
  try {
    const checks = [
      await page.locator('.monaco-workbench .part.activitybar').isVisible(),
      await wb
        .view('Tasks')
        .locator('.welcome-view-content .monaco-button')
        .filter({ hasText: 'Sign In with Username and Password' })
        .isVisible(),
      await page
        .locator('.part.sidebar .title-label')
        .filter({ hasText: /scrapedeck/i })
        .first()
        .isVisible(),
      await none('.tabs-container .tab'),
      await none('.notifications-toasts .notification-toast'),
      await none('.notifications-center.visible'),
      await none('.monaco-dialog-box'),
      await none('.context-view .monaco-menu'),
      !(await wb.quickInput().isVisible()),
    ];
    return checks.every(Boolean);
  } catch {
    return false;
  }
}

/** Closes a window; leaving its address first lets VS Code end the window's extension host. */
async function closeWindow(page: Page): Promise<void> {
  if (page.isClosed()) return;
  await page.goto('about:blank', { timeout: 15_000 }).catch(() => undefined);
  await page.close().catch(() => undefined);
}

/**
 * A workbench window at `url` (the journey's by default) for one spec file: the window the spec
 * before passed on when it is at that address and still as found, else a new one, loaded.
 * `fresh` always loads a new one (a spec about a fresh window).
 */
export async function openWindow(
  ctx: E2eContext,
  spec: string,
  options: { url?: string; fresh?: boolean } = {},
): Promise<SpecWindow> {
  const url = options.url ?? ctx.workbenchUrl;
  const { context, page: first } = await sharedBrowser(ctx);
  const previous = kept.get(url);
  kept.delete(url);
  if (previous !== undefined && !options.fresh) {
    const wb = new Workbench(previous, ctx.artifacts);
    if (await isAsFound(wb)) {
      console.log(`      [e2e time] ${spec}: the window the spec before left as found, reused`);
      opened.set(previous, url);
      return { page: previous, wb };
    }
    console.log(`      [e2e time] ${spec}: the window passed on is not as found; loading a new one`);
  }
  if (previous !== undefined) await closeWindow(previous);
  // The browser opens with one blank page: the first window.
  const page = !first.isClosed() && !opened.has(first) ? first : await context.newPage();
  opened.set(page, url);
  const wb = new Workbench(page, ctx.artifacts);
  // A window that never loaded is closed here: the spec's after hook has no window to pass on.
  await wb.open(url).catch(async (error: unknown) => {
    await closeWindow(page);
    throw error;
  });
  return { page, wb };
}

/**
 * The end of a spec file's use of its window (its after hook): put back as found
 * (Workbench.leaveAsFound) and kept for the next spec when it is so, else closed. `keep: false`
 * closes it as it is (a window no other spec shares).
 */
export async function passOn(win: SpecWindow | undefined, options: { keep?: boolean } = {}): Promise<void> {
  if (win === undefined || win.page.isClosed()) return;
  const keep = options.keep !== false;
  if (keep) await win.wb.leaveAsFound();
  const url = opened.get(win.page);
  if (keep && url !== undefined && (await isAsFound(win.wb))) {
    kept.set(url, win.page);
    return;
  }
  console.log('      [e2e time] the window is not as found (or not for passing on): closed');
  await closeWindow(win.page);
}

/** After the last spec: every window and the browser closed. */
export async function closeBrowser(): Promise<void> {
  if (browser === undefined) return;
  const launched = await browser.catch(() => undefined);
  browser = undefined;
  kept.clear();
  await launched?.context.close().catch(() => undefined);
}

export interface UseWorkbench {
  /** Before the window opens: what the spec reads from the sandbox (its accounts, groups, tasks). */
  prepare?: (info: SandboxInfo, ctx: E2eContext) => void | Promise<void>;
  /** The window, once it is open (or passed on): the spec keeps its `page` and `wb`. */
  opened: (win: SpecWindow, ctx: E2eContext) => unknown;
  /** The name a failed step's screenshot starts with (the spec's name by default). */
  shots?: string;
  /** Open at this address (the journey's by default), or always load a new window. */
  url?: (ctx: E2eContext) => string;
  fresh?: boolean;
  /** Before the window is passed on (after the last step), and whether it may be kept for the next spec. */
  leaving?: () => Promise<void>;
  keep?: boolean;
}

/**
 * One spec file's workbench window: its `before` (the sandbox read first, then the window the spec
 * before passed on, or a new one), a screenshot of each failed step, and its `after` that passes the
 * window on. Called inside the spec's describe; mocha runs hooks in order, so the spec's own
 * `before` hooks after this call find the window open.
 */
export function useWorkbench(spec: string, options: UseWorkbench): void {
  let win: SpecWindow | undefined;
  before(async () => {
    const ctx = e2e();
    await options.prepare?.(sandboxInfo(), ctx);
    win = await openWindow(ctx, spec, { url: options.url?.(ctx), fresh: options.fresh });
    await options.opened(win, ctx);
  });
  afterEach(async function () {
    await win?.wb.screenshotIfFailed(options.shots ?? spec, this.currentTest);
  });
  after(async () => {
    await options.leaving?.();
    await passOn(win, { keep: options.keep });
  });
}
