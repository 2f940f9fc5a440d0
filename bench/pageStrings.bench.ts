/**
 * What the analytics page's strings cost (issue 11 item 6), in a German window:
 * - the host building the table (every entry through the translator; here the German bundle as a
 *   map, standing in for vscode.l10n.t) and writing it into the HTML, each time a panel is opened;
 * - the bytes that adds to the page's HTML (read before the first paint);
 * - the page reading it back: JSON.parse of the attribute + zod + the per-entry placeholder check,
 *   on its boot path before the first paint.
 * Median of many runs after a warm-up. `vscode` is a stand-in (bench/fixtures/fake-vscode.cjs).
 */
import { readFileSync } from 'node:fs';
import Module from 'node:module';
import { join } from 'node:path';

import { PAGE_STRINGS, pageStringsFrom } from '../src/analytics/model/pageStrings';
import { renderPageHtml } from '../src/platform/webview/pageHtml';
import { median } from './figures';
import type { BenchRow, BenchSection } from './types';

const RUNS = 200;
const WARM_UP = 20;
const BUILD_MS = 2;
const PARSE_MS = 2;
const ATTR_BYTES = 16_000;

const millis = (ms: number): string => `${ms.toFixed(3)} ms`;

function installVscodeStandIn(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const standIn = require('./fixtures/fake-vscode.cjs') as unknown;
  const loader = Module as unknown as { _load(request: string, ...rest: unknown[]): unknown };
  const original = loader._load.bind(Module);
  loader._load = (request: string, ...rest: unknown[]) => (request === 'vscode' ? standIn : original(request, ...rest));
}

function timed(fn: () => void): number[] {
  for (let i = 0; i < WARM_UP; i++) fn();
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
  return out;
}

export default async function run(): Promise<BenchSection> {
  installVscodeStandIn();
  // Loaded after the stand-in: the host module imports vscode.
  const { translatedPageStrings } =
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('../src/analytics/host/translatePage') as typeof import('../src/analytics/host/translatePage');
  const de = new Map(
    Object.entries(
      JSON.parse(readFileSync(join(process.cwd(), 'l10n', 'bundle.l10n.de.json'), 'utf8')) as Record<string, string>,
    ),
  );
  const german = (m: string): string => de.get(m) ?? m;
  const resources = {
    cspSource: 'https://x.vscode-cdn.net',
    scriptUri: 'https://x/analytics.js',
    styleUri: 'https://x/analytics.css',
    title: 'Aufgabenanalyse',
    lang: 'de',
  };

  const strings = translatedPageStrings(german);
  const withTable = renderPageHtml({ ...resources, strings }, 'n');
  const without = renderPageHtml(resources, 'n');
  const added = Buffer.byteLength(withTable) - Buffer.byteLength(without);
  // An English window: the same table built through the translator that changes nothing.
  const englishStrings = translatedPageStrings((m: string): string => m);
  const englishAdded =
    Buffer.byteLength(
      renderPageHtml({ ...resources, lang: 'en', title: 'Task Analytics', strings: englishStrings }, 'n'),
    ) - Buffer.byteLength(renderPageHtml({ ...resources, lang: 'en', title: 'Task Analytics' }, 'n'));
  const attribute = /data-l10n="([^"]*)"/.exec(withTable)?.[1] ?? '';
  const json = attribute
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

  const build = timed(() => {
    renderPageHtml({ ...resources, strings: translatedPageStrings(german) }, 'n');
  });
  const parse = timed(() => {
    pageStringsFrom(JSON.parse(json));
  });
  const b = median(build);
  const p = median(parse);
  const total = Object.keys(PAGE_STRINGS).length;
  const rows: BenchRow[] = [
    {
      name: `Host: build the German table (${total} entries) and the HTML`,
      value: millis(b),
      against: `bound ${BUILD_MS} ms`,
      ratio: b / BUILD_MS,
      target: '≤ 1.00 x',
      pass: b <= BUILD_MS,
    },
    {
      name: '  spread over the runs (min – max)',
      value: `${millis(Math.min(...build))} – ${millis(Math.max(...build))}`,
    },
    {
      name: 'HTML added by the table (German, entries that differ from English)',
      value: `${(added / 1000).toFixed(1)} KB`,
      against: `bound ${ATTR_BYTES / 1000} KB`,
      ratio: added / ATTR_BYTES,
      target: '≤ 1.00 x',
      pass: added <= ATTR_BYTES,
    },
    {
      name: `  entries sent: ${Object.keys(strings).length} of ${total} in German; in English ${Object.keys(englishStrings).length}`,
      value: `${(englishAdded / 1000).toFixed(1)} KB in English`,
      against: `${englishAdded} bytes`,
      target: '0 bytes',
      pass: englishAdded === 0 && Object.keys(englishStrings).length === 0,
    },
    {
      name: 'Page: parse the table before the first paint (JSON + zod + placeholder check)',
      value: millis(p),
      against: `bound ${PARSE_MS} ms`,
      ratio: p / PARSE_MS,
      target: '≤ 1.00 x',
      pass: p <= PARSE_MS,
    },
    {
      name: '  spread over the runs (min – max)',
      value: `${millis(Math.min(...parse))} – ${millis(Math.max(...parse))}`,
    },
  ];
  return {
    title: 'Analytics page strings (German window)',
    rows,
    notes: [
      `median of ${RUNS} runs after ${WARM_UP} warm-up runs, in Node (the page's parse runs in Chromium's V8 too)`,
    ],
  };
}
