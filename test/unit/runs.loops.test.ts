/**
 * A loop's items as a document, without VS Code: the lines become items, invalid URLs are found
 * with their line and columns before anything is sent, the limits hold, a save that would replace
 * someone else's change is recognised (even one of the same length), and the document's address
 * round-trips and refuses what Scrapedeck did not make.
 */
import * as assert from 'node:assert/strict';

import {
  decideSave,
  isUrlList,
  loopText,
  loopTypeText,
  markedProblems,
  MAX_LOOP_ITEMS,
  MAX_MARKED_PROBLEMS,
  parseLoopText,
  sameItems,
  urlProblem,
} from '../../src/runs/loopItems';
import { ADDRESSES_KEPT, LoopAddresses, loopFileName, type LoopRef } from '../../src/runs/loopUri';

const t = (message: string, ...args: (string | number | boolean)[]): string =>
  message.replace(/\{(\d+)\}/g, (m, i: string) => String(args[Number(i)] ?? m));

describe('runs: loop items as text', () => {
  it('one item a line: trimmed, blank lines skipped, any line ending', () => {
    const parsed = parseLoopText(
      'https://a.example/1\r\n\n  https://b.example/2  \rhttps://c.example/3\n',
      'URLList',
      t,
    );
    assert.deepEqual(parsed.items, ['https://a.example/1', 'https://b.example/2', 'https://c.example/3']);
    assert.deepEqual(parsed.problems, []);
    assert.equal(loopText(parsed.items), 'https://a.example/1\nhttps://b.example/2\nhttps://c.example/3\n');
  });

  it('reports each invalid URL on its line, with the columns of the item', () => {
    const text = [
      'https://ok.example/a',
      '  shop.example.com/no-scheme',
      'ftp://files.example/x',
      'https://has space.example/',
      'http://',
      'mailto:a@b.example',
      'https://ok.example/b?q=東京',
    ].join('\n');
    const { items, problems } = parseLoopText(text, 'URLList', t);
    assert.equal(items.length, 7);
    assert.deepEqual(
      problems.map((p) => p.line),
      [1, 2, 3, 4, 5],
    );
    assert.deepEqual([problems[0]?.start, problems[0]?.end], [2, 2 + 'shop.example.com/no-scheme'.length]);
    assert.match(problems[0]?.message ?? '', /starting with https:\/\//);
    assert.match(problems[1]?.message ?? '', /not ftp:/);
    assert.match(problems[2]?.message ?? '', /spaces/);
  });

  it("names a loop's kind in words for the picker, never the raw type", () => {
    assert.equal(loopTypeText('URLList', t), 'URL list');
    assert.equal(loopTypeText('TextList', t), 'Text list');
    assert.equal(loopTypeText(' textlist ', t), 'Text list');
    assert.equal(loopTypeText('KeywordList\n\u001b[31m', t), 'List of type KeywordList [31m');
  });

  it('a text list takes any line; an empty document and more than 10,000 items are refused', () => {
    assert.deepEqual(parseLoopText('running shoes\nZürich\n=SUM(A1)\n', 'TextList', t).problems, []);
    assert.equal(isUrlList('urllist'), true);
    assert.equal(isUrlList(null), false);
    const empty = parseLoopText('\n  \n', 'URLList', t);
    assert.equal(empty.problems.length, 1);
    assert.match(empty.problems[0]?.message ?? '', /at least one item/);
    const many = Array.from({ length: MAX_LOOP_ITEMS + 2 }, (_, i) => `https://x.example/${i}`).join('\n');
    const over = parseLoopText(many, 'URLList', t);
    assert.equal(over.problems.length, 1);
    assert.equal(over.problems[0]?.line, MAX_LOOP_ITEMS);
  });

  it('urlProblem accepts http(s) URLs with ports, paths, queries and non-Latin text', () => {
    for (const ok of ['http://localhost:8080/x', 'https://例え.jp/パス?q=1#f', 'https://a.example/?q=a,b'])
      assert.equal(urlProblem(ok, t), undefined, ok);
    for (const bad of ['javascript:alert(1)', 'https:///nohost', '//a.example', 'https://a.example/\u0000'])
      assert.notEqual(urlProblem(bad, t), undefined, bad);
  });
});

describe('runs: how many problems a list marks', () => {
  it('5,000 bad lines: the first 100 marked on their lines, and one more mark counting the rest', () => {
    const text = Array.from({ length: 5000 }, (_, i) => `not a url ${i}`).join('\n');
    const { problems } = parseLoopText(text, 'URLList', t);
    assert.equal(problems.length, 5000);
    const marked = markedProblems(problems, t);
    assert.equal(marked.length, MAX_MARKED_PROBLEMS + 1);
    assert.deepEqual(marked.slice(0, MAX_MARKED_PROBLEMS), problems.slice(0, MAX_MARKED_PROBLEMS));
    assert.equal(marked[MAX_MARKED_PROBLEMS]?.line, 100);
    assert.equal(
      marked[MAX_MARKED_PROBLEMS]?.message,
      '4900 more lines need fixing from here on; only the first 100 are marked.',
    );
    assert.equal(
      markedProblems(problems.slice(0, 101), t)[100]?.message,
      '1 more line needs fixing; only the first 100 are marked.',
    );
    assert.deepEqual(markedProblems(problems.slice(0, 100), t), problems.slice(0, 100));
  });
});

describe('runs: saving a loop (conflict rule)', () => {
  const base = ['https://a.example/1', 'https://a.example/2'];

  it('writes when the service still holds what the document was read from', () => {
    assert.deepEqual(decideSave(base, base, [...base, 'https://a.example/3']), { kind: 'write' });
  });

  it('a change made elsewhere is a conflict, even one of the same length', () => {
    assert.deepEqual(
      decideSave(base, ['https://a.example/1', 'https://a.example/9'], [...base, 'https://a.example/3']),
      { kind: 'conflict' },
    );
    assert.deepEqual(decideSave(base, [...base].reverse(), ['https://a.example/1']), { kind: 'conflict' });
    assert.deepEqual(
      decideSave(undefined, base, ['https://a.example/1']),
      { kind: 'conflict' },
      'never read: nothing to compare with',
    );
  });

  it('nothing to send when the service already holds exactly this list', () => {
    assert.deepEqual(decideSave(['https://old.example/'], base, [...base]), { kind: 'unchanged' });
    assert.ok(sameItems(base, [...base]));
    assert.ok(!sameItems(base, [base[0] ?? '']));
  });
});

describe('runs: a list document’s address', () => {
  it('names the task and the loop; what a path cannot hold is replaced', () => {
    assert.equal(loopFileName('Amazon prices', 'Start URLs'), 'Amazon prices · Start URLs.txt');
    assert.equal(loopFileName('a/b\\c\u0007', '..'), 'a-b-c- · untitled.txt');
    assert.ok(loopFileName('x'.repeat(300), 'y').length < 200);
  });

  const account = 'a'.repeat(24);
  const ref: LoopRef = { account, taskId: 'task-1', actionId: 'act 2&x=1', loopType: 'URLList' };
  const uri = (path: string) => ({ scheme: 'scrapedeck', authority: '', path, query: '' });

  it('holds no ids, account or query: only the name, and what it refers to is kept beside it (issue 32 item 6)', () => {
    const addresses = new LoopAddresses();
    const path = addresses.pathFor(ref, 'Amazon prices · Start URLs.txt');
    assert.equal(path, '/Amazon prices · Start URLs.txt');
    assert.deepEqual(addresses.refOf(uri(path)), ref);
    assert.ok(addresses.isList(uri(path)));
    assert.equal(addresses.pathFor({ ...ref }, 'Amazon prices · Start URLs.txt'), path, 'the same list keeps its path');
    // Another account's (or another loop's) list of the same name gets a number, never the first one's path.
    assert.equal(
      addresses.pathFor({ ...ref, account: 'b'.repeat(24) }, 'Amazon prices · Start URLs.txt'),
      '/Amazon prices · Start URLs (2).txt',
    );
    assert.equal(
      addresses.pathFor({ ...ref, actionId: 'other' }, 'Amazon prices · Start URLs.txt'),
      '/Amazon prices · Start URLs (3).txt',
    );
    const copy = addresses.pathFor({ ...ref, snapshot: '1' }, 'Amazon prices · Start URLs (on the service).txt');
    assert.equal(addresses.isList(uri(copy)), false, 'the copy beside a conflict is not a list to save');
    // Addresses of the old shape (account as authority, ids in the query), other schemes, unknown paths: not found.
    assert.equal(addresses.refOf({ scheme: 'scrapedeck', authority: account, path, query: '' }), undefined);
    assert.equal(addresses.refOf({ ...uri(path), query: 'taskId=task-1&actionId=a&loopType=URLList' }), undefined);
    assert.equal(addresses.refOf({ ...uri(path), scheme: 'file' }), undefined);
    assert.equal(addresses.refOf(uri('/Nothing · here.txt')), undefined);
  });

  it('survives a reload through its store, which is parsed (junk is dropped), and keeps at most ADDRESSES_KEPT', () => {
    let kept: unknown;
    const store = { get: () => kept, set: (value: unknown) => void (kept = JSON.parse(JSON.stringify(value))) };
    const first = new LoopAddresses(store);
    const path = first.pathFor(ref, 'A · B.txt');
    (kept as Record<string, unknown>)['/bad.txt'] = {
      account: 'not-hex!',
      taskId: 't',
      actionId: 'a',
      loopType: 'URLList',
    };
    (kept as Record<string, unknown>)['/long.txt'] = { ...ref, taskId: 'x'.repeat(200) };
    (kept as Record<string, unknown>)['no-slash.txt'] = ref;
    const again = new LoopAddresses(store);
    assert.deepEqual(again.refOf(uri(path)), ref);
    for (const junk of ['/bad.txt', '/long.txt', 'no-slash.txt']) assert.equal(again.refOf(uri(junk)), undefined, junk);
    assert.equal(new LoopAddresses({ get: () => 'garbage', set: () => undefined }).refOf(uri(path)), undefined);

    for (let i = 0; i < ADDRESSES_KEPT + 5; i++) again.pathFor({ ...ref, taskId: `t${i}` }, `T${i} · L.txt`);
    assert.equal(Object.keys(kept as object).length, ADDRESSES_KEPT);
    assert.equal(again.refOf(uri(path)), undefined, 'the oldest went first');
    assert.equal(again.refOf(uri(`/T${ADDRESSES_KEPT + 4} · L.txt`))?.taskId, `t${ADDRESSES_KEPT + 4}`);
  });
});
