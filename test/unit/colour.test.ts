import * as assert from 'node:assert/strict';

import { contrast, GRAPHIC_CONTRAST, legible, opaque, parseColour } from '../../src/analytics/model/colour';

describe('chart colours', () => {
  it('drops the transparency of theme colours meant as overlays', () => {
    assert.equal(opaque('#d1861680'), '#d18616');
    assert.equal(opaque('#D186'), '#D18');
    assert.equal(opaque(' rgba(209, 134, 22, 0.5) '), 'rgb(209, 134, 22)');
  });
  it('leaves opaque and unknown colours as they are', () => {
    for (const c of ['#d18616', '#abc', 'rgb(1, 2, 3)', 'orange', 'var(--x)', '#abcde', '#abcdef1'])
      assert.equal(opaque(c), c);
  });
});

describe('chart colours against the background', () => {
  it('reads hex and rgb() colours', () => {
    assert.deepEqual(parseColour('#fff'), [255, 255, 255]);
    assert.deepEqual(parseColour('#d1861680'), [209, 134, 22]);
    assert.deepEqual(parseColour('rgb(1, 2, 3)'), [1, 2, 3]);
    assert.deepEqual(parseColour('rgba(1, 2, 3, 0.5)'), [1, 2, 3]);
    assert.equal(parseColour('orange'), undefined);
  });
  it('computes WCAG contrast', () => {
    assert.equal(Math.round(contrast([0, 0, 0], [255, 255, 255])), 21);
    assert.equal(contrast([10, 20, 30], [10, 20, 30]), 1);
  });
  it('keeps a colour that stands out, and moves one too close to the background toward the ink', () => {
    assert.equal(legible('#89d185', '#1f1f1f', '#cccccc'), '#89d185');
    const orange = legible('#d18616', '#ffffff', '#3b3b3b');
    const rgb = parseColour(orange);
    assert.ok(rgb && contrast(rgb, [255, 255, 255]) >= GRAPHIC_CONTRAST, `${orange} stands out on white`);
    assert.notEqual(orange, '#3b3b3b', 'still its own colour, not the ink');
  });
  it('never returns the background colour itself, even with an unhelpful ink', () => {
    for (const [colour, bg, ink] of [
      ['#000000', '#000000', '#000000'],
      ['#ffffff', '#ffffff', '#fefefe'],
      ['rgb(0, 0, 0)', 'rgb(0, 0, 0)', 'nonsense'],
    ] as const) {
      const out = parseColour(legible(colour, bg, ink));
      const back = parseColour(bg);
      assert.ok(out && back && contrast(out, back) >= GRAPHIC_CONTRAST, `${colour} on ${bg}`);
    }
  });
});
