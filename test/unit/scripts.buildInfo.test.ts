/**
 * The type-check is incremental (tsconfig.json's tsBuildInfoFile), and tsc trusts its record
 * without looking at out/: scripts/lib/project.mjs drops the record when a compiled file was
 * deleted or edited since, so the next tsc emits it again and no tier runs with a test missing.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { importScriptLib } from './helpers/scriptLib';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

interface ProjectLib {
  forgetBuildInfoIfOutputsChanged(root: string): string | undefined;
}

describe('scripts: the incremental type-check trusts its record only while out/ matches it', function () {
  let dir: string;
  let lib: ProjectLib;
  const record = (): string => path.join(dir, 'out', '.tsbuildinfo');
  const compile = (): void => {
    execFileSync(process.execPath, [TSC, '-p', path.join(dir, 'tsconfig.json')], { stdio: 'pipe' });
  };

  before(async () => {
    lib = await importScriptLib<ProjectLib>('project.mjs');
    dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-buildinfo-'));
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          outDir: 'out',
          rootDir: '.',
          incremental: true,
          tsBuildInfoFile: 'out/.tsbuildinfo',
          types: [],
          noLib: true,
        },
        include: ['*.ts'],
      }),
    );
    // The globals tsc needs, instead of its standard library: parsing that took 2-3 CPU-seconds of
    // every compile here, and nothing below depends on it.
    writeFileSync(
      path.join(dir, 'globals.d.ts'),
      [
        'Array<T> { length: number; [n: number]: T; }',
        'Boolean {}',
        'CallableFunction {}',
        'Function {}',
        'IArguments {}',
        'NewableFunction {}',
        'Number {}',
        'Object {}',
        'RegExp {}',
        'String {}',
      ]
        .map((i) => `interface ${i}\n`)
        .join(''),
    );
    writeFileSync(path.join(dir, 'a.ts'), 'export const a = 1;\n');
    writeFileSync(path.join(dir, 'a.test.ts'), 'export const b = 2;\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the record while every output is there and untouched', () => {
    compile();
    assert.ok(existsSync(record()), 'tsc wrote its record');
    assert.equal(lib.forgetBuildInfoIfOutputsChanged(dir), undefined);
    assert.ok(existsSync(record()));
  });

  it('drops it when a compiled file is gone, and tsc then emits that file again', () => {
    rmSync(path.join(dir, 'out', 'a.test.js'));
    compile();
    assert.ok(!existsSync(path.join(dir, 'out', 'a.test.js')), 'tsc alone does not notice (the reason for the check)');
    assert.equal(lib.forgetBuildInfoIfOutputsChanged(dir), path.join('out', 'a.test.js'));
    assert.ok(!existsSync(record()));
    compile();
    assert.ok(existsSync(path.join(dir, 'out', 'a.test.js')));
  });

  it('drops it when a compiled file was edited after tsc wrote it', () => {
    assert.equal(lib.forgetBuildInfoIfOutputsChanged(dir), undefined);
    const output = path.join(dir, 'out', 'a.js');
    writeFileSync(output, 'exports.a = 2;\n');
    const later = new Date(Date.now() + 5_000);
    utimesSync(output, later, later);
    assert.equal(lib.forgetBuildInfoIfOutputsChanged(dir), path.join('out', 'a.js'));
    assert.ok(!existsSync(record()));
  });

  it('keeps it for a source added since: tsc compiles a new file anyway', () => {
    compile();
    writeFileSync(path.join(dir, 'c.ts'), 'export const c = 3;\n');
    const later = new Date(Date.now() + 5_000);
    utimesSync(path.join(dir, 'c.ts'), later, later);
    assert.equal(lib.forgetBuildInfoIfOutputsChanged(dir), undefined);
    compile();
    assert.ok(existsSync(path.join(dir, 'out', 'c.js')));
    rmSync(record());
  });

  it('has nothing to check where there is no record', () => {
    assert.equal(lib.forgetBuildInfoIfOutputsChanged(dir), undefined);
  });
});
