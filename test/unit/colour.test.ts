import * as assert from 'node:assert/strict';
import { opaque } from '../../src/analyticsModel/colour';

describe('chart colours', () => {
  it('drops the transparency of theme colours meant as overlays', () => {
    assert.equal(opaque('#d1861680'), '#d18616');
    assert.equal(opaque('#D186'), '#D18');
    assert.equal(opaque(' rgba(209, 134, 22, 0.5) '), 'rgb(209, 134, 22)');
  });
  it('leaves opaque and unknown colours as they are', () => {
    for (const c of ['#d18616', '#abc', 'rgb(1, 2, 3)', 'orange', 'var(--x)', '#abcde', '#abcdef1']) assert.equal(opaque(c), c);
  });
});
