/**
 * The end-to-end run starts without an earlier run's failure screenshots (scripts/lib/artifacts.mjs):
 * a green run must not sit beside an old failure's picture.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { importScriptLib } from './helpers/scriptLib';

interface ArtifactsLib {
  prepareArtifacts(dir: string): string[];
}

describe('scripts: an end-to-end run starts without old failure screenshots', () => {
  let dir: string;
  let lib: ArtifactsLib;
  before(async () => {
    lib = await importScriptLib<ArtifactsLib>('artifacts.mjs');
  });
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-artifacts-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('removes failed-* and keeps the step screenshots and the rest', () => {
    for (const name of [
      'failed-journey-5-sign-in.png',
      'failed-data-D2.png',
      '05-signed-in.png',
      'activation.txt',
      'not-failed.png',
    ])
      writeFileSync(path.join(dir, name), 'x');
    assert.deepEqual(lib.prepareArtifacts(dir).sort(), ['failed-data-D2.png', 'failed-journey-5-sign-in.png']);
    assert.deepEqual(readdirSync(dir).sort(), ['05-signed-in.png', 'activation.txt', 'not-failed.png']);
  });

  it('creates the folder when it is missing', () => {
    const missing = path.join(dir, 'artifacts', 'e2e');
    assert.deepEqual(lib.prepareArtifacts(missing), []);
    assert.deepEqual(readdirSync(missing), []);
  });
});
