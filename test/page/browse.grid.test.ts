/**
 * The data browser's page (dist/webview/browse.js in the HTML shell renderPageHtml writes) in headless
 * Chromium, behind a stand-in host that answers the page's protocol from 3,000 synthetic rows of
 * 60 columns, sorting and filtering them as the real store would. Screenshots of each theme go to
 * artifacts/page/browse-*.png.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

import type { Browser, Page } from 'playwright-core';

import type { BrowseView, PageMessage } from '../../src/data/browse/protocol';
import { renderPageHtml } from '../../src/platform/webview/pageHtml';
import { axeProblems } from './axe';
import { type AnalyticsPage, repoRoot } from './harness';

const { chromium } = createRequire(__filename)('playwright-core') as typeof import('playwright-core');

const ROWS = 3000;
const COLUMNS = ['id', 'name', 'price', ...Array.from({ length: 57 }, (_, i) => `field ${i + 4}`)];
const cellsOf = (i: number): Array<string | number> => [
  i + 1,
  `item ${i}`,
  (i * 37) % 1000,
  ...Array.from({ length: 57 }, (_, c) => `v${c}-${i % 97}`),
];
const DATA = Array.from({ length: ROWS }, (_, i) => cellsOf(i));

/** The host's side: the view's order of rows, answered to the page's messages. */
class StandInHost {
  order: number[] = DATA.map((_, i) => i);
  readonly received: PageMessage[] = [];
  constructor(private readonly page: Page) {}

  private send(m: unknown): void {
    this.page
      .evaluate((x) => {
        (globalThis as unknown as { postMessage(v: unknown, o: string): void }).postMessage(x, '*');
      }, m)
      .catch(() => undefined);
  }

  private status(): Record<string, unknown> {
    return { state: 'done', loaded: ROWS, total: ROWS, shown: this.order.length, problems: 0 };
  }

  handle(m: PageMessage): void {
    this.received.push(m);
    if (m.type === 'ready')
      this.send({
        type: 'init',
        title: 'Data of “Synthetic”',
        columns: COLUMNS,
        status: this.status(),
        canStop: false,
      });
    else if (m.type === 'view') this.setView(m.view);
    else if (m.type === 'window') {
      // Row 2 (the source's) holds a link in its field 4 and a cut value in its field 5; row 3 a value of two lines.
      const cellsAt = (i: number): Array<string | number> =>
        (DATA[i] ?? []).map((v, c) =>
          i === 1 && c === 3 ? 'https://example.com/a' : i === 2 && c === 4 ? 'First line\r\nsecond line\nthird' : v,
        );
      const rows = this.order
        .slice(m.from, m.from + m.count)
        .map((i) => ({ n: i + 1, cells: cellsAt(i), ...(i === 1 ? { cut: [4] } : {}) }));
      this.send({ type: 'rows', id: m.id, from: m.from, rows });
    } else if (m.type === 'profile') {
      const name = COLUMNS[m.column] ?? '?';
      this.send({
        type: 'profile',
        id: m.id,
        profile: {
          column: name,
          kind: 'number',
          rows: ROWS,
          empty: 0,
          distinct: ROWS,
          distinctAtLeast: false,
          min: '1',
          max: String(ROWS),
          common: [{ value: '1', count: 1 }],
        },
      });
    }
  }

  private setView(view: BrowseView): void {
    const term = (view.search ?? '').toLowerCase();
    let order = DATA.map((_, i) => i).filter(
      (i) => term === '' || (DATA[i] ?? []).some((v) => String(v).toLowerCase().includes(term)),
    );
    const s = view.sort;
    if (s) {
      const key = (i: number): number | string => DATA[i]?.[s.column] ?? '';
      order = order.sort(
        (a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a - b) * (s.direction === 'asc' ? 1 : -1),
      );
    }
    this.order = order;
    this.send({ type: 'view', view, shown: order.length });
    this.send({ type: 'status', status: this.status() });
  }
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };

