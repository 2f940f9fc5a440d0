// `npm start -- --smoke`: proves the demo a user would open really works, without a person.
// Checks that the workbench is behind the login (without the password it is not served), logs in
// with the password as a user would, opens the Scrapedeck view (which activates the
// extension, as a click would), and waits until the extension host's own log says Scrapedeck was
// activated without an error of its own. Resolves to what it saw; throws with the reason otherwise.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { launchBrowser } from './browser.mjs';
import { waitFor } from './proc.mjs';

const EXTENSION_ID = 'scrapedeck.scrapedeck';

function findFiles(dir, test, out = []) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) findFiles(full, test, out);
    else if (test(entry.name)) out.push(full);
  }
  return out;
}

/** Every (remote)exthost.log of the run, concatenated (code-server writes one per window session). */
function extensionHostLog(run) {
  return findFiles(path.join(run.ud, 'logs'), (name) => name.endsWith('exthost.log'))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
}

/**
 * @param {{ url: string, run: { ud: string, profile: string, logs: string }, password?: string, timeoutMs?: number }} options
 * @returns {Promise<{ activation: string, view: string, login: string, screenshot: string }>}
 */
export async function smokeCheck({ url, run, password, timeoutMs = 120_000 }) {
  const browser = await launchBrowser(run.profile);
  try {
    const { page } = browser;
    let login = 'no password asked (none set)';
    if (password) {
      // Without the password the workbench is not served: the address leads to the login page.
      const denied = await fetch(url, { redirect: 'manual' });
      if (denied.status < 300 || denied.status >= 400 || !/\/login/.test(denied.headers.get('location') ?? '')) {
        throw new Error(`the workbench answered without a password (HTTP ${denied.status})`);
      }
      await page.goto(url, { timeout: timeoutMs });
      const field = page.locator('input[name="password"]');
      await field.waitFor({ timeout: timeoutMs });
      await field.fill(password);
      await field.press('Enter');
      await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: timeoutMs });
      login =
        'the workbench asked for its password (HTTP ' + denied.status + ' to /login without it), and opened with it';
    } else {
      await page.goto(url, { timeout: timeoutMs });
    }
    await page.locator('.part.activitybar').waitFor({ timeout: timeoutMs });
    const entry = page
      .locator(
        '.part.activitybar a.action-label[aria-label^="Scrapedeck"], .part.activitybar .action-item[aria-label^="Scrapedeck"] a',
      )
      .first();
    await entry.waitFor({ timeout: timeoutMs });
    await entry.click();
    // Signed out, the Tasks view shows its welcome with the sign-in buttons.
    const welcome = page.locator('.welcome-view-content').filter({ hasText: 'Try the Sandbox' }).first();
    await welcome.waitFor({ timeout: timeoutMs });
    const activation = await waitFor(
      () => {
        const text = extensionHostLog(run);
        const line = text.split('\n').find((l) => l.includes(`_doActivateExtension ${EXTENSION_ID}`));
        if (!line) return undefined;
        const failed = text.split('\n').find((l) => /\[error\]/.test(l) && l.includes(EXTENSION_ID));
        return { line: line.replace(/^.*_doActivateExtension /, '').trim(), failed };
      },
      { timeoutMs, intervalMs: 250, what: 'Scrapedeck activation in the extension host log' },
    ).then(({ line, failed }) => {
      if (failed) throw new Error(`the extension host logged an error for Scrapedeck: ${failed.trim()}`);
      return line;
    });
    const screenshot = path.join(run.logs, 'smoke.png');
    await page.screenshot({ path: screenshot });
    return { activation, view: 'Scrapedeck view open, welcome with sign-in buttons shown', login, screenshot };
  } finally {
    await browser.close();
  }
}
