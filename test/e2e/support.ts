/**
 * What the end-to-end journey needs from its harness (scripts/test-e2e.mjs) and the workbench
 * helpers it drives the real UI with. Only selectors and waits here; the journey says what happens.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';

import { type BrowserContext, chromium, type FrameLocator, type Locator, type Page } from 'playwright-core';

import { revealRow } from './sideBarTree';
import { UI_TIMEOUT, until, waitUntil } from './waits';

export interface RunFolders {
  dir: string;
  ud: string;
  ext: string;
  ws: string;
  logs: string;
  profile: string;
}

export interface E2eContext {
  origin: string;
  workbenchUrl: string;
  run: RunFolders;
  settingsFile: string;
  settings: Record<string, unknown>;
  artifacts: string;
  sandboxLog: string;
  codeServerLog: string;
  /**
   * The test tiers' Chromium: its binary, flags, and the script run in each document first (the
   * benchmarks give none: they time the workbench as users see it).
   */
  chromium: { executablePath: string; args: string[]; initScript?: string };
  /** A second code-server with workspace trust on: its folder opens in Restricted Mode. */
  restricted: { workbenchUrl: string; run: RunFolders };
  /**
   * The sandbox's run clock (scripts/test-e2e.mjs): a run waits `queueSeconds`, then extracts for
   * `runSeconds`; a run of a task named in `watched` (one a step watches from queued to its end)
   * takes the seconds given there.
   */
  runClock: {
    queueSeconds: number;
    runSeconds: number;
    watched: { queueSeconds: number; runSeconds: number; tasks: string[] };
  };
  /** Keys bound in both code-servers' keybindings.json for housekeeping, as Playwright names them. */
  keys: { clearNotifications: string };
}

export interface SandboxAccount {
  username: string;
  password: string;
  apiKey: string;
  plan: string;
  team: string[];
  apps: string[];
}

export interface SandboxInfo {
  baseUrl: string;
  datahubUrl: string;
  accounts: SandboxAccount[];
}

function fromEnv<T>(name: string): T {
  const text = process.env[name];
  if (!text) throw new Error(`${name} is not set: run the journey with \`npm run test:e2e\``);
  return JSON.parse(text) as T;
}

export const e2e = (): E2eContext => fromEnv<E2eContext>('SCRAPEDECK_E2E_CONTEXT');
export const sandboxInfo = (): SandboxInfo => fromEnv<SandboxInfo>('SCRAPEDECK_E2E_SANDBOX');

/** The seeded account of that username (the sandbox seeds ada, linus, fiona, …). */
export function accountNamed(info: SandboxInfo, username: string): SandboxAccount {
  const a = info.accounts.find((x) => x.username === username);
  assert.ok(a, `the sandbox seeds ${username}`);
  return a;
}

// The one wait of the steps, and the sandbox asked behind the UI, live in waits.ts; every spec
// imports them from here.
export { POLL_MS, sandboxRequest, UI_TIMEOUT, until, type WaitOptions, waitUntil } from './waits';

/** Prints how long a part of the harness (not a step) took: the per-spec costs the tier's reporter sums up. */
export function logTime(what: string, since: number): void {
  console.log(`      [e2e time] ${what}: ${((Date.now() - since) / 1000).toFixed(1)} s`);
}

export async function launch(
  ctx: Pick<E2eContext, 'run' | 'chromium'>,
): Promise<{ context: BrowserContext; page: Page }> {
  const t0 = Date.now();
  const context = await chromium.launchPersistentContext(ctx.run.profile, {
    executablePath: ctx.chromium.executablePath,
    headless: true,
    args: ctx.chromium.args,
    viewport: { width: 1400, height: 900 },
    timeout: 120_000,
  });
  if (ctx.chromium.initScript !== undefined) await context.addInitScript(ctx.chromium.initScript);
  context.setDefaultTimeout(UI_TIMEOUT);
  const page = context.pages()[0] ?? (await context.newPage());
  logTime('browser launched', t0);
  return { context, page };
}