function serve(root: string): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
    if (url.pathname === '/') {
      // The shell as the host writes it, plus what VS Code adds: the theme's variables and body class, acquireVsCodeApi.
      const nonce = 'c3RhbmQtaW4tbm9uY2U=';
      const theme = (url.searchParams.get('theme') ?? 'vscode-dark').replace(/[^a-z-]/g, '');
      const html = renderPageHtml(
        {
          cspSource: origin,
          scriptUri: `${origin}/dist/webview/browse.js`,
          styleUri: `${origin}/media/browse.css`,
          title: 'Data of “Synthetic”',
          lang: 'en',
        },
        nonce,
      )
        .replace(
          '<link rel="stylesheet"',
          `<link rel="stylesheet" href="${origin}/fixtures/theme.css">\n<script nonce="${nonce}" src="${origin}/fixtures/fake-vscode.js"></script>\n<link rel="stylesheet"`,
        )
        .replace('<body>', `<body class="${theme}">`);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
      return;
    }
    const mounts: Record<string, string> = {
      '/media/': 'media',
      '/dist/webview/': 'dist/webview',
      '/fixtures/': 'test/page/fixtures',
    };
    for (const [prefix, folder] of Object.entries(mounts)) {
      if (!url.pathname.startsWith(prefix)) continue;
      const base = join(root, folder);
      const file = normalize(join(base, decodeURIComponent(url.pathname.slice(prefix.length))));
      if (!file.startsWith(base + sep) || !existsSync(file)) break;
      res
        .writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
        .end(readFileSync(file));
      return;
    }
    res.writeHead(404).end();
  });
}

