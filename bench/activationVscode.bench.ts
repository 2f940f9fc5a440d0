/**
 * Activation as VS Code records it, in a real workbench (the packaged .vsix in code-server,
 * headless Chromium, a sandbox): five window reloads that restore an analytics panel (Scrapedeck
 * activated at start-up by the panel, alongside the other extensions), then five where the
 * Explorer shows and a palette command activates it once the start-up settled. Each time: the
 * figure of Developer: Show Running Extensions, and the extension host's own account of the
 * activation (its event, and whether at start-up: test/e2e/activationLog.ts). Every figure, with
 * every extension's for context, goes to artifacts/bench/activation-reloads.txt. Moved here from
 * the end-to-end run, where ten reloads took over five minutes and measured, not checked.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import * as path from 'node:path';

import { type HostActivation, scrapedeckActivations } from '../test/e2e/activationLog';
import { waitUntil, type Workbench } from '../test/e2e/support';
import { isSandboxChild, startChildSandbox } from './childSandbox';
import { measureCase, medianOf, missed } from './judge';
import type { BenchRow, BenchSection } from './types';
import { openWorkbench, type WorkbenchSession } from './workbenchSession';

isSandboxChild();

const RELOADS = Number(process.env.ACTIVATION_RELOADS ?? 5);
const PANEL_EVENT = 'onWebviewPanel:scrapedeck.analytics';

/** "123ms" / "1.2s" / "1,234 ms" -> milliseconds; undefined when the text holds no time. */
export function millis(text: string): number | undefined {
  const m = /([\d.,]+)\s*(ms|s)\b/.exec(text);
  if (!m) return undefined;
  const value = Number((m[1] as string).replace(/,/g, ''));
  return m[2] === 's' ? value * 1000 : value;
}

/** Developer: Show Running Extensions, read and closed: Scrapedeck's figure, and every row's for context. */
async function recordedActivation(wb: Workbench): Promise<{ ours: string; ms: number | undefined; all: string }> {
  const page = wb.page;
  await wb.runCommand('Developer: Show Running Extensions');
  const rows = page.locator('.runtime-extensions-editor .monaco-list-row');
  const ours = rows.filter({ hasText: 'Scrapedeck' }).first();
  await rows.first().waitFor();
  // The list is virtual and sorted slowest first: scroll until Scrapedeck's row is drawn.
  const list = page.locator('.runtime-extensions-editor .monaco-list').first();
  await waitUntil('Scrapedeck in Running Extensions', async () => {
    if (await ours.isVisible()) return true;
    await list.hover();
    await page.mouse.wheel(0, 200);
    return false;
  });
  await ours.locator('.activation-time').first().waitFor();
  const text = (await ours.locator('.activation-time').first().innerText()).trim();
  const reason = (
    await ours
      .locator('.activation-reason, .msg-label')
      .allInnerTexts()
      .catch(() => [])
  )
    .join(' ')
    .trim();
  const all: string[] = [];
  for (const row of await rows.all()) {
    const name = (
      await row
        .locator('.name')
        .first()
        .innerText()
        .catch(() => '?')
    ).trim();
    const time = (
      await row
        .locator('.activation-time')
        .first()
        .innerText()
        .catch(() => '')
    ).trim();
    if (time) all.push(`${name} ${time.replace(/^.*?(\d+ms)$/, '$1')}`);
  }
  await page.keyboard.press('Control+W');
  return { ours: `${text}${reason ? ` (${reason})` : ''}`, ms: millis(text), all: all.join(', ') };
}

/** The Running Extensions list stops changing: the window's start-up activations are over. */
async function settled(wb: Workbench): Promise<void> {
  await wb.runCommand('Developer: Show Running Extensions');
  const times = wb.page.locator('.runtime-extensions-editor .monaco-list-row .activation-time');
  await times.first().waitFor();
  let last = '';
  let same = 0;
  await waitUntil(
    'the running extensions to settle',
    async () => {
      const now = (await times.allInnerTexts()).join('|');
      same = now === last ? same + 1 : 0;
      last = now;
      return same >= 3;
    },
    { intervalMs: 500 },
  );
  await wb.page.keyboard.press('Control+W');
}

/**
 * Show Log leaves the keyboard in the Output panel, on Scrapedeck's channel. Waiting for that keeps
 * the next palette from opening while the panel still takes the focus (it would close it again).
 */
async function logFocused(wb: Workbench): Promise<void> {
  await wb.page.waitForFunction(
    `(() => {
      const panel = document.querySelector('.part.panel');
      const active = document.activeElement;
      if (!panel || !active || !panel.contains(active)) return false;
      const tab = panel.querySelector('.composite-bar .action-item.checked');
      const channel = panel.querySelector('select.monaco-select-box');
      const chosen = channel ? channel.options[channel.selectedIndex]?.textContent ?? '' : '';
      return /Output/.test(tab?.textContent ?? tab?.getAttribute('aria-label') ?? '') && (channel === null || chosen.includes('Scrapedeck'));
    })()`,
    undefined,
    { timeout: 30_000 },
  );
}

/** The host log's entry of the latest window: what activated Scrapedeck, and whether at start-up. */
function latestHost(session: WorkbenchSession, seen: number): HostActivation | undefined {
  const hosts = scrapedeckActivations(session.run.ud);
  return hosts.length > seen ? hosts[hosts.length - 1] : undefined;
}

interface Series {
  times: number[];
  events: string[];
  figures: string[];
}