/** In the page: the palette closed, or a command's own box replaced it (its value lost the '>'). */
const PALETTE_GONE = `(() => {
  const widget = document.querySelector('.quick-input-widget');
  const box = widget && widget.querySelector('.quick-input-box input');
  return !widget || widget.style.display === 'none' || !box || !String(box.value).startsWith('>');
})()`;

export class Workbench {
  constructor(
    readonly page: Page,
    private readonly shotsDir: string,
  ) {}

  async open(url: string): Promise<void> {
    const t0 = Date.now();
    await this.page.goto(url, { timeout: 120_000 });
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 120_000 });
    await this.page.locator('.part.activitybar').waitFor();
    logTime('workbench open to ready', t0);
  }

  /** Developer: Reload Window, until the new window's workbench is drawn. */
  async reload(): Promise<void> {
    const loaded = this.page.waitForEvent('load', { timeout: 120_000 });
    await this.runCommand('Developer: Reload Window');
    await loaded;
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 120_000 });
  }

  /** After a failed step: a screenshot named after the spec (`prefix`) and the step, for the artifacts. */
  async screenshotIfFailed(prefix: string, test: { state?: string; title: string } | undefined): Promise<void> {
    if (test?.state !== 'failed') return;
    await this.screenshot(`failed-${prefix}-${(test.title || 'step').replace(/[^a-z0-9]+/gi, '-').slice(0, 50)}`).catch(
      () => undefined,
    );
  }

  /**
   * The window as the next spec expects it (they share one code-server): editors closed, the Tasks
   * tree collapsed, signed out at the welcome, no notification. Best effort: a step that failed may
   * have left anything open.
   */
  async leaveAsFound(): Promise<void> {
    const t0 = Date.now();
    // No tab, no editor: the palette round trip is only for a window with something open.
    if (
      (await this.page
        .locator('.tabs-container .tab')
        .count()
        .catch(() => 1)) > 0
    )
      await this.runCommand('View: Close All Editors').catch(() => undefined);
    await this.openScrapedeck().catch(() => undefined);
    // Only a tree has Collapse All: signed out, or on a Free plan, the view shows its welcome and
    // a click would wait out the whole UI timeout for an action that is not there.
    if (
      (await this.view('Tasks')
        .locator('.monaco-list-row')
        .count()
        .catch(() => 0)) > 0
    )
      await this.viewAction('Tasks', 'Collapse All').catch(() => undefined);
    await this.clearNotifications().catch(() => undefined);
    await this.signedOut().catch(() => undefined);
    await this.clearNotifications().catch(() => undefined);
    logTime('window put back (leaveAsFound)', t0);
  }

  /**
   * Leaves the window signed out. Waits until the Tasks view says which it is (its sign-in welcome,
   * or rows, or a plan's welcome) and signs out only when signed in: signed out, "Scrapedeck: Sign
   * Out" is not in the palette, and looking for it waited out every try of runCommand.
   */
  async signedOut(): Promise<void> {
    await this.openScrapedeck();
    const tasks = this.view('Tasks');
    const signIn = tasks
      .locator('.welcome-view-content .monaco-button')
      .filter({ hasText: 'Sign In with Username and Password' });
    await signIn
      .or(tasks.locator('.monaco-list-row'))
      .or(tasks.locator('.welcome-view-content').filter({ hasText: /plan/ }))
      .first()
      .waitFor();
    if (await signIn.isVisible()) return;
    await this.runCommand('Scrapedeck: Sign Out');
    await signIn.waitFor();
  }

  async screenshot(name: string): Promise<string> {
    const file = path.join(this.shotsDir, `${name}.png`);
    await this.page.screenshot({ path: file });
    return file;
  }

  /** The first steps of a walk: Scrapedeck's view, signed in with the account's password, the group open until `shown` is drawn in it. */
  async signInAndOpenGroup(
    account: { username: string; password: string },
    groupName: string,
    shown: Locator,
  ): Promise<void> {
    await this.openScrapedeck();
    await this.signInWithPassword(account.username, account.password);
    await this.expand(this.row('Tasks', groupName).first(), shown);
  }

  /** Signs in from the Tasks view's welcome with a username and password, then clears the toast. */
  async signInWithPassword(username: string, password: string): Promise<void> {
    // From the welcome, whatever the spec before left (its own clean-up may have failed with it).
    await this.signedOut();
    await this.view('Tasks')
      .locator('.welcome-view-content .monaco-button')
      .filter({ hasText: 'Sign In with Username and Password' })
      .click();
    await this.answerInput('Sign In to Scrapedeck (1/2)', username);
    await this.answerInput('Sign In to Scrapedeck (2/2)', password);
    await this.notification(`Signed in to Scrapedeck as ${username}`).waitFor();
    await this.clearNotifications();
  }

  /** Signs in from the Tasks view's welcome with an API key and the account's label. */
  async signInWithApiKey(apiKey: string, label: string): Promise<void> {
    await this.signedOut(); // from the welcome, as signInWithPassword
    await this.clearNotifications();
    await this.view('Tasks')
      .locator('.welcome-view-content .monaco-button')
      .filter({ hasText: 'Sign In with API Key' })
      .click();
    await this.answerInput('Sign In to Scrapedeck with an API Key (1/2)', apiKey);
    await this.answerInput('Sign In to Scrapedeck with an API Key (2/2)', label);
    await this.notification(`Signed in to Scrapedeck with ${label}`).waitFor();
  }

  /** The Scrapedeck entry of the activity bar. */
  activityEntry(): Locator {
    return this.page
      .locator(
        '.part.activitybar a.action-label[aria-label^="Scrapedeck"], .part.activitybar .action-item[aria-label^="Scrapedeck"] a',
      )
      .first();
  }

  async openScrapedeck(): Promise<void> {
    const sidebar = this.page.locator('.part.sidebar');
    const title = sidebar.locator('.composite.title .title-label, .title-label').filter({ hasText: /scrapedeck/i });
    // The list item, not its label: a badge (task health's count) covers the label's centre.
    if (!(await title.isVisible().catch(() => false)))
      await this.activityEntry().locator('xpath=ancestor::li[1]').click();
    await title.first().waitFor();
  }

  /** One view (pane) of the side bar, by its name. */
  view(name: string): Locator {
    return this.page
      .locator('.part.sidebar .pane')
      .filter({ has: this.page.locator(`.pane-header[aria-label^="${name}"]`) });
  }

  /** A row of a view's tree whose text contains `text`. */
  row(viewName: string, text: string | RegExp): Locator {
    return this.view(viewName).locator('.monaco-list-row').filter({ hasText: text });
  }

  /**
   * Expands a tree row until `child` shows. A tree that redraws (health arriving after sign-in)
   * can swallow the click, or replace the row before the click lands: read the row's
   * aria-expanded each time, so a row that did expand is never clicked shut again.
   */
  async expand(row: Locator, child: Locator): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.reveal(row);
        if ((await row.getAttribute('aria-expanded', { timeout: 10_000 })) !== 'true')
          await row.click({ timeout: 10_000 });
        await child.waitFor({ state: 'attached', timeout: 5_000 }).catch(() => this.reveal(child));
        await child.waitFor({ timeout: 5_000 });
        return;
      } catch (e) {
        if (attempt >= 6) throw e;
      }
    }
  }

  /**
   * Scrolls the side bar's trees until `row` is drawn and clear of the tree's sticky headers
   * (sideBarTree.ts).
   */
  async reveal(row: Locator): Promise<void> {
    await revealRow(this.page, row);
    await this.moveAway();
  }

  /**
   * A task's row in the Tasks view, by the accessible label the view gives it ("Task <name>, in
   * group …"); the first drawn, for a task listed under "Needs attention" too.
   */
  taskRow(name: string): Locator {
    return this.view('Tasks')
      .locator(`.monaco-list-row[aria-label^="Task ${name.replace(/["\\]/g, '\\$&')},"]`)
      .first();
  }

  /** Hovers the view's header and clicks one of its title actions, by its title. */
  async viewAction(viewName: string, actionTitle: string): Promise<void> {
    const view = this.view(viewName);
    await view.locator('.pane-header').hover();
    await view.locator(`.pane-header .actions a.action-label[aria-label="${actionTitle}"]`).click();
  }

  /**
   * Right-clicks a tree row until its context menu shows `item`, and returns that item. A tree that
   * redraws (health arriving after sign-in, a run's state) can swallow the right-click, leaving no
   * menu, or draw the row's group again collapsed, taking the row away: close whatever opened,
   * expand the row's parent again (as found on the first try) and click again.
   */
  async openContextMenu(row: Locator, item: string): Promise<Locator> {
    const menuItem = this.page
      .locator('.context-view .monaco-menu .action-item a.action-menu-item')
      .filter({ hasText: item })
      .first();
    let parent: Locator | undefined;
    for (let attempt = 1; ; attempt++) {
      try {
        if (parent !== undefined && !(await row.isVisible().catch(() => false))) await this.expand(parent, row);
        await this.reveal(row);
        parent ??= await this.parentRow(row);
        await row.click({ button: 'right', timeout: 10_000 });
        await menuItem.waitFor({ timeout: 5_000 });
        return menuItem;
      } catch (e) {
        if (attempt >= 6) throw e;
        await this.page.keyboard.press('Escape');
      }
    }
  }

  /**
   * The row one level above `row` in its tree (a task's group, or "Needs attention"), as a locator
   * that finds it again after a redraw: by the first part of its accessible label (its name; what
   * follows ", " changes as counts and states arrive). Undefined for a top-level row or one not drawn.
   */
  async parentRow(row: Locator): Promise<Locator | undefined> {
    const label = await row
      .evaluate(
        (el) => {
          const level = Number(el.getAttribute('aria-level'));
          const index = Number(el.getAttribute('data-index'));
          if (!(level > 1) || !Number.isFinite(index)) return undefined;
          let parentLabel: string | undefined;
          let parentIndex = -1;
          for (const r of Array.from(el.parentElement?.children ?? []) as (typeof el)[]) {
            const i = Number(r.getAttribute('data-index'));
            if (i < index && i > parentIndex && Number(r.getAttribute('aria-level')) === level - 1) {
              parentIndex = i;
              parentLabel = r.getAttribute('aria-label') ?? undefined;
            }
          }
          return parentLabel;
        },
        undefined,
        { timeout: 5_000 },
      )
      .catch(() => undefined);
    if (!label) return undefined;
    const name = (label.split(', ')[0] ?? label).replace(/["\\]/g, '\\$&');
    // Rows of the list itself, not the sticky header's copy of a parent scrolled past.
    return this.page
      .locator(
        `.part.sidebar .monaco-list-rows > .monaco-list-row[aria-label="${name}"], .part.sidebar .monaco-list-rows > .monaco-list-row[aria-label^="${name}, "]`,
      )
      .first();
  }

  /** Opens a row's context menu and chooses `item`. */
  async contextMenu(row: Locator, item: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const menuItem = await this.openContextMenu(row, item);
      try {
        // The menu ignores a mouse-up that comes right after it opened; hovering focuses the item
        // and Enter runs it, as a keyboard user would. Enter goes through the item itself: a menu
        // that a redrawing tree closed first makes it fail here (and the menu is opened again)
        // instead of landing on the tree row (seen once: the group's analytics never opened).
        await menuItem.hover({ timeout: 5_000 });
        await this.page
          .locator('.context-view .monaco-menu .action-item.focused')
          .filter({ hasText: item })
          .waitFor({ timeout: 5_000 });
        await menuItem.press('Enter', { timeout: 5_000 });
        await menuItem.waitFor({ state: 'detached' });
        break;
      } catch (e) {
        if (attempt >= 3 || !(await menuItem.isHidden())) throw e;
      }
    }
    await this.moveAway();
  }

  /** Moves the pointer off the side bar, so a row's hover (a long tooltip) does not cover what is clicked next. */
  async moveAway(): Promise<void> {
    await this.page.mouse.move(900, 700);
  }

  /**
   * Hovers `row` until the tooltip holding `text` shows: a row drawn again under the pointer (a run
   * state or a count arriving) cancels VS Code's hover, so the pointer leaves and comes back.
   */
  async tooltip(row: Locator, text: string): Promise<Locator> {
    const hover = this.page.locator('.monaco-hover, .workbench-hover').filter({ hasText: text }).first();
    await until(`the tooltip with "${text}"`, async () => {
      await this.moveAway();
      await row.hover();
      return hover.waitFor({ timeout: 3_000 }).then(
        () => true,
        () => false,
      );
    });
    return hover;
  }

  /** Hovers a tree row and clicks one of its inline actions, by its title. */
  async inlineAction(row: Locator, actionTitle: string): Promise<void> {
    // Inline actions show only under the pointer, and a tree that redraws (health, run state)
    // replaces the row: hover again before each try instead of waiting on a detached element.
    const action = row.locator(`.actions a.action-label[aria-label="${actionTitle}"]`);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.reveal(row);
        await row.hover({ timeout: 10_000 });
        await action.click({ timeout: 5_000 });
        await this.moveAway();
        return;
      } catch (e) {
        if (attempt >= 6) throw e;
      }
    }
  }

  quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  /** Waits for a quick input whose title contains `title`, types `text` and presses Enter. */
  async answerInput(title: string | RegExp, text: string): Promise<void> {
    const widget = this.quickInput();
    await widget.locator('.quick-input-title').filter({ hasText: title }).waitFor();
    const input = widget.locator('.quick-input-box input');
    await input.fill(text);
    await input.press('Enter');
    await widget.locator('.quick-input-title').filter({ hasText: title }).waitFor({ state: 'hidden' });
  }

  /**
   * Picks the open quick pick's item with this label as a keyboard user does: types it (the list
   * narrows to it), waits until it is the active row, and presses Enter. A click can miss a list
   * that is drawn again while the picker settles; Enter takes whatever row is active. A picker can
   * also close when an editor or webview finishing its load takes the focus (a Markdown preview
   * does): `reopen` opens it again, at most twice. `typed` is what to type when it is not the
   * label itself (a command in the palette: `>` and its title).
   */
  async pickItem(label: string, options: { typed?: string; reopen?: () => Promise<void> } = {}): Promise<void> {
    const { typed = label, reopen } = options;
    const box = this.quickInput().locator('.quick-input-box input');
    const active = this.quickInput().locator('.quick-input-list .monaco-list-row.focused');
    for (let attempt = 1; ; attempt++) {
      try {
        await box.fill(typed, { timeout: 10_000 });
        await waitUntil(
          `“${label}” as the picker's active row`,
          async () => (await active.innerText({ timeout: 1_000 })).includes(label),
          { timeoutMs: 15_000 },
        );
        await box.press('Enter', { timeout: 5_000 });
        return;
      } catch (error) {
        if (reopen === undefined || attempt >= 3) throw error;
        await this.page.keyboard.press('Escape');
        await reopen();
      }
    }
  }

  /**
   * Drags `source` onto `target` until `done` shows, at most three times. Under load a drop can be
   * lost: the drag then never ends, and the page takes no key or click until it does, so a lost
   * one is ended (button up, Escape) before the next try. `done` must be what the drop does.
   */
  async dragOnto(source: Locator, target: Locator, done: Locator): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await source.dragTo(target);
      const dropped = await done.waitFor({ timeout: 10_000 }).then(
        () => true,
        () => false,
      );
      if (dropped) return;
      await this.page.mouse.up().catch(() => undefined);
      await this.page.keyboard.press('Escape');
      // A drop that landed late still counts; only a lost one is tried again.
      if (
        await done.waitFor({ timeout: 2_000 }).then(
          () => true,
          () => false,
        )
      )
        return;
      if (attempt >= 3)
        throw new Error(`the drop never took effect after ${attempt} drags (waited for ${String(done)})`);
    }
  }

  /** Shows the Explorer in the side bar and waits until its title is there. */
  async showExplorer(): Promise<void> {
    await this.runCommand('View: Show Explorer');
    await this.page
      .locator('.part.sidebar .title-label')
      .filter({ hasText: /explorer/i })
      .first()
      .waitFor();
  }

  /** Runs a command from the command palette by its title ("Scrapedeck: Sign Out"). */
  async runCommand(title: string): Promise<void> {
    const input = this.quickInput().locator('.quick-input-box input');
    const row = this.quickInput().locator('.quick-input-list .monaco-list-row').filter({ hasText: title }).first();
    // The palette can close again right after F1, or between typing and the click, when an editor
    // or a webview becoming active at that moment (a walkthrough, a restored panel) takes the
    // focus; it is then inert or hidden. Open it again. A click that timed out never happened, so
    // the command has not run. The palette shows within a moment of F1: one that closed again is
    // opened again after 4 s, not 10 (the later tries keep the 10 s a loaded machine may need).
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press('F1');
      try {
        await input.fill(`>${title}`, { timeout: attempt <= 2 ? 4_000 : 10_000 });
        await row.click({ timeout: 15_000 });
        break;
      } catch (error) {
        if (attempt >= 4) throw error;
        await this.page.keyboard.press('Escape');
      }
    }
    // Done when the palette is gone, or a command's own box took its place (no '>' any more).
    await this.page.waitForFunction(PALETTE_GONE, undefined, { timeout: 15_000 }).catch(() => undefined);
  }

  /** "Preferences: Color Theme", as a user switches themes (the choice lands in settings.json). */
  async setColorTheme(label: string): Promise<void> {
    await this.page.keyboard.press('F1');
    const palette = this.quickInput().locator('.quick-input-box input');
    await palette.fill('>Preferences: Color Theme');
    await this.quickInput()
      .locator('.quick-input-list .monaco-list-row')
      .filter({ hasText: /^Preferences: Color Theme/ })
      .first()
      .click();
    const input = this.quickInput().locator('.quick-input-box input[placeholder*="Color Theme"]');
    await input.fill(label);
    await this.quickInput().locator('.quick-input-list .monaco-list-row').filter({ hasText: label }).first().click();
    await this.quickInput().waitFor({ state: 'hidden' });
  }

  /** A notification toast containing `text`. */
  notification(text: string | RegExp): Locator {
    return this.page
      .locator('.notifications-toasts .notification-toast, .notification-list-item')
      .filter({ hasText: text })
      .first();
  }

  /**
   * Dismisses every visible notification toast (so the next one is the one looked for). One can
   * arrive just after Clear All (health's "tasks need attention" follows a sign-in): it is cleared
   * too, instead of waiting for it to hide by itself (~12 s). A progress toast stays until its work ends.
   */
  async clearNotifications(): Promise<void> {
    const toasts = this.page.locator('.notifications-toasts .notification-toast');
    let tries = 0;
    await waitUntil('no notification toast', async () => {
      if ((await toasts.count()) === 0) return true;
      // Its key (scripts/test-e2e.mjs binds one), and every other time the Command Palette, should
      // the key not reach the workbench.
      if (tries++ % 2 === 0) await this.page.keyboard.press(e2e().keys.clearNotifications);
      else await this.runCommand('Notifications: Clear All Notifications');
      // Cleared toasts go within ~0.1 s: one still there after a second came later, or is progress.
      return toasts
        .first()
        .waitFor({ state: 'detached', timeout: 1_000 })
        .then(
          () => true,
          () => false,
        );
    });
  }

  /** The labels of the modal dialog's buttons, sorted (their order on screen is the platform's). */
  async dialogButtonLabels(): Promise<string[]> {
    const buttons = this.page.locator(
      '.monaco-dialog-box .dialog-buttons a.monaco-button, .monaco-dialog-box .dialog-buttons button',
    );
    await buttons.first().waitFor();
    return (await buttons.allInnerTexts()).map((label) => label.trim()).sort();
  }

  /** The modal dialog's button with this label. */
  dialogButton(label: string): Locator {
    return this.page
      .locator('.monaco-dialog-box .dialog-buttons a.monaco-button, .monaco-dialog-box .dialog-buttons button')
      .filter({ hasText: label })
      .first();
  }

  /** The content of the (single) webview panel: two iframes deep. */
  webview(): FrameLocator {
    return this.page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
  }
}
