/**
 * The table benches' timing (bench/tableTiming.ts) runs its function in the page; here it runs in
 * Node against a stand-in document, so the cases a real page rarely shows can be fed to it: a
 * header that says "sorted" before (or without) the sort being done, and rows that never change.
 * Either must be an error, never a time.
 */
import * as assert from 'node:assert/strict';

import { type Evaluator, timed } from '../../bench/tableTiming';

interface FakeEl {
  attrs: Map<string, string>;
  scrollTop: number;
  scrollHeight: number;
  textContent: string | null;
  click(): void;
  getAttribute(n: string): string | null;
  getBoundingClientRect(): unknown;
}

function el(onClick: () => void = () => undefined): FakeEl {
  const attrs = new Map<string, string>();
  return {
    attrs,
    scrollTop: 0,
    scrollHeight: 10_000,
    textContent: '',
    click: onClick,
    getAttribute: (n) => attrs.get(n) ?? null,
    getBoundingClientRect: () => ({}),
  };
}

/** A page whose header click does `onClick` (given the header), and whose rows hold `rowShown()`. */
function page(
  onClick: (header: FakeEl) => void,
  rowShown: () => boolean = () => false,
): { evaluator: Evaluator; restore(): void } {
  const header = el();
  const button = el(() => onClick(header));
  const table = el();
  table.attrs.set('aria-rowcount', '5001');
  const body = el();
  const document = {
    body,
    scrollingElement: el(),
    querySelector(s: string): FakeEl | null {
      if (s.startsWith('th[') && s.endsWith(' button')) return button;
      if (s.startsWith('th[')) return header;
      if (s === 'table.records') return table;
      if (s.startsWith('table.records tbody tr')) return rowShown() ? el() : null;
      return null;
    },
  };
  const g = globalThis as unknown as Record<string, unknown>;
  g.document = document;
  g.requestAnimationFrame = (cb: () => void) => setImmediate(cb);
  return {
    evaluator: { evaluate: (fn, arg) => Promise.resolve(fn(arg)) },
    restore: () => {
      delete g.document;
      delete g.requestAnimationFrame;
    },
  };
}

describe('bench: the table timing fails instead of timing nothing', () => {
  afterEach(() => {
    performance.clearMeasures('scrapedeck:sort');
  });

  it('a sort is timed once the header says so and the page measured its sort (the control)', async () => {
    const p = page((header) => {
      header.attrs.set('aria-sort', 'ascending');
      performance.measure('scrapedeck:sort');
    });
    try {
      const t = await timed(p.evaluator, 'sort', 'runCount', 5);
      assert.ok(Number.isFinite(t.frame) && t.frame >= t.sync, `a time: ${JSON.stringify(t)}`);
    } finally {
      p.restore();
    }
  });

  it('a header whose aria-sort changed with no sort done is not a sort: an error after the frames, not a time', async () => {
    const p = page((header) => header.attrs.set('aria-sort', 'ascending'));
    try {
      await assert.rejects(
        timed(p.evaluator, 'sort', 'runCount', 5),
        /the sort to runCount did not show within 5 frames/,
      );
    } finally {
      p.restore();
    }
  });

  it('a sort measured by an earlier click does not count for this one', async () => {
    performance.measure('scrapedeck:sort');
    const p = page((header) => header.attrs.set('aria-sort', 'descending'));
    try {
      await assert.rejects(timed(p.evaluator, 'sort', 'task', 5), /did not show within 5 frames/);
    } finally {
      p.restore();
    }
  });

  it('a scroll whose row never comes is an error; the row coming is a time', async () => {
    const never = page(() => undefined);
    try {
      await assert.rejects(
        timed(never.evaluator, 'scroll', 'end', 5),
        /the scroll to end did not show within 5 frames/,
      );
    } finally {
      never.restore();
    }
    let frames = 0;
    const later = page(
      () => undefined,
      () => ++frames > 2,
    );
    try {
      const t = await timed(later.evaluator, 'scroll', 'middle', 5);
      assert.ok(Number.isFinite(t.frame));
    } finally {
      later.restore();
    }
  });
});
