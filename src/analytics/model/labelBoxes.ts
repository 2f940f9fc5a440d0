/**
 * Tick-label boxes of a laid-out chart and whether any two collide. Pure, so the geometry is
 * unit-tested in Node; the page fills the boxes from Chart.js's layout (analytics/page/charts/chartsProbe.ts)
 * and the page tests check them.
 */

export interface Point {
  x: number;
  y: number;
}

/** One tick label's box, as four corners in canvas pixels (rotated with the label). */
export interface LabelBox {
  text: string;
  corners: Point[];
}

/** One chart as window.__scrapedeckCharts describes it. */
export interface ChartProbe {
  id: string;
  width: number;
  labelRotation: number;
  ticks: Record<'x' | 'y', LabelBox[]>;
  /** Per dataset: label, fill and line colour, as the chart holds them now. */
  datasets: { label: string; backgroundColor: string; borderColor: string }[];
  /** The legend swatches' computed background colours, in series order. */
  swatches: string[];
  /** The page background the charts were last coloured for (the body's computed colour). */
  background: string;
}

/** The smallest and largest projection of a convex polygon on a unit axis. */
function project(poly: Point[], ax: Point): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (const p of poly) {
    const d = p.x * ax.x + p.y * ax.y;
    min = Math.min(min, d);
    max = Math.max(max, d);
  }
  return [min, max];
}

/**
 * Whether two convex boxes overlap by more than `slack` pixels (separating axis theorem): boxes
 * that only touch, or meet within antialiasing's half pixel, do not count.
 */
export function overlaps(a: Point[], b: Point[], slack = 0.5): boolean {
  for (const poly of [a, b]) {
    for (let i = 0; i < poly.length; i++) {
      const p = poly[i] as Point;
      const q = poly[(i + 1) % poly.length] as Point;
      const len = Math.hypot(q.x - p.x, q.y - p.y);
      if (len === 0) continue;
      const ax = { x: -(q.y - p.y) / len, y: (q.x - p.x) / len };
      const [aMin, aMax] = project(a, ax);
      const [bMin, bMax] = project(b, ax);
      if (aMax - slack <= bMin || bMax - slack <= aMin) return false;
    }
  }
  return true;
}

/** "chart-records x (410 px): '2026-11-16' overlaps '2026-11-17'" for every colliding pair. */
export function collisions(charts: ChartProbe[]): string[] {
  const found: string[] = [];
  for (const c of charts) {
    for (const axis of ['x', 'y'] as const) {
      const boxes = c.ticks[axis];
      boxes.forEach((a, i) => {
        for (const b of boxes.slice(i + 1)) {
          if (overlaps(a.corners, b.corners))
            found.push(`${c.id} ${axis} (${Math.round(c.width)} px): '${a.text}' overlaps '${b.text}'`);
        }
      });
    }
  }
  return found;
}