describe('data browser page: grid, sort, search, keyboard, profile, themes', function () {
  const root = repoRoot();
  let server: Server;
  let browser: Browser;
  let origin = '';
  let page: Page;
  let host: StandInHost;
  let errors: string[] = [];

  before(async () => {
    if (!existsSync(join(root, 'dist/webview/browse.js')))
      throw new Error('dist/webview/browse.js is missing: run `npm run build`');
    server = serve(root);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const project = (await import(pathToFileURL(join(root, 'scripts', 'lib', 'project.mjs')).href)) as {
      testChromium(): string;
      TEST_CHROMIUM_ARGS: string[];
    };
    browser = await chromium.launch({
      executablePath: project.testChromium(),
      headless: true,
      args: project.TEST_CHROMIUM_ARGS,
    });
  });
  after(async () => {
    await browser?.close().catch(() => undefined);
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  });
  afterEach(async () => {
    await page?.close().catch(() => undefined);
  });

  async function open(theme = 'vscode-dark'): Promise<void> {
    errors = [];
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    host = new StandInHost(page);
    await page.exposeFunction('__toHost', (m: PageMessage) => host.handle(m));
    await page.goto(`${origin}/?theme=${theme}`);
    await cell(0, 1).filter({ hasText: 'item 0' }).waitFor();
  }
  const cell = (row: number, column: number) => page.locator(`#cell-${row}-${column}`);
  const grid = () => page.locator('[role=grid]');
  const active = () => grid().getAttribute('aria-activedescendant');
  async function assertClean(): Promise<void> {
    const violations = await page.evaluate(() => (globalThis as unknown as { __violations: string[] }).__violations);
    assert.deepEqual(violations, [], 'no CSP violation');
    assert.deepEqual(errors, [], 'no page error');
    assert.deepEqual(
      host.received.filter((m) => m.type === 'log'),
      [],
      'the page logged no problem',
    );
  }

  it('shows the header and the first rows, with the count, and asks only for the rows in sight', async () => {
    await open();
    const heads = page.locator('[role=columnheader]');
    assert.equal(await heads.first().innerText(), '#');
    assert.equal((await heads.nth(1).innerText()).trim(), 'id');
    assert.equal((await heads.nth(2).innerText()).trim(), 'name');
    assert.ok((await heads.count()) < COLUMNS.length, 'only the columns in sight are drawn');
    assert.equal(await grid().getAttribute('aria-rowcount'), String(ROWS + 1));
    assert.equal(await grid().getAttribute('aria-colcount'), String(COLUMNS.length + 1));
    assert.equal(await cell(0, 0).innerText(), '1');
    assert.match(await page.locator('.count').innerText(), /^3,000 rows$/);
    assert.equal(
      await cell(2, 4).innerText(),
      'First line↵second line↵third',
      "a value of several lines is drawn on its row's one line",
    );
    const windows = host.received.filter((m): m is Extract<PageMessage, { type: 'window' }> => m.type === 'window');
    assert.ok(
      windows.length > 0 && windows.every((w) => w.from + w.count <= 600),
      `windows near the top: ${JSON.stringify(windows)}`,
    );
    await assertClean();
  });

  it('draws other rows and columns as it scrolls', async () => {
    await open();
    await grid().evaluate((g) => {
      (g as unknown as { scrollTop: number }).scrollTop = 1500 * 24;
    });
    await cell(1500, 1).filter({ hasText: 'item 1500' }).waitFor();
    assert.equal(await cell(0, 1).count(), 0, 'the first rows left the document');
    await grid().evaluate((g) => {
      (g as unknown as { scrollLeft: number }).scrollLeft = 100_000;
    });
    await cell(1500, 59).filter({ hasText: 'v56-' }).waitFor();
    await assertClean();
  });

  it('sorts by a click on a header, ascending then descending (aria-sort)', async () => {
    await open();
    const price = page.locator('[role=columnheader]', { has: page.locator('button', { hasText: /^price/ }) });
    assert.equal(await price.getAttribute('aria-sort'), 'none');
    await price.locator('button').click();
    await page.locator('[role=columnheader][aria-sort=ascending]', { hasText: 'price' }).waitFor();
    await cell(0, 2).filter({ hasText: /^0$/ }).waitFor();
    await page.locator('[role=columnheader] button', { hasText: /^price/ }).click();
    await page.locator('[role=columnheader][aria-sort=descending]', { hasText: 'price' }).waitFor();
    await cell(0, 2).filter({ hasText: /^999$/ }).waitFor();
    assert.deepEqual(
      host.received.filter((m) => m.type === 'view').map((m) => (m as { view: BrowseView }).view.sort),
      [
        { column: 2, direction: 'asc' },
        { column: 2, direction: 'desc' },
      ],
    );
    await assertClean();
  });

  it('filters by the search: the count says how many match, and the grid shows them', async () => {
    await open();
    await page.getByLabel('Search all columns').fill('item 12');
    // item 12, item 120-129, item 1200-1299
    await page.locator('.count', { hasText: '111 match' }).waitFor();
    assert.equal(await grid().getAttribute('aria-rowcount'), '112');
    await cell(0, 1)
      .filter({ hasText: /^item 12$/ })
      .waitFor();
    await page.getByLabel('Search all columns').fill('');
    await page.locator('.count', { hasText: /^3,000 rows$/ }).waitFor();
    await assertClean();
  });

  it('moves the active cell with the arrows, Home, End, Ctrl+End and Page Up/Down', async () => {
    await open();
    await grid().focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    assert.equal(await active(), 'cell-1-1');
    assert.equal(await cell(1, 1).getAttribute('class'), 'cell active selected');
    await page.keyboard.press('End');
    assert.equal(await active(), `cell-1-${COLUMNS.length - 1}`);
    await cell(1, COLUMNS.length - 1).waitFor();
    await page.keyboard.press('Home');
    assert.equal(await active(), 'cell-1-0');
    await page.keyboard.press('Control+End');
    assert.equal(await active(), `cell-${ROWS - 1}-${COLUMNS.length - 1}`);
    await cell(ROWS - 1, COLUMNS.length - 1)
      .filter({ hasText: `v56-${(ROWS - 1) % 97}` })
      .waitFor();
    await page.keyboard.press('Control+Home');
    assert.equal(await active(), 'cell-0-0');
    await cell(0, 1).filter({ hasText: 'item 0' }).waitFor();
    await page.keyboard.press('PageDown');
    const down = Number((await active())?.split('-')[1]);
    assert.ok(down >= 20 && down <= 40, `Page Down moves a screenful (to row ${down})`);
    await page.keyboard.press('PageUp');
    assert.equal(await active(), 'cell-0-0');
    await assertClean();
  });

  it('offers Whole value on a cut cell and Open link… on a link only', async () => {
    await open();
    const whole = page.getByRole('button', { name: 'Whole value' });
    const link = page.getByRole('button', { name: 'Open link…' });
    assert.equal(await whole.isVisible(), false, 'no Whole value before a cut cell is focused');
    assert.equal(await link.isVisible(), false, 'no Open link… before a link is focused');
    await cell(1, 3).click();
    await link.waitFor();
    assert.equal(await whole.isVisible(), false);
    await page.keyboard.press('ArrowRight');
    await whole.waitFor();
    assert.equal(await link.isVisible(), false);
    await whole.click();
    assert.deepEqual(
      host.received
        .filter((m) => m.type === 'cell')
        .map((m) => [(m as { row: number }).row, (m as { column: number }).column]),
      [[1, 4]],
    );
    await assertClean();
  });

  it('shows the profile of the focused column', async () => {
    await open();
    await cell(0, 0).click();
    await page.getByRole('button', { name: 'Profile column' }).click();
    const side = page.locator('.side');
    await side.locator('h2', { hasText: 'Profile of id' }).waitFor();
    assert.match(await side.innerText(), /Distinct values\s+3,000/);
    assert.deepEqual(
      host.received.filter((m) => m.type === 'profile').map((m) => (m as { column: number }).column),
      [0],
    );
    await assertClean();
  });

  it('has no serious or critical accessibility problem (axe), with the profile open', async () => {
    await open();
    await cell(0, 0).click();
    await page.getByRole('button', { name: 'Profile column' }).click();
    await page.locator('.side h2').waitFor();
    assert.deepEqual(await axeProblems({ page } as unknown as AnalyticsPage, 'data browser'), []);
  });

  const themes: Array<[string, string, string]> = [
    ['vscode-dark', 'rgb(31, 31, 31)', 'rgb(204, 204, 204)'],
    ['vscode-light', 'rgb(255, 255, 255)', ''],
    ['vscode-high-contrast', 'rgb(0, 0, 0)', 'rgb(255, 255, 255)'],
  ];
  for (const [theme, background, foreground] of themes) {
    it(`applies the ${theme} theme and saves a screenshot`, async () => {
      await open(theme);
      const out = join(root, 'artifacts', 'page');
      mkdirSync(out, { recursive: true });
      await page.screenshot({ path: join(out, `browse-${theme.replace('vscode-', '')}.png`) });
      const look = await cell(0, 1).evaluate((c) => {
        const g = globalThis as unknown as {
          getComputedStyle(e: unknown): { backgroundColor: string; color: string; borderRightColor: string };
          document: { body: unknown };
        };
        const b = g.getComputedStyle(g.document.body);
        // What the cell shows through to: the first background of its own or of an element it lies in.
        let under = c as unknown as { parentElement: unknown } | null;
        let cellBg = 'rgba(0, 0, 0, 0)';
        while (under !== null && cellBg === 'rgba(0, 0, 0, 0)') {
          cellBg = g.getComputedStyle(under).backgroundColor;
          under = under.parentElement as { parentElement: unknown } | null;
        }
        return { bg: b.backgroundColor, fg: b.color, border: g.getComputedStyle(c).borderRightColor, cellBg };
      });
      if (background !== '') assert.equal(look.bg, background);
      if (foreground !== '') assert.equal(look.fg, foreground);
      assert.notEqual(look.bg, 'rgba(0, 0, 0, 0)', 'the editor background applies');
      assert.equal(look.cellBg, look.bg, 'cells on the editor background');
      if (theme === 'vscode-high-contrast')
        assert.equal(look.border, 'rgb(111, 195, 223)', 'cells bordered in the contrast border colour');
      await assertClean();
    });
  }
});
