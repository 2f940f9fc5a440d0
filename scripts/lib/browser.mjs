// Debian's chromium driven by playwright-core: headless, offline-friendly, a fresh profile per run.
import { existsSync } from 'node:fs';

import { chromium } from 'playwright-core';

import { pidsWithArgument, YIELD_ENV, yieldCpu } from './proc.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from './project.mjs';

export { CHROMIUM_ARGS };

/**
 * A persistent context in `profileDir` (fresh per run). Returns { context, page, close() }.
 * Viewport 1400x900 so the sidebar and an editor fit side by side in screenshots. `args` and
 * `executablePath`: chromium's flags and binary (the test tiers pass TEST_CHROMIUM_ARGS and testChromium());
 * `initScript`: run in every document before its own scripts (the test tiers: STILL_INDICATORS_SCRIPT).
 */
export async function launchBrowser(
  profileDir,
  {
    headless = true,
    viewport = { width: 1400, height: 900 },
    args = CHROMIUM_ARGS,
    executablePath = CHROMIUM,
    initScript,
  } = {},
) {
  if (!existsSync(executablePath))
    throw new Error(`chromium not found at ${executablePath} (run scripts/install-vscode.sh)`);
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath,
    headless,
    args,
    viewport,
    timeout: 120_000,
  });
  // Playwright starts Chromium in a session of its own: a stage that yields the CPU lowers it too.
  if (process.env[YIELD_ENV] && process.platform === 'linux') {
    for (const pid of pidsWithArgument(`--user-data-dir=${profileDir}`)) yieldCpu(pid);
  }
  if (initScript !== undefined) await context.addInitScript(initScript);
  const page = context.pages()[0] ?? (await context.newPage());
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await context.close().catch(() => {});
  };
  return { context, page, close };
}
