/**
 * The build and each .vsix are made once per change of their sources (scripts/lib/stamp.mjs): the
 * hash over a set of files and folders changes with any file's content or name, and only then.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { importScriptLib } from './helpers/scriptLib';

interface StampLib {
  hashInputs(root: string, entries: string[], extra?: string): string;
  readStamp(file: string): unknown;
  writeStamp(file: string, value: unknown): void;
}

describe('scripts: build and package stamps', () => {
  let dir: string;
  let lib: StampLib;
  before(async () => {
    lib = await importScriptLib<StampLib>('stamp.mjs');
  });
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-stamp-'));
    mkdirSync(path.join(dir, 'src', 'deep'), { recursive: true });
    writeFileSync(path.join(dir, 'src', 'a.ts'), 'a');
    writeFileSync(path.join(dir, 'src', 'deep', 'b.ts'), 'b');
    writeFileSync(path.join(dir, 'package.json'), '{}');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const hash = (): string => lib.hashInputs(dir, ['src', 'package.json', 'missing.txt']);

  it('is the same for the same files, whatever their times', () => {
    const first = hash();
    writeFileSync(path.join(dir, 'src', 'a.ts'), 'a'); // rewritten, same content
    assert.equal(hash(), first);
  });

  it("changes with a file's content, a new file in a folder, a renamed file and a file that appears", () => {
    const seen = new Set([hash()]);
    writeFileSync(path.join(dir, 'src', 'deep', 'b.ts'), 'b2');
    seen.add(hash());
    writeFileSync(path.join(dir, 'src', 'deep', 'c.ts'), '');
    seen.add(hash());
    rmSync(path.join(dir, 'src', 'a.ts'));
    writeFileSync(path.join(dir, 'src', 'a2.ts'), 'a');
    seen.add(hash());
    writeFileSync(path.join(dir, 'missing.txt'), '');
    seen.add(hash());
    assert.equal(seen.size, 5);
  });

  it('a stamp that cannot be read counts as none (the output is made again)', () => {
    const file = path.join(dir, 'out.stamp.json');
    assert.equal(lib.readStamp(file), undefined);
    writeFileSync(file, '{"inputs": "abc"');
    assert.equal(lib.readStamp(file), undefined);
    lib.writeStamp(file, { inputs: 'abc' });
    assert.deepEqual(lib.readStamp(file), { inputs: 'abc' });
  });
});
