/**
 * The appended file's guards that only an interrupted pull reaches (`appendFile.ts`), each test
 * failing with its guard alone removed:
 * - a link swapped in between the file's check and its open is refused by the open itself
 *   (O_NOFOLLOW in safeFiles.ts), through the `beforeOpen` seam;
 * - a batch that was marked elsewhere (its bytes are the file's now) has a partial last row cut
 *   back and its whole rows kept (`acceptTail`);
 * - an interrupted CSV batch whose rows have a field its header lacks is refused, the file left as
 *   it was (widening it would rewrite bytes that belong to the batch in flight).
 */
import * as assert from 'node:assert/strict';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { AppendFile } from '../../src/data/pull/appendFile';
import { UnusableFileError } from '../../src/data/pull/unusableFile';
import { readStart, UnsafeFileError } from '../../src/platform/files/safeFiles';

const isUnsafe = (reason: string) => (e: unknown) => e instanceof UnsafeFileError && e.reason === reason;

describe('data: the appended file, between its check and its open, and after an interruption', () => {
  let dir: string;
  let outside: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-tail-'));
    outside = mkdtempSync(path.join(tmpdir(), 'scrapedeck-elsewhere-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  async function written(
    file: string,
    format: 'csv' | 'jsonl',
    rows: Record<string, string>[],
    root = dir,
  ): Promise<AppendFile> {
    const f = await AppendFile.open(file, format, { root });
    await f.write(await f.pieces(rows));
    return f;
  }

  it('a link swapped in after the check and before the open is refused by the open: nothing is created where it points', async () => {
    if (process.platform === 'win32') return; // no O_NOFOLLOW there; the lstat checks stand alone
    const file = path.join(dir, 'rows.csv');
    await written(file, 'csv', [{ a: '1' }]);
    const planted = path.join(outside, 'planted.csv');
    const f = await AppendFile.open(file, 'csv', {
      root: dir,
      // The check passed on the real file; now the name is a link to a file that does not exist yet.
      beforeOpen: () => {
        unlinkSync(file);
        symlinkSync(planted, file);
      },
    });
    await assert.rejects(f.write(await f.pieces([{ a: '2' }])), isUnsafe('link'));
    assert.equal(existsSync(planted), false, 'nothing was written through the link');
  });

  it('a new file: a link planted under its name after the check is not followed (O_EXCL): nothing is created where it points', async () => {
    if (process.platform === 'win32') return;
    const file = path.join(dir, 'new.csv');
    const planted = path.join(outside, 'planted.csv');
    const f = await AppendFile.open(file, 'csv', { root: dir, beforeOpen: () => symlinkSync(planted, file) });
    await assert.rejects(
      f.write(await f.pieces([{ a: '1' }])),
      (e: unknown) => (e as NodeJS.ErrnoException).code === 'EEXIST' || e instanceof UnsafeFileError,
    );
    assert.equal(existsSync(planted), false, 'nothing was written through the link');
  });

  it('a read opens no link either (no lstat runs before it): a link to a file elsewhere is refused, its bytes unread', async () => {
    if (process.platform === 'win32') return;
    const secret = path.join(outside, 'secret.txt');
    writeFileSync(secret, 'not for the pull');
    const link = path.join(dir, 'rows.csv');
    symlinkSync(secret, link);
    await assert.rejects(readStart(link, 100), isUnsafe('link'));
  });

  for (const format of ['csv', 'jsonl'] as const) {
    it(`${format}: a marked batch that left a partial row: the whole rows after the offset are kept, the partial one cut`, async () => {
      const file = path.join(dir, `rows.${format}`);
      const first = await written(file, format, [{ a: '1', b: 'x' }]);
      const offset = first.size;
      const whole = format === 'csv' ? '2,y\r\n' : '{"a":"2","b":"y"}\n';
      // A piece with no line break: a quoted cell left open is refused instead (data.pullTrust.test.ts).
      const partial = format === 'csv' ? '3,half a ro' : '{"a":"3","b":';
      appendFileSync(file, whole + partial);
      const before = readFileSync(file, 'utf8');
      const resumed = await AppendFile.open(file, format, { root: dir, pendingOffset: offset });
      const cut = await resumed.acceptTail();
      assert.equal(cut, Buffer.byteLength(partial), 'the partial row, and only it, is cut');
      assert.equal(
        readFileSync(file, 'utf8'),
        before.slice(0, before.length - partial.length),
        'the file ends after the last whole row',
      );
      await resumed.write(await resumed.pieces([{ a: '4', b: 'z' }]));
      const lines = readFileSync(file, 'utf8')
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split(/\r?\n/);
      assert.equal(lines.length, format === 'csv' ? 4 : 3, lines.join(' | '));
      assert.match(lines[lines.length - 1] ?? '', /4/, 'the next batch follows the kept row');
    });
  }

  it('csv: an interrupted batch with a field its header lacks is refused, and the file is left as it was', async () => {
    const file = path.join(dir, 'rows.csv');
    const first = await written(file, 'csv', [{ a: '1', b: 'x' }]);
    const offset = first.size;
    appendFileSync(file, '2,y\r\n');
    const before = readFileSync(file);
    const resumed = await AppendFile.open(file, 'csv', { root: dir, pendingOffset: offset });
    await assert.rejects(
      resumed.pieces([{ a: '2', b: 'y', c: 'new' }]),
      (e: unknown) =>
        e instanceof UnusableFileError && e.reason === 'changed' && /fields its header lacks/.test(e.message),
    );
    assert.deepEqual(readFileSync(file), before, 'no byte changed: no widening under a batch in flight');
  });

  it('the seam runs only in tests: without it, a write goes through (control for the tests above)', async () => {
    mkdirSync(path.join(dir, 'sub'));
    const file = path.join(dir, 'sub', 'rows.csv');
    await written(file, 'csv', [{ a: '1' }]);
    const f = await AppendFile.open(file, 'csv', { root: dir });
    await f.write(await f.pieces([{ a: '2' }]));
    assert.match(readFileSync(file, 'utf8'), /1\r\n2\r\n$/);
  });
});
