/**
 * Two features write globalState at the same moment: the second writes while the first one's flush is
 * on its way, and the echo of that flush replaces the extension host's object. Through the ordered
 * memento nothing is lost; straight on VS Code's globalState the second write is.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { type GlobalMemento, OrderedMemento } from '../../src/platform/state/orderedMemento';
import { EchoingMemento, Loop } from '../shared/echoingMemento';

/** Health writes its cache; the moment that write has reached the workbench, apps write theirs. */
async function interleavedWrites(loop: Loop, raw: EchoingMemento, memento: GlobalMemento): Promise<void> {
  const second = new Promise<void>((resolve, reject) => {
    raw.onStored = () => {
      raw.onStored = undefined;
      Promise.resolve(memento.update('scrapedeck.apps', ['app-1'])).then(resolve, reject);
    };
  });
  void memento.update('scrapedeck.health', { seen: ['t1'] });
  await second;
  await loop.drain();
}

const SRC = path.join(__dirname, '..', '..', '..', 'src');
const sourceFiles = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    );

describe('platform: globalState writes in order', () => {
  it('main.ts hands the capabilities only the wrapped context, and the shell touches no globalState', () => {
    const main = fs.readFileSync(path.join(SRC, 'main.ts'), 'utf8');
    assert.equal(main.match(/\bshellContext\b/g)?.length, 2, 'shellContext: the parameter and its one use');
    assert.match(main, /const context = withOrderedGlobalState\(shellContext\);/);
    const usesGlobalState = sourceFiles(SRC).filter(
      (f) => !f.startsWith(path.join(SRC, 'platform', 'state')) && /\.globalState\b/.test(fs.readFileSync(f, 'utf8')),
    );
    const outsideCapabilities = usesGlobalState.filter((f) =>
      /[\\/](extension|mcp|testSeam)\.ts$|[\\/]shell[\\/]/.test(f),
    );
    assert.deepEqual(outsideCapabilities, []);
  });

  it('two features writing at the same moment both keep their value, in memory and in storage', async () => {
    const loop = new Loop();
    const raw = new EchoingMemento(loop);
    const memento = new OrderedMemento(raw);
    await interleavedWrites(loop, raw, memento);
    const expected = { 'scrapedeck.health': { seen: ['t1'] }, 'scrapedeck.apps': ['app-1'] };
    assert.deepEqual(raw.stored, expected, 'the next start reads both');
    assert.deepEqual(memento.get('scrapedeck.apps'), ['app-1']);
    assert.deepEqual(memento.get('scrapedeck.health'), { seen: ['t1'] });
  });

  it('straight on globalState (the model of VS Code) the second write is lost', async () => {
    const loop = new Loop();
    const raw = new EchoingMemento(loop);
    await interleavedWrites(loop, raw, raw);
    assert.deepEqual(raw.stored, { 'scrapedeck.health': { seen: ['t1'] } });
    assert.equal(raw.get('scrapedeck.apps'), undefined);
  });

  it('a write waits for the echo of the one before it, and its promise resolves after its own echo', async () => {
    const loop = new Loop();
    const raw = new EchoingMemento(loop);
    const memento = new OrderedMemento(raw);
    const order: string[] = [];
    raw.onStored = () => order.push(`stored ${Object.keys(raw.stored).join('+')}`);
    const first = Promise.resolve(memento.update('a', 1)).then(() =>
      order.push(`a done, stored ${JSON.stringify(raw.stored)}`),
    );
    const second = Promise.resolve(memento.update('b', 2)).then(() =>
      order.push(`b done, stored ${JSON.stringify(raw.stored)}`),
    );
    await Promise.all([first, second]);
    await loop.drain();
    assert.deepEqual(order, ['stored a', 'a done, stored {"a":1}', 'stored a+b', 'b done, stored {"a":1,"b":2}']);
  });

  it('get() and keys() show a queued write at once, the default for a queued removal', async () => {
    const loop = new Loop();
    const raw = new EchoingMemento(loop, { kept: 'k', gone: 'g' });
    const memento = new OrderedMemento(raw);
    const writes = [memento.update('x', 1), memento.update('x', 2), memento.update('gone', undefined)];
    assert.equal(memento.get('x'), 2);
    assert.equal(memento.get('gone', 'default'), 'default');
    assert.equal(memento.get('kept'), 'k');
    assert.deepEqual([...memento.keys()].sort(), ['kept', 'x']);
    await Promise.all(writes);
    await loop.drain();
    assert.deepEqual(raw.stored, { kept: 'k', x: 2 });
    assert.deepEqual([...memento.keys()].sort(), ['kept', 'x']);
  });

  it("a failed write is its caller's error and does not stop the next one", async () => {
    const loop = new Loop();
    const raw = new EchoingMemento(loop);
    let failNext = true;
    const failing: GlobalMemento = {
      keys: () => raw.keys(),
      get: <T>(key: string, defaultValue?: T) => raw.get(key, defaultValue),
      update: (key, value) => {
        if (!failNext) return raw.update(key, value);
        failNext = false;
        return Promise.reject(new Error('storage is full'));
      },
      setKeysForSync: (keys) => raw.setKeysForSync(keys),
    };
    const memento = new OrderedMemento(failing);
    const first = memento.update('a', 1);
    const second = memento.update('b', 2);
    await assert.rejects(first, /storage is full/);
    await second;
    await loop.drain();
    assert.deepEqual(raw.stored, { b: 2 });
    assert.equal(memento.get('a'), undefined, 'the failed value is not shown as if kept');
    memento.setKeysForSync(['b']);
    assert.deepEqual(raw.keysForSync, ['b']);
  });
});
