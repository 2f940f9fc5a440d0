/**
 * The pictures of the before/after specs: a window's picture cut to what an item is about, and
 * several pictures stacked under their captions as one. Written where the e2e run keeps its
 * screenshots.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import type { Locator, Page } from 'playwright-core';

import { e2e } from './support';

export interface Pictures {
  /** The window cut to the boxes of `parts` (those drawn), with a margin; the whole window when none is drawn. */
  shot(name: string, parts?: Locator[]): Promise<string>;
  /** Several pictures one above the other, each under its caption, as one picture (drawn by the browser). */
  stacked(name: string, parts: { caption: string; file: string }[]): Promise<void>;
}

/** `page` is asked each time: a spec gets its window only once it is open. */
export function pictures(page: () => Page): Pictures {
  const shot = async (name: string, parts: Locator[] = []): Promise<string> => {
    const p = page();
    const file = path.join(e2e().artifacts, `${name}.png`);
    const boxes = (await Promise.all(parts.map((x) => x.boundingBox({ timeout: 5_000 }).catch(() => null)))).filter(
      (b) => b !== null && b.width > 0 && b.height > 0,
    ) as { x: number; y: number; width: number; height: number }[];
    if (boxes.length === 0) {
      await p.screenshot({ path: file });
      return file;
    }
    const view = p.viewportSize() ?? { width: 1400, height: 900 };
    const pad = 12;
    const x = Math.max(0, Math.min(...boxes.map((b) => b.x)) - pad);
    const y = Math.max(0, Math.min(...boxes.map((b) => b.y)) - pad);
    const right = Math.min(view.width, Math.max(...boxes.map((b) => b.x + b.width)) + pad);
    const bottom = Math.min(view.height, Math.max(...boxes.map((b) => b.y + b.height)) + pad);
    await p.screenshot({ path: file, clip: { x, y, width: right - x, height: bottom - y } });
    return file;
  };
  const stacked = async (name: string, parts: { caption: string; file: string }[]): Promise<void> => {
    const p = page();
    const tab = await p.context().newPage();
    try {
      const figures = parts
        .map(
          (x) =>
            `<figure><figcaption>${x.caption.replace(/[<&]/g, '')}</figcaption><img src="data:image/png;base64,${readFileSync(x.file).toString('base64')}"></figure>`,
        )
        .join('');
      await tab.setContent(
        `<body style="margin:0;background:#1f1f1f;color:#ccc;font:13px sans-serif"><main style="display:inline-block;padding:8px">${figures}</main></body>`,
      );
      await tab.waitForFunction('Array.from(document.images).every((i) => i.complete && i.naturalWidth > 0)');
      await tab.locator('main').screenshot({ path: path.join(e2e().artifacts, `${name}.png`) });
    } finally {
      await tab.close();
      await p.bringToFront();
    }
  };
  return { shot, stacked };
}
