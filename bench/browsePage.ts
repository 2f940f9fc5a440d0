/**
 * The data browser's page (dist/webview/browse.js in the shell the host writes) in headless
 * Chromium, wired to the host's real session (BrowserSession over a RowStore, the code the
 * extension host runs, without VS Code): the page's messages go to the session, the session's
 * posts come back as the webview's messages. Measures what the page costs at a million rows:
 * open to the first rows painted, the frame times of a scroll through every row, and the page's
 * JavaScript heap after it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import type { Page } from 'playwright-core';

import { BrowserSession } from '../src/data/browse/host/session';
import { indexFile } from '../src/data/browse/store/fileIndexer';
import { RecordFile } from '../src/data/browse/store/recordFile';
import { RowStore } from '../src/data/browse/store/rowStore';
import { FIRST_WINDOW_WAIT_MS } from '../src/data/browse/store/sqliteTableStore';
import { renderPageHtml } from '../src/platform/webview/pageHtml';

const { chromium } = createRequire(__filename)('playwright-core') as typeof import('playwright-core');

/**
 * Frames as fast as the page can make them (no wait for the display's 60 Hz tick), so a frame's
 * time is the work in it: the grid's render, style, layout, paint, the rows that arrived.
 */
const UNTHROTTLED = ['--disable-gpu-vsync', '--disable-frame-rate-limit'];

export interface PageFigures {
  firstPaintMs: number;
  /** The first rows were painted before the index was whole (from the first bytes read). */
  paintedBeforeIndexed: boolean;
  /** Frame intervals while the grid was scrolled from the first row to the last. */
  frames: number[];
  /** Rows the scroll passed (the last one painted at the end). */
  lastRowPainted: boolean;
  heapBytes: number;
}

function serve(root: string, title: string): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
    if (url.pathname === '/') {
      const nonce = 'YmVuY2gtbm9uY2U=';
      const html = renderPageHtml(
        { cspSource: origin, scriptUri: `${origin}/browse.js`, styleUri: `${origin}/browse.css`, title, lang: 'en' },
        nonce,
      ).replace(
        '<link rel="stylesheet"',
        `<link rel="stylesheet" href="${origin}/theme.css">\n<script nonce="${nonce}" src="${origin}/fake-vscode.js"></script>\n<link rel="stylesheet"`,
      );
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(html.replace('<body>', '<body class="vscode-dark">'));
      return;
    }
    const files: Record<string, [string, string]> = {
      '/browse.js': ['dist/webview/browse.js', 'text/javascript'],
      '/browse.css': ['media/browse.css', 'text/css'],
      '/theme.css': ['test/page/fixtures/theme.css', 'text/css'],
      '/fake-vscode.js': ['test/page/fixtures/fake-vscode.js', 'text/javascript'],
    };
    const file = files[url.pathname];
    if (file === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': file[1] }).end(readFileSync(join(root, file[0])));
  });
}

export interface OpenPage {
  page: Page;
  session: BrowserSession;
  /** Loads the shell into the page (the webview's first paint starts here). */
  go(): Promise<void>;
  /** What the page threw and what the session logged as a warning or an error. */
  errors: string[];
  close(): Promise<void>;
}