async function restoredPanel(session: WorkbenchSession): Promise<Series> {
  const wb = session.wb;
  const out: Series = { times: [], events: [], figures: [] };
  await wb.runCommand('Scrapedeck: Open Task Analytics');
  await wb.webview().locator('#run').waitFor();
  // The Explorer in the side bar: the panel is all of Scrapedeck on screen after each reload.
  await wb.runCommand('View: Show Explorer');
  for (let i = 1; i <= RELOADS; i++) {
    const hostsBefore = scrapedeckActivations(session.run.ud).length;
    await wb.reload();
    // Restored by Scrapedeck's serializer, whose proxy loads the rest on that call: the page is back.
    await wb.webview().locator('#run').waitFor({ timeout: 120_000 });
    const { ours, ms, all } = await recordedActivation(wb);
    const host = latestHost(session, hostsBefore);
    if (ms !== undefined) out.times.push(ms);
    out.events.push(host?.event ?? 'no activation in the host log');
    out.figures.push(
      `restore ${i}: ${ours}; host: ${host?.event ?? '?'}, began alongside: ${host?.alongside.join(', ') || 'nothing'}; all: ${all}`,
    );
  }
  return out;
}

async function paletteCommand(session: WorkbenchSession): Promise<Series> {
  const wb = session.wb;
  const out: Series = { times: [], events: [], figures: [] };
  await wb.runCommand('View: Close All Editors');
  await wb.page.locator('.tabs-container .tab').first().waitFor({ state: 'detached' });
  await wb.runCommand('View: Show Explorer');
  for (let i = 1; i <= RELOADS; i++) {
    const hostsBefore = scrapedeckActivations(session.run.ud).length;
    await wb.reload();
    await wb.activityEntry().waitFor();
    await settled(wb);
    const activeBefore = latestHost(session, hostsBefore);
    await wb.runCommand('Scrapedeck: Show Log');
    await logFocused(wb);
    const { ours, ms, all } = await recordedActivation(wb);
    const host = latestHost(session, hostsBefore);
    if (ms !== undefined) out.times.push(ms);
    // Activated before the command (at start-up, with the Explorer showing) is what this case rules out.
    out.events.push(
      activeBefore ? `already active: ${activeBefore.event}` : (host?.event ?? 'no activation in the host log'),
    );
    out.figures.push(
      `command ${i}: ${ours}; host: ${host?.event ?? '?'}, began alongside: ${host?.alongside.join(', ') || 'nothing'}; all: ${all}`,
    );
  }
  return out;
}

/** A series' rows: the median as context, and whether every reload was measured with the expected event. */
export function seriesRows(
  label: string,
  s: Series,
  expected: (event: string) => boolean,
  expectedText: string,
): BenchRow[] {
  const median = medianOf(s.times);
  const wrong = s.events.filter((e) => !expected(e));
  return [
    median === undefined
      ? missed(`${label}: VS Code's recorded activation, median of ${RELOADS}`, 'no reload gave a figure')
      : {
          name: `${label}: VS Code's recorded activation, median of ${RELOADS}`,
          value: `${median.toFixed(0)} ms`,
          against: `spread ${Math.min(...s.times)} – ${Math.max(...s.times)} ms`,
        },
    {
      name: `  reloads measured; activated by ${expectedText}`,
      value: `${s.times.length} of ${RELOADS}; ${s.events.length - wrong.length} of ${RELOADS}${wrong.length ? ` (${[...new Set(wrong)].join('; ')})` : ''}`,
      target: `${RELOADS} of ${RELOADS}`,
      pass: s.times.length === RELOADS && s.events.length === RELOADS && wrong.length === 0,
    },
  ];
}

export default async function run(): Promise<BenchSection> {
  const sandbox = await startChildSandbox(__filename, { rateLimit: 20, seed: 7 });
  const rows: BenchRow[] = [];
  const figures: string[] = [];
  let session: WorkbenchSession | undefined;
  try {
    const account = sandbox.info.accounts.find((a) => a.plan !== 'Free');
    if (!account) throw new Error('the sandbox has no paid account');
    session = await openWorkbench('activation', {
      'scrapedeck.baseUrl': sandbox.info.baseUrl,
      'scrapedeck.datahubUrl': sandbox.info.datahubUrl,
    });
    const open = session;
    await open.wb.signInWithApiKey(account.apiKey, 'Activation');
    rows.push(
      ...(await measureCase('Restored analytics panel (start-up, with the other extensions)', async () => {
        const s = await restoredPanel(open);
        figures.push(...s.figures);
        return seriesRows(
          'Restored analytics panel (start-up, with the other extensions)',
          s,
          (e) => e.startsWith(PANEL_EVENT),
          PANEL_EVENT,
        );
      })),
    );
    rows.push(
      ...(await measureCase('Palette command after start-up (Explorer showing)', async () => {
        const s = await paletteCommand(open);
        figures.push(...s.figures);
        return seriesRows(
          'Palette command after start-up (Explorer showing)',
          s,
          (e) => e.startsWith('onCommand:scrapedeck.showLog'),
          'the command, not before it',
        );
      })),
    );
    await open.wb.screenshot('activation-vscode');
  } finally {
    await session?.close();
    await sandbox.close();
  }
  const file = path.resolve('artifacts', 'bench', 'activation-reloads.txt');
  writeFileSync(file, `${figures.join('\n')}\n`);
  return {
    title: 'Activation in the real VS Code (code-server, packaged .vsix): what VS Code records across reloads',
    rows,
    notes: [
      "VS Code's figure (Running Extensions) is code loading + activate(); at start-up it includes the time Scrapedeck's loading waited behind the extensions activated in the same burst (docs/contracts/shell.md, the activation shell)",
      `every reload's figures, the host log's account and every extension's time: ${path.relative(process.cwd(), file)}`,
      `machine load average at the end: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' / ')} (timings inflate with load)`,
    ],
  };
}
