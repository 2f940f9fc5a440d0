/**
 * The stand-in host for page tests and the page benchmark: a tiny HTTP server on 127.0.0.1:0
 * serving the panel's own HTML (see standInHtml), media/ and dist/webview/, and a headless
 * Debian Chromium driven by playwright-core. Messages are injected with window.postMessage,
 * exactly how the webview receives them from the extension.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

import type { Browser, ConsoleMessage, Page } from 'playwright-core';

import { PAGE_STRINGS } from '../../src/analytics/model/pageStrings';
import { createNonce, pageLang, renderPageHtml } from '../../src/platform/webview/pageHtml';
import { isPlainJson } from './plainJson';

// Loaded at run time, not imported: scripts/bench.mjs bundles bench files with esbuild, and
// playwright-core does not survive bundling (it reads its own package.json from disk).
const { chromium } = createRequire(__filename)('playwright-core') as typeof import('playwright-core');

/** What the stand-in takes from scripts/lib/project.mjs, the harness scripts' one choice of browser. */
interface ProjectBrowser {
  /** The tests' Chromium: the headless shell where it is installed, else the full browser. */
  testChromium(): string;
  CHROMIUM_ARGS: string[];
  /** CHROMIUM_ARGS asking pages for reduced motion. */
  TEST_CHROMIUM_ARGS: string[];
}

/** The repository root, found from this file whether run from out/ (tsc) or out/bench (esbuild). */
export function repoRoot(): string {
  let dir = __dirname;
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'media'))) return dir;
    const up = dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.map': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/**
 * The panel's HTML as renderPageHtml writes it (its CSP, nonce, stylesheet and script), with
 * this server as the webview's resource origin, plus what VS Code adds around a webview: the
 * theme's variables and body class, and acquireVsCodeApi (fixtures/fake-vscode.js). Both extras
 * come after the CSP meta, so the policy covers them too.
 */
function standInHtml(origin: string, theme: string, lang: string | undefined, l10n: string | undefined): string {
  const nonce = createNonce();
  let html = renderPageHtml(
    {
      cspSource: origin,
      scriptUri: `${origin}/dist/webview/analytics.js`,
      styleUri: `${origin}/media/analytics.css`,
      title: 'Task analytics (stand-in host)',
      lang,
      strings: l10n === 'de' ? germanPageStrings() : undefined,
    },
    nonce,
  );
  // A table the host could never write: the page must still come up, in English (and say so in
  // <html lang>, which names `lang` as the host would for the table it meant to send).
  const said = lang === undefined ? '$1' : pageLang(lang);
  if (l10n === 'garbled')
    html = html.replace(/<html lang="([^"]*)"/, `<html lang="${said}" data-l10n="{&quot;form.run&quot;: 7, oops"`);
  if (l10n === 'wrong')
    html = html.replace(/<html lang="([^"]*)"/, `<html lang="${said}" data-l10n="[&quot;Abfrage&quot;]"`);
  const extras = `<link rel="stylesheet" href="/fixtures/theme.css">\n<script nonce="${nonce}" src="/fixtures/fake-vscode.js"></script>\n`;
  return html
    .replace('<link rel="stylesheet"', `${extras}<link rel="stylesheet"`)
    .replace('<body>', `<body class="${theme}">`);
}

/** The page's table as the host builds it in a German VS Code: each entry through l10n/bundle.l10n.de.json. */
export function germanPageStrings(): Record<string, string> {
  const de = JSON.parse(readFileSync(join(repoRoot(), 'l10n', 'bundle.l10n.de.json'), 'utf8')) as Record<
    string,
    string
  >;
  const out: Record<string, string> = {};
  for (const [key, english] of Object.entries(PAGE_STRINGS)) {
    const text = de[english];
    if (text !== undefined && text !== english) out[key] = text;
  }
  return out;
}

export interface StandIn {
  origin: string;
  browser: Browser;
  /**
   * Tabs closed by AnalyticsPage.close and kept for the next open (startStandIn's reusePages);
   * undefined when every page gets a browser context of its own.
   */
  spare?: Page[];
  close(): Promise<void>;
}

