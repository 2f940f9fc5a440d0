/**
 * What a workspace ships can never make a pull remove or skip a complete row (issue 44 item 1),
 * and what a pull leaves behind (issue 48 items 1, 2, 7, 10): against the sandbox, with the real
 * pull code (`pullOnce`, as the extension runs it).
 *
 * - a pull record planted beside `rows.csv` (an older version's name) with the task's id and an
 *   offset inside a quoted field: not read; every row stays, the new rows are appended once;
 * - a record of our own store whose offset falls inside a quoted field: a pull cuts no line;
 * - leftovers of a crashed pull (an older version's record and its temporary file, a noted
 *   temporary file of a process that is gone) are gone after the next pull; in Restricted Mode
 *   nothing the folder holds is touched;
 * - progress counts the rows of a batch once they are flushed, before the batch is marked;
 * - the file picker leaves out what a pull would refuse (a link, a second name);
 * - tasks of one name get distinct suggested file names;
 * - Restricted Mode's wall: only a new file, or one a pull made.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import { suggestedFileName } from '../../src/data/formats/rowFormats';
import { fitOf } from '../../src/data/pull/columnFit';
import { isMade, markMade, mayWriteUntrusted } from '../../src/data/pull/ownFiles';
import { bindingOf, journalPathFor, realFilePath, writeFileJournal } from '../../src/data/pull/pullJournal';
import { PullFailure } from '../../src/data/pull/pullRows';
import { UnusableFileError } from '../../src/data/pull/unusableFile';
import { startSandbox } from '../../src/sandbox/server';
import { closeFresh, type FreshSandbox, freshSandbox } from '../shared/freshSandbox';
import { readBack } from '../shared/pullDestination';
import { pullOnce, sandboxClient, TEST_RECORDS } from '../shared/pullScenario';
import { scratchFolder } from '../shared/scratchFolder';

/** A user's CSV with the task's columns: 14 complete rows, every cell quoted (a comma inside). */
function usersCsv(fields: readonly string[]): { text: string; offsetInQuote: number } {
  const header = `${fields.map((f) => `"${f.replace(/"/g, '""')}"`).join(',')}\r\n`;
  const lines = Array.from(
    { length: 14 },
    (_, i) => `${fields.map((_f, j) => `"mine ${i}, cell ${j}"`).join(',')}\r\n`,
  );
  const text = header + lines.join('');
  // Inside the first quoted cell of the second row: what the attack's record pointed at.
  return { text, offsetInQuote: Buffer.byteLength(header + lines[0], 'utf8') + 4 };
}

/** A pull record of our own store, bound to `file` (so a pull acts on it), of a batch of 5 rows starting at `offset`. */
async function writeBoundRecord(f: FreshSandbox, file: string, offset: number, hashDigit: string): Promise<void> {
  await writeFileJournal(TEST_RECORDS, {
    version: 2,
    file: await realFilePath(file),
    taskId: f.task.taskId,
    taskName: f.task.taskName,
    offset,
    rows: 5,
    hash: hashDigit.repeat(64),
    ...(await bindingOf(file, offset)),
  });
}