/** The page in headless Chromium, served as the host writes it, talking to a real session over `store`. */
export async function openPage(
  root: string,
  store: RowStore,
  title: string,
  o: { stop?: () => void } = {},
): Promise<OpenPage> {
  if (!existsSync(join(root, 'dist/webview/browse.js'))) throw new Error('dist/webview/browse.js is missing');
  const server = serve(root, title);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const project = (await import(pathToFileURL(join(root, 'scripts', 'lib', 'project.mjs')).href)) as {
    testChromium(): string;
    REDUCED_MOTION_ARGS: string[];
  };
  const browser = await chromium.launch({
    executablePath: process.env['SCRAPEDECK_TEST_CHROMIUM'] ?? project.testChromium(),
    headless: true,
    args: [...project.REDUCED_MOTION_ARGS, '--enable-precise-memory-info', ...UNTHROTTLED],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const session = new BrowserSession(store, {
    title,
    post: (m) =>
      void page
        .evaluate((x) => (globalThis as unknown as { postMessage(v: unknown, o: string): void }).postMessage(x, '*'), m)
        .catch(() => undefined),
    writeClipboard: async () => undefined,
    openLink: async () => undefined,
    exportView: async () => undefined,
    log: (level, message) => void (level !== 'info' && errors.push(message)),
    stop: o.stop,
  });
  await page.exposeFunction('__toHost', (m: unknown) => void session.receive(m));
  return {
    page,
    session,
    go: async () => void (await page.goto(origin)),
    errors,
    close: async () => {
      session.dispose();
      await page.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A cell of the first row holds text: the first rows are painted. */
export const firstRowsPainted = (page: Page, timeout = 30_000): Promise<void> =>
  page.locator('[id^="cell-0-"]').filter({ hasText: /\S/ }).first().waitFor({ timeout });

/**
 * Opens `file` as the custom editor does (`openRowFile` and `attachBrowser`): the file opened, its
 * index built from the first bytes while the page loads (waiting after its first rows until the
 * page's first window was answered), the session told of its progress. The first rows are painted
 * while the index is still being built; the scroll waits for all of it.
 */
export async function measurePage(root: string, file: string, rows: number): Promise<PageFigures> {
  const records = await RecordFile.open(file, 'csv');
  const store = new RowStore(records);
  const opened = await openPage(root, store, 'Rows of big.csv');
  let indexing: Promise<void> | undefined;
  try {
    const p = opened.page;
    // From the file's open and the shell's load: the browser is running already, as VS Code's webview host is.
    const started = performance.now();
    indexing = indexFile(records, {
      onProgress: (x) => opened.session.progress({ loaded: x.rows }),
      firstRowsShown: () => opened.session.firstWindowAnswered(FIRST_WINDOW_WAIT_MS),
    }).then(() => opened.session.progress({ state: 'done', total: records.count }));
    await opened.go();
    await firstRowsPainted(p, 10_000);
    const firstPaintMs = performance.now() - started;
    const paintedBeforeIndexed = records.count < rows;
    await indexing;
    if (records.count !== rows) throw new Error(`indexed ${records.count} rows, not ${rows}`);
    await p.locator(`[role=grid][aria-rowcount="${rows + 1}"]`).waitFor({ timeout: 10_000 });
    // Drag the scroll bar from the first row to the last in 600 frames (about 1,667 rows a frame),
    // timing every frame; then wait for the last row's cells to come and be painted.
    const frames = await p.evaluate(
      async ({ steps }) => {
        type Scroller = { scrollTop: number; scrollHeight: number; clientHeight: number };
        const g = globalThis as unknown as {
          document: { querySelector(s: string): Scroller };
          requestAnimationFrame(cb: () => void): void;
        };
        const scroller = g.document.querySelector('[role=grid]');
        const out: number[] = [];
        let last = performance.now();
        for (let i = 1; i <= steps; i++) {
          scroller.scrollTop = ((scroller.scrollHeight - scroller.clientHeight) * i) / steps;
          await new Promise<void>((resolve) => g.requestAnimationFrame(() => resolve()));
          const now = performance.now();
          out.push(now - last);
          last = now;
        }
        return out;
      },
      { steps: 600 },
    );
    let lastRowPainted = true;
    await p
      .locator(`#cell-${rows - 1}-0`)
      .filter({ hasText: String(rows - 1) })
      .waitFor({ timeout: 10_000 })
      .catch(() => (lastRowPainted = false));
    const cdp = await p.context().newCDPSession(p);
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    if (opened.errors.length > 0) throw new Error(`the page or the session reported: ${opened.errors[0] ?? ''}`);
    return { firstPaintMs, paintedBeforeIndexed, frames, lastRowPainted, heapBytes: usedSize };
  } finally {
    await indexing?.catch(() => undefined);
    await opened.close();
    await store.close();
  }
}