/**
 * `reusePages`: a closed page's tab is kept and navigated afresh by the next open instead of a
 * new browser context (a new renderer process) for each. The page keeps nothing across that
 * navigation: it uses no cookies or web storage, and its setState lives in the document. A page
 * opened with an init script or an exposed function (vsState, toHost) is never reused.
 * It also lets the browser cache the page's script and styles (never the HTML or the fixtures),
 * since they do not change while the stand-in runs: Chromium then skips fetching and compiling
 * them again, about 100 ms of every open.
 * `reducedMotion`: the browser asks pages for reduced motion, as the other test tiers' does
 * (TEST_CHROMIUM_ARGS): the spinner shown while a reply is pending then draws no frames (the tier
 * took 136 CPU-s instead of 143-146).
 * The page tier reuses and reduces motion; the benchmarks, which time cold pages as users see
 * them, do neither.
 */
export async function startStandIn(options: { reusePages?: boolean; reducedMotion?: boolean } = {}): Promise<StandIn> {
  const root = repoRoot();
  const assetCache = options.reusePages ? 'max-age=3600' : 'no-store';
  if (!existsSync(join(root, 'dist/webview/analytics.js')))
    throw new Error('dist/webview/analytics.js is missing: run `npm run build`');
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
    if (url.pathname === '/' || url.pathname === '/host.html') {
      const theme = url.searchParams.get('theme') ?? 'vscode-dark';
      const html = standInHtml(
        origin,
        theme.replace(/[^a-z-]/g, ''),
        url.searchParams.get('lang') ?? undefined,
        url.searchParams.get('l10n') ?? undefined,
      );
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html);
      return;
    }
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    const mounts: Record<string, [folder: string, cache: string]> = {
      '/media/': ['media', assetCache],
      '/dist/webview/': ['dist/webview', assetCache],
      '/fixtures/': ['test/page/fixtures', 'no-store'],
    };
    for (const [prefix, [folder, cache]] of Object.entries(mounts)) {
      if (!url.pathname.startsWith(prefix)) continue;
      const base = join(root, folder);
      const file = normalize(join(base, decodeURIComponent(url.pathname.slice(prefix.length))));
      if (!file.startsWith(base + sep) || !existsSync(file)) break;
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': cache,
      });
      res.end(readFileSync(file));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // Loaded at run time (an ES module beside the other scripts), as bench/workbenchSession.ts does.
  const project = (await import(pathToFileURL(join(root, 'scripts', 'lib', 'project.mjs')).href)) as ProjectBrowser;
  const browser = await chromium.launch({
    executablePath: project.testChromium(),
    headless: true,
    args: options.reducedMotion ? project.TEST_CHROMIUM_ARGS : project.CHROMIUM_ARGS,
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    browser,
    spare: options.reusePages ? [] : undefined,
    async close() {
      await browser.close().catch(() => undefined);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface Posted {
  type: string;
  [key: string]: unknown;
}

/** What fixtures/fake-vscode.js keeps on the page's global object (the root tsconfig has no DOM lib). */
export interface PageGlobals {
  __posted: Posted[];
  __vsState: unknown;
  __violations: string[];
  postMessage(message: unknown, target: string): void;
}

/** One page on the stand-in host, with what it posted and every page error it raised. */
export class AnalyticsPage {
  readonly errors: string[] = [];
  private closed = false;
  private readonly onPageError = (e: Error): void => {
    this.errors.push(`pageerror: ${e.message}`);
  };
  private readonly onConsole = (m: ConsoleMessage): void => {
    if (m.type() === 'error') this.errors.push(`console: ${m.text()}`);
  };

  /** `spare`: where close() puts the tab for the next open (undefined: close() closes it). */
  private constructor(
    readonly page: Page,
    private readonly spare: Page[] | undefined,
  ) {
    page.on('pageerror', this.onPageError);
    page.on('console', this.onConsole);
  }

  /** `toHost`: every message the page posts is also handed to it (a real host behind the page). */
  static async open(
    standIn: StandIn,
    options: {
      theme?: string;
      vsState?: unknown;
      width?: number;
      height?: number;
      toHost?: (message: unknown) => void;
      lang?: string;
      l10n?: 'de' | 'garbled' | 'wrong';
    } = {},
  ): Promise<AnalyticsPage> {
    const viewport = { width: options.width ?? 1280, height: options.height ?? 900 };
    const reusable = standIn.spare !== undefined && options.toHost === undefined && options.vsState === undefined;
    const kept = reusable ? standIn.spare?.pop() : undefined;
    const size = kept?.viewportSize();
    if (kept && (size?.width !== viewport.width || size.height !== viewport.height))
      await kept.setViewportSize(viewport);
    const page = kept ?? (await standIn.browser.newPage({ viewport }));
    const p = new AnalyticsPage(page, reusable ? standIn.spare : undefined);
    if (options.toHost) await page.exposeFunction('__toHost', options.toHost);
    if (options.vsState !== undefined) {
      await page.addInitScript((state) => {
        (globalThis as unknown as PageGlobals).__vsState = state;
      }, options.vsState);
    }
    await page.goto(
      `${standIn.origin}/host.html?theme=${options.theme ?? 'vscode-dark'}${options.lang ? `&lang=${encodeURIComponent(options.lang)}` : ''}${options.l10n ? `&l10n=${options.l10n}` : ''}`,
    );
    await p.waitForPosted('ready');
    return p;
  }

  /** Sends a message as the extension would. */
  /**
   * Posts `message` as the host would and resolves once the page has handled it: a sentinel posted
   * right after it arrives only after every listener of `message` has run (window messages are
   * delivered in order), then one animation frame lets a deferred paint land. Without this, a check
   * that follows could read the previous result's DOM on a busy machine.
   */
  async send(message: unknown): Promise<void> {
    // A message JSON carries exactly goes over as one string (see isPlainJson); the page posts
    // the object it parses from it, so the listeners see the same message either way.
    const arg = isPlainJson(message) ? { json: JSON.stringify(message) } : { value: message };
    await this.page.evaluate(
      async ({ json, value }) => {
        const m: unknown = json === undefined ? value : JSON.parse(json);
        type W = {
          postMessage(v: unknown, o: string): void;
          addEventListener(t: 'message', l: (e: { data: unknown }) => void): void;
          removeEventListener(t: 'message', l: (e: { data: unknown }) => void): void;
          requestAnimationFrame(cb: () => void): void;
        };
        const w = globalThis as unknown as W;
        const sentinel = { __harnessSentinel: Math.random() };
        const handled = new Promise<void>((resolve) => {
          const listener = (e: { data: unknown }): void => {
            if (
              e.data === sentinel ||
              (typeof e.data === 'object' &&
                e.data !== null &&
                (e.data as typeof sentinel).__harnessSentinel === sentinel.__harnessSentinel)
            ) {
              w.removeEventListener('message', listener);
              resolve();
            }
          };
          w.addEventListener('message', listener);
        });
        w.postMessage(m, '*');
        w.postMessage(sentinel, '*');
        await handled;
        await new Promise<void>((resolve) => w.requestAnimationFrame(() => resolve()));
      },
      arg as { json?: string; value?: unknown },
    );
  }

  async posted(): Promise<Posted[]> {
    return this.page.evaluate(() => (globalThis as unknown as PageGlobals).__posted);
  }

  async postedOf(type: string): Promise<Posted[]> {
    return (await this.posted()).filter((m) => m.type === type);
  }

  async waitForPosted(type: string, count = 1): Promise<Posted> {
    const handle = await this.page.waitForFunction(
      ([t, n]) => {
        const all = (globalThis as unknown as PageGlobals).__posted.filter((m) => m.type === t);
        return all.length >= n ? all[n - 1] : undefined;
      },
      [type, count] as const,
    );
    return (await handle.jsonValue()) as Posted;
  }

  async vsState(): Promise<unknown> {
    return this.page.evaluate(() => (globalThis as unknown as PageGlobals).__vsState);
  }

  async violations(): Promise<string[]> {
    return this.page.evaluate(() => (globalThis as unknown as PageGlobals).__violations);
  }

  async text(selector: string): Promise<string> {
    return (await this.page.locator(selector).innerText()).trim();
  }

  /**
   * Closes the page; a reusable one (see startStandIn) waits in `spare` for the next open, with
   * this page's listeners gone and the mouse back at 0,0 where a new tab has it. Its document
   * stays until that open navigates the tab, which unloads it (a stop at about:blank first cost
   * 60-80 ms of every test). A tab that fails any of that is closed instead.
   */
  async close(): Promise<void> {
    if (this.closed) return; // a second close must not put the tab in `spare` twice
    this.closed = true;
    this.page.off('pageerror', this.onPageError);
    this.page.off('console', this.onConsole);
    if (this.spare && !this.page.isClosed()) {
      try {
        await this.page.mouse.move(0, 0);
        this.spare.push(this.page);
        return;
      } catch {
        // fall through: closed below
      }
    }
    await this.page.close().catch(() => undefined);
  }
}