describe('data: what a workspace ships cannot make a pull cut or skip a row; nothing of ours stays', function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => {
    dir = scratchFolder('scrapedeck-trust-');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a pull record planted beside rows.csv (the task id, an offset inside a quoted field) is not read: every row stays, the new rows come once', async () => {
    const f = await freshSandbox(120);
    try {
      const file = path.join(dir, 'rows.csv');
      const mine = usersCsv(Object.keys(f.rows[0] ?? {}));
      writeFileSync(file, mine.text);
      const planted = {
        version: 1,
        taskId: f.task.taskId,
        taskName: f.task.taskName,
        offset: mine.offsetInQuote,
        rows: 5,
        hash: 'a'.repeat(64),
      };
      writeFileSync(path.join(dir, '.rows.csv.scrapedeck-pull'), JSON.stringify(planted));
      const result = await pullOnce({ source: f.client, task: f.task, file, format: 'csv', batchSize: 50 });
      const after = readFileSync(file);
      assert.equal(
        after.subarray(0, Buffer.byteLength(mine.text)).toString('utf8'),
        mine.text,
        "the user's bytes are all still there, unchanged",
      );
      assert.deepEqual(
        [result.cutBytes, result.completed, result.rows],
        [0, false, f.rows.length],
        'nothing cut, nothing "completed", every new row written',
      );
      assert.equal(readBack(file, 'csv').length, 14 + f.rows.length, "the 14 rows and the task's rows, once each");
    } finally {
      await closeFresh(f);
    }
  });

  it('a record of our own store whose offset falls inside a quoted field: the pull cuts no line (refused, the file as it was)', async () => {
    const f = await freshSandbox(120);
    try {
      const file = path.join(dir, 'rows.csv');
      const mine = usersCsv(Object.keys(f.rows[0] ?? {}));
      writeFileSync(file, mine.text);
      // Bound to the file (so it is acted on), but its offset is not where a record starts.
      const offset = mine.offsetInQuote;
      await writeBoundRecord(f, file, offset, 'b');
      await assert.rejects(
        pullOnce({ source: f.client, task: f.task, file, format: 'csv', batchSize: 50 }),
        (e: unknown) =>
          e instanceof PullFailure && e.error instanceof UnusableFileError && e.error.reason === 'changed',
      );
      assert.equal(readFileSync(file, 'utf8'), mine.text, 'not a byte cut');
    } finally {
      rmSync(await journalPathFor(TEST_RECORDS, path.join(dir, 'rows.csv')), { force: true });
      await closeFresh(f);
    }
  });

  it('JSON Lines: a trailing piece without a line break is the most a pull ever cuts', async () => {
    const f = await freshSandbox(120);
    try {
      const file = path.join(dir, 'rows.jsonl');
      const lines = `${Array.from({ length: 6 }, (_, i) => JSON.stringify({ mine: i }) + '\n').join('')}{"partial":`;
      writeFileSync(file, lines);
      // A bound record whose offset is inside the second line; its batch was marked (other rows come).
      const offset = 20;
      await writeBoundRecord(f, file, offset, 'c');
      const result = await pullOnce({ source: f.client, task: f.task, file, format: 'jsonl', batchSize: 50 });
      assert.equal(result.cutBytes, Buffer.byteLength('{"partial":'), 'only the piece after the last line break');
      assert.ok(
        readFileSync(file, 'utf8').startsWith(lines.slice(0, lines.lastIndexOf('\n') + 1)),
        'every whole line kept',
      );
    } finally {
      await closeFresh(f);
    }
  });

  it('leftovers of a crashed pull are gone after the next one (trusted); in Restricted Mode only our own noted files go', async () => {
    const f = await freshSandbox(60);
    try {
      const dead = spawnSync(process.execPath, ['-e', '']).pid ?? 0;
      const setUp = (name: string): string[] => {
        const legacyRecord = path.join(dir, `.${name}.scrapedeck-pull`);
        const legacyTemp = path.join(dir, `..${name}.scrapedeck-pull.85ebc331449d.scrapedeck-tmp`);
        const noted = path.join(dir, `.${name}.0123456789ab.scrapedeck-tmp`);
        writeFileSync(
          legacyRecord,
          JSON.stringify({
            version: 1,
            taskId: f.task.taskId,
            taskName: 'x',
            offset: 0,
            rows: 5,
            hash: 'd'.repeat(64),
          }),
        );
        writeFileSync(legacyTemp, '{"version":1,"taskId":"'.padEnd(202, 'x'));
        writeFileSync(noted, 'half a rewrite');
        // The note a pull of a process that is gone made before creating `noted`.
        mkdirSync(path.join(TEST_RECORDS, 'temps'), { recursive: true });
        writeFileSync(
          path.join(TEST_RECORDS, 'temps', `${createHash('sha256').update(noted).digest('hex').slice(0, 32)}.json`),
          JSON.stringify({ path: noted, pid: dead }),
        );
        return [legacyRecord, legacyTemp, noted];
      };
      setUp('big.csv');
      await pullOnce({ source: f.client, task: f.task, file: path.join(dir, 'big.csv'), format: 'csv', batchSize: 25 });
      assert.deepEqual(readdirSync(dir), ['big.csv'], "nothing of Scrapedeck's own beside the file");

      // (No rows are left to pull: the file itself is not made.)
      const [legacyRecord, legacyTemp] = setUp('restricted.csv');
      await pullOnce({
        source: f.client,
        task: f.task,
        file: path.join(dir, 'restricted.csv'),
        format: 'csv',
        batchSize: 25,
        sink: { trusted: false },
      });
      assert.deepEqual(
        readdirSync(dir).sort(),
        [path.basename(legacyTemp), path.basename(legacyRecord), 'big.csv'].sort(),
        'Restricted Mode: what the folder holds stays; our own noted file went',
      );
    } finally {
      await closeFresh(f);
    }
  });

  it('progress counts a batch once it is flushed, before its mark', async () => {
    const f = await freshSandbox(2_500);
    try {
      let shown = -1;
      const atMark: number[] = [];
      await pullOnce({
        source: {
          getNotExportedData: (id, size, o) => f.client.getNotExportedData(id, size, o),
          markExported: (id, o) => (atMark.push(shown), f.client.markExported(id, o)),
        },
        task: f.task,
        file: path.join(dir, 'big.jsonl'),
        format: 'jsonl',
        pull: { onProgress: (p) => (shown = p.rows) },
      });
      assert.deepEqual(atMark, [1000, 2000, 2500], 'what is on disk is shown while its mark is on its way');
    } finally {
      await closeFresh(f);
    }
  });

  it('the file picker leaves out what a pull would refuse: a symbolic link, a file with a second name', async () => {
    const outside = path.join(dir, 'outside.csv');
    writeFileSync(outside, 'a,b\r\n1,2\r\n');
    const link = path.join(dir, 'shipped.csv');
    symlinkSync(outside, link);
    const second = path.join(dir, 'second.csv');
    linkSync(outside, second);
    assert.deepEqual(await fitOf(link, 'csv', ['a', 'b']), { kind: 'refused', reason: 'link' });
    assert.deepEqual(await fitOf(link, 'sqlite', undefined), { kind: 'refused', reason: 'link' });
    assert.deepEqual(await fitOf(second, 'csv', ['a', 'b']), { kind: 'refused', reason: 'hard-link' });
    rmSync(second);
    assert.deepEqual(await fitOf(outside, 'csv', ['a', 'b']), { kind: 'fits' });
  });

  it('tasks of one name (the seed\'s two "eBay product details") get distinct suggested file names', async () => {
    const sandbox = await startSandbox({ rateLimit: 0 });
    const client = sandboxClient(sandbox.info.baseUrl, sandbox.info.accounts[0]?.apiKey ?? '');
    try {
      const tasks: { taskId: string; taskName: string }[] = [];
      for (const g of (await client.listTaskGroups()).data)
        tasks.push(...(await client.searchTasks(g.taskGroupId)).data);
      const named = tasks.filter((t) => t.taskName === 'eBay product details');
      assert.ok(named.length >= 2, 'the seed has two tasks of that name');
      const suggest = (t: { taskId: string; taskName: string }) =>
        suggestedFileName(t, tasks.some((o) => o.taskId !== t.taskId && o.taskName === t.taskName) ? {} : undefined);
      assert.equal(new Set(named.map(suggest)).size, named.length, named.map(suggest).join(' | '));
      assert.equal(
        new Set(named.map((t) => suggestedFileName(t, {}, ' run 7'))).size,
        named.length,
        "one run's export too",
      );
      const single = tasks.find((t) => tasks.filter((o) => o.taskName === t.taskName).length === 1);
      assert.ok(single);
      assert.equal(
        suggest(single),
        single.taskName
          .replace(/[\\/:*?"<>|]+/g, ' ')
          .replace(/\s+/g, ' ')
          .trim(),
        'a name of its own stays as it is',
      );
    } finally {
      await client.close();
      await sandbox.close();
    }
  });

  it("Restricted Mode's wall: a new file, or the very file a pull made; never one the folder came with, nor one put in its place", async () => {
    const f = await freshSandbox(40);
    try {
      const records = path.join(dir, 'store');
      const shipped = path.join(dir, 'rows.jsonl');
      writeFileSync(shipped, '{"theirs":1}\n');
      assert.equal(await mayWriteUntrusted(records, shipped), false, 'shipped');
      const made = path.join(dir, 'made.jsonl');
      assert.equal(await mayWriteUntrusted(records, made), true, 'new');
      await pullOnce({
        source: f.client,
        task: f.task,
        file: made,
        format: 'jsonl',
        sink: { records, onCreate: (created) => markMade(records, created) },
      });
      assert.equal(await isMade(records, made), true);
      assert.equal(await mayWriteUntrusted(records, made), true, 'made by the pull');
      // Another file under its name; file systems give a freed inode out again, so try until one does.
      const ino = statSync(made).ino;
      for (let i = 0; i < 50; i++) {
        rmSync(made);
        writeFileSync(made, '{"swapped":1}\n');
        if (statSync(made).ino === ino) break;
      }
      assert.equal(
        await mayWriteUntrusted(records, made),
        false,
        `another file under its name (inode ${statSync(made).ino === ino ? 'reused' : 'not reused'})`,
      );
      rmSync(made);
      symlinkSync(shipped, made);
      assert.equal(await mayWriteUntrusted(records, made), false, 'a link under its name');
    } finally {
      await closeFresh(f);
    }
  });
});
