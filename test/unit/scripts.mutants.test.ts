/**
 * `npm run mutants` (scripts/mutants.mjs, scripts/lib/mutants.mjs): a surviving mutant, a missing
 * or ambiguous anchor, or a mutation that could not be applied makes the run exit non-zero; and
 * the list itself (scripts/mutants.json) is whole: at least 25 guards over every rule, each anchor
 * found exactly once in its file today, each test file there. A guard whose code moved fails here,
 * in the unit tier, before anyone runs the mutants.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { importScriptLib } from './helpers/scriptLib';

interface Guard {
  guard: string;
  rule: string;
  file: string;
  find: string;
  replace: string;
  why: string;
  tests: string[];
  grep?: string;
}
interface Result {
  result: string;
}
interface MutantsLib {
  RULES: string[];
  readGuards(file: string): { guards: Guard[]; moving: string[] };
  mutate(text: string, find: string, replace: string): { ok: true; text: string } | { ok: false; problem: string };
  verdict(run: { problem?: string; exitCode?: number; timedOut?: boolean }): string;
  exitCodeOf(results: Result[]): number;
  baselineRuns(guards: Pick<Guard, 'tests' | 'grep'>[]): { tests: string[]; grep?: string }[];
  table(rows: object[]): string;
}

const ROOT = path.resolve(__dirname, '..', '..', '..');

describe('scripts: npm run mutants', () => {
  let lib: MutantsLib;
  before(async () => {
    lib = await importScriptLib<MutantsLib>('mutants.mjs');
  });

  it('a mutant that survives, an anchor not found or not unique, or a mutation with no effect: the run exits non-zero', () => {
    const caught = lib.verdict({ exitCode: 1 });
    const survived = lib.verdict({ exitCode: 0 });
    assert.equal(caught, 'CAUGHT');
    assert.equal(survived, 'MISSED');
    assert.equal(lib.verdict({ exitCode: 1, timedOut: true }), 'CAUGHT (timeout)');
    assert.equal(lib.exitCodeOf([{ result: caught }, { result: 'CAUGHT (timeout)' }]), 0);
    assert.equal(lib.exitCodeOf([{ result: caught }, { result: survived }]), 1, 'one survivor');
    const missing = lib.mutate('const a = 1;', 'const b = 2;', '');
    assert.deepEqual(missing, { ok: false, problem: 'ANCHOR NOT FOUND' });
    assert.equal(
      lib.exitCodeOf([
        { result: caught },
        { result: lib.verdict({ problem: missing.ok ? undefined : missing.problem }) },
      ]),
      1,
      'an anchor not found',
    );
    assert.deepEqual(lib.mutate('x(); x();', 'x();', ''), { ok: false, problem: 'ANCHOR NOT UNIQUE' });
    assert.equal(lib.exitCodeOf([{ result: 'NO CHANGE IN CODE' }]), 1);
    assert.equal(lib.exitCodeOf([]), 1, 'nothing run is no pass');
  });

  it('a mutation replaces its anchor once, and nothing else', () => {
    assert.deepEqual(lib.mutate('if (a) throw e;\nreturn a;', 'if (a) throw e;', ''), {
      ok: true,
      text: '\nreturn a;',
    });
  });

  it('the baseline runs each file some guard runs whole once, and a file only ever grepped with the union of its greps', () => {
    const runs = lib.baselineRuns([
      { tests: ['test/unit/a.test.ts'] },
      { tests: ['test/unit/b.test.ts'], grep: 'one' },
      { tests: ['test/unit/b.test.ts'], grep: 'two' },
      { tests: ['test/unit/a.test.ts'], grep: 'three' },
    ]);
    assert.deepEqual(runs, [
      { tests: ['test/unit/a.test.ts'] },
      { tests: ['test/unit/b.test.ts'], grep: '(?:one)|(?:two)' },
    ]);
  });

  it('a list entry without its test files, or with an unknown rule, is refused when read', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-mutants-'));
    try {
      const file = path.join(dir, 'list.json');
      const good: Guard = {
        guard: 'g',
        rule: 'files',
        file: 'src/x.ts',
        find: 'a',
        replace: 'b',
        why: 'w',
        tests: ['test/unit/x.test.ts'],
      };
      writeFileSync(file, JSON.stringify({ guards: [{ ...good, tests: [] }] }));
      assert.throws(() => lib.readGuards(file), /"tests"/);
      writeFileSync(file, JSON.stringify({ guards: [{ ...good, rule: 'vibes' }] }));
      assert.throws(() => lib.readGuards(file), /rule "vibes"/);
      writeFileSync(file, JSON.stringify({ guards: [good, good] }));
      assert.throws(() => lib.readGuards(file), /used twice/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('scripts/mutants.json: at least 25 guards over every rule; each anchor is in its file exactly once today, each test file exists', () => {
    const { guards } = lib.readGuards(path.join(ROOT, 'scripts', 'mutants.json'));
    assert.ok(guards.length >= 25, `${guards.length} guards`);
    assert.deepEqual([...new Set(guards.map((g) => g.rule))].sort(), [...lib.RULES].sort(), 'every rule has a guard');
    const problems: string[] = [];
    for (const g of guards) {
      const source = path.join(ROOT, g.file);
      if (!existsSync(source)) problems.push(`${g.guard}: ${g.file} is gone`);
      else {
        const m = lib.mutate(readFileSync(source, 'utf8'), g.find, g.replace);
        if (!m.ok) problems.push(`${g.guard}: ${m.problem} in ${g.file}`);
      }
      for (const t of g.tests) if (!existsSync(path.join(ROOT, t))) problems.push(`${g.guard}: ${t} is gone`);
    }
    assert.deepEqual(problems, [], 'update scripts/mutants.json where code moved');
  });
});
