import * as assert from 'node:assert/strict';

import { type ChartProbe, collisions, overlaps } from '../../src/analytics/model/labelBoxes';

const box = (x: number, y: number, w: number, h: number) => [
  { x, y },
  { x: x + w, y },
  { x: x + w, y: y + h },
  { x, y: y + h },
];
const diamond = [
  { x: 15, y: 0 },
  { x: 20, y: 5 },
  { x: 15, y: 10 },
  { x: 10, y: 5 },
];

describe('tick label boxes', () => {
  it('tells touching boxes from overlapping ones', () => {
    assert.equal(overlaps(box(0, 0, 10, 10), box(10, 0, 10, 10)), false, 'touching');
    assert.equal(overlaps(box(0, 0, 10, 10), box(10.4, 0, 10, 10)), false, 'apart');
    assert.equal(overlaps(box(0, 0, 10, 10), box(8, 0, 10, 10)), true, 'two pixels into each other');
    assert.equal(overlaps(box(0, 0, 10, 10), box(2, 2, 3, 3)), true, 'one inside the other');
  });
  it('handles rotated boxes', () => {
    assert.equal(overlaps(box(0, 0, 10, 10), diamond), false, 'a rotated box beside a square');
    assert.equal(overlaps(box(0, 0, 12, 10), diamond), true, 'a rotated box into a square');
    assert.equal(overlaps(box(0, 0, 10.4, 3), diamond), false, 'next to its corner only');
  });
  it('names every colliding pair of a chart, per axis', () => {
    const chart: ChartProbe = {
      id: 'chart-records',
      width: 410.2,
      labelRotation: 0,
      datasets: [],
      swatches: [],
      background: 'rgb(0, 0, 0)',
      ticks: {
        x: [
          { text: '2026-11-16', corners: box(0, 0, 60, 12) },
          { text: '2026-11-18', corners: box(55, 0, 60, 12) },
          { text: '2026-11-20', corners: box(120, 0, 60, 12) },
        ],
        y: [
          { text: '0', corners: box(0, 100, 8, 12) },
          { text: '10', corners: box(0, 80, 12, 12) },
        ],
      },
    };
    assert.deepEqual(collisions([chart]), ["chart-records x (410 px): '2026-11-16' overlaps '2026-11-18'"]);
  });
});
