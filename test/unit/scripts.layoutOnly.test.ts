/**
 * `npm run layout-only` (scripts/lib/layoutOnly.mjs) tells a formatter's change from a change of
 * code: line breaks, quotes, trailing commas and parentheses that change nothing are layout; a
 * changed name, value, operator, string or comment is not.
 */
import * as assert from 'node:assert/strict';

import { importScriptLib } from './helpers/scriptLib';

let sameCode: (fileName: string, before: string, after: string) => boolean;

describe('scripts: layout-only tells layout from code', function () {
  before(async () => {
    ({ sameCode } = await importScriptLib<{ sameCode: typeof sameCode }>('layoutOnly.mjs'));
  });

  const layout: [string, string][] = [
    ["const a = f(x, 'y');", 'const a = f(\n  x,\n  "y",\n);'],
    ['const o = { a: 1, b: [1, 2] };', 'const o = {\n  a: 1,\n  b: [\n    1,\n    2,\n  ],\n};'],
    ['const v = z.string().trim().min(1);', 'const v = z\n  .string()\n  .trim()\n  .min(1);'],
    ['const g = x => x + 1;', 'const g = (x) => (x + 1);'],
    ['const t = c ? a : b;', 'const t = c\n  ? a\n  : b;'],
    ['import {b,a} from "m"; // why\nf();', "import {\n  b,\n  a,\n} from 'm'; // why\n\nf();"],
    ['type T = { a: string; b: number };', 'type T = {\n  a: string;\n  b: number;\n};'],
  ];
  for (const [before, after] of layout) {
    it(`layout only: ${JSON.stringify(before)}`, () => assert.equal(sameCode('x.ts', before, after), true));
  }

  const code: [string, string][] = [
    ["const a = 'x';", "const a = 'y';"],
    ['f(a + b);', 'f(a - b);'],
    ['f(a, b);', 'f(b, a);'],
    ['const r = /a b/g;', 'const r = /a  b/g;'],
    ['const t = `a ${b} c`;', 'const t = `a ${b}  c`;'],
    ['const x = (a + b) * c;', 'const x = a + b * c;'],
    ['// keep the lock\nf();', '// drop the lock\nf();'],
    ['f();', 'f();\ng();'],
  ];
  for (const [before, after] of code) {
    it(`code changed: ${JSON.stringify(before)} → ${JSON.stringify(after)}`, () =>
      assert.equal(sameCode('x.ts', before, after), false));
  }
});
