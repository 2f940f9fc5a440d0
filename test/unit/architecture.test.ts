/**
 * The floors of docs/architecture.md, checked on the source: a module may import its own folder
 * and the folders below it, never one above. Type-only imports count too (they are still a
 * dependency of the design). A new folder must be given its floor here. Analytics is four rooms
 * (`analytics/host`, `page`, `protocol`, `model`), each on its own floor; the page's sub-folders are rooms
 * below it, and so are those of `sandbox` and `api`.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

const SRC = path.resolve(__dirname, '..', '..', '..', 'src');

/**
 * Top to bottom, as docs/architecture.md draws them. `mcp.ts` is an entry point like extension.ts
 * and main.ts (it assembles the agent tool table and the client), so it sits on the top floor; what
 * it reaches must still be free of `vscode` (checked below).
 */
export const FLOORS: readonly string[][] = [
  ['extension', 'testSeam', 'mcp', 'main', 'shell'],
  ['agents'],
  ['analytics/host'],
  ['analytics/page'],
  ['analytics/page/form', 'analytics/page/table', 'analytics/page/charts', 'analytics/page/panels'],
  ['analytics/page/common'],
  ['tasks'],
  ['apps', 'data', 'health', 'runs'],
  ['data/browse/host', 'data/sync'],
  ['data/browse/page'],
  ['data/export', 'data/pull', 'data/browse/store'],
  ['data/sqlite', 'data/xlsx', 'data/postgres'],
  ['data/common', 'data/formats', 'data/browse/protocol'],
  ['account'],
  ['analytics/protocol'],
  ['analytics/model'],
  ['platform'],
  ['platform/files', 'platform/prompts', 'platform/state', 'platform/webview'],
  ['sandbox'],
  ['sandbox/routes'],
  ['sandbox/state'],
  ['sandbox/http'],
  ['sandbox/seed'],
  ['api'],
  ['api/ops'],
  ['api/http'],
  ['api/auth'],
  ['api/schemas'],
  ['api/errors'],
];

/** Arrows that point up, each with the work that removes it: none today. */
const KNOWN_UPWARD = new Set<string>([]);
/** Files over 300 lines, each with the work that splits it: none today. */
const KNOWN_LONG = new Set<string>([]);
/**
 * A folder past 20 source files of its own is split into sub-folders by job, as `account/` was
 * (`account/sandbox/`, on the account's floor: a sub-folder of a room that is not a house stays in
 * that room). None is let off.
 */
const KNOWN_CROWDED = new Set<string>();

function floorOf(unit: string): number {
  const at = FLOORS.findIndex((floor) => floor.includes(unit));
  assert.ok(at >= 0, `src/${unit} has no floor in test/unit/architecture.test.ts`);
  return at;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : /\.ts$/.test(name) ? [full] : [];
  });
}

/** Folders whose sub-folders are rooms of their own (a file directly inside is in the folder's own room). */
const HOUSES = new Set(['analytics', 'data', 'platform', 'sandbox', 'api']);
/**
 * Sub-folders that are houses too: the data browser is four rooms (`data/browse/host`, `page`, `protocol`, `store`);
 * the analytics page's sub-folders (`form`, `table`, `charts`, `panels`, `common`) are rooms below its own.
 */
const INNER_HOUSES = new Set(['data/browse', 'analytics/page']);

/**
 * `src/runs/runStore.ts` -> `runs`; `src/extension.ts` -> `extension`; `src/analytics/page/entry.ts` -> `analytics/page`;
 * `src/data/pull/pullFlow.ts` -> `data/pull`; `src/data/index.ts` -> `data`.
 */
export const unitOf = (file: string): string => {
  const parts = path.relative(SRC, file).split(path.sep);
  const top = parts[0]?.replace(/\.ts$/, '') ?? '';
  // An import of a folder (its index.ts) names the folder: `../protocol` is the room analytics/protocol.
  const isFolder = statSync(file, { throwIfNoEntry: false })?.isDirectory() === true;
  const inRoom = parts.length >= 3 || (parts.length === 2 && isFolder);
  if (!HOUSES.has(top) || !inRoom) return top;
  const room = `${top}/${parts[1] as string}`;
  const inInner = parts.length >= 4 || (parts.length === 3 && isFolder);
  return INNER_HOUSES.has(room) && inInner ? `${room}/${parts[2] as string}` : room;
};

function edges(): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const file of files(SRC)) {
    const text = readFileSync(file, 'utf8');
    const specifiers = [...text.matchAll(/(?:from\s+|require\(\s*|import\(\s*)'(\.{1,2}(?:\/[^']*)?)'/g)].map(
      (m) => m[1] as string,
    );
    for (const spec of specifiers) {
      const target = path.resolve(path.dirname(file), spec);
      const from = unitOf(file);
      const to = unitOf(target);
      if (from === to) continue;
      const key = `${from} -> ${to}`;
      found.set(key, (found.get(key) ?? new Set()).add(path.relative(SRC, file)));
    }
  }
  return found;
}

/** File -> the source files it imports (type-only imports included), resolved to paths under src. */
function fileEdges(): Map<string, string[]> {
  const resolve = (from: string, spec: string): string | undefined => {
    const base = path.resolve(path.dirname(from), spec);
    return [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => {
      try {
        return statSync(candidate).isFile();
      } catch {
        return false;
      }
    });
  };
  return new Map(
    files(SRC).map((file) => {
      const text = readFileSync(file, 'utf8');
      const specs = [...text.matchAll(/(?:from\s+|require\(\s*|import\(\s*)'(\.{1,2}(?:\/[^']*)?)'/g)].map(
        (m) => m[1] as string,
      );
      return [file, specs.map((spec) => resolve(file, spec)).filter((f): f is string => f !== undefined)];
    }),
  );
}

/** Groups of two or more files that import each other in a loop (Tarjan's strongly connected components). */
function importLoops(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        group.push(path.relative(SRC, w));
      } while (w !== v);
      if (group.length > 1) loops.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return loops;
}

describe('architecture: no folder imports one above it', () => {
  const all = edges();

  it('every arrow points down (or is a known one with its fix named)', () => {
    const upward = [...all.entries()]
      .filter(([key]) => {
        const [from, to] = key.split(' -> ') as [string, string];
        return floorOf(from) > floorOf(to) && !KNOWN_UPWARD.has(key);
      })
      .map(([key, where]) => `${key} (${[...where].join(', ')})`);
    assert.deepEqual(upward, []);
  });

  it('only the activation shell and main import the test seam', () => {
    const seamUsers = [...all.entries()].filter(([key]) => key.endsWith('-> testSeam')).map(([key]) => key);
    assert.deepEqual(seamUsers.sort(), ['extension -> testSeam', 'main -> testSeam']);
  });

  it('the folders that run without VS Code import no `vscode` at run time', () => {
    const pure = ['api', 'sandbox', 'analytics/model', 'analytics/protocol'].flatMap((dir) =>
      files(path.join(SRC, dir)),
    );
    const extra = [
      'account/vault.ts',
      'account/clientHolder.ts',
      'account/signIn.ts',
      'account/credentials.ts',
      'account/verify.ts',
      'platform/commandIds.ts',
      'platform/emitter.ts',
    ];
    const offenders = [...pure, ...extra.map((f) => path.join(SRC, f))].filter((f) =>
      /^import\s+(?!type\b)[^;]*from\s+'vscode'/m.test(readFileSync(f, 'utf8')),
    );
    assert.deepEqual(
      offenders.map((f) => path.relative(SRC, f)),
      [],
    );
  });

  it('the MCP server (src/mcp.ts) reaches no `vscode`, however deep: it runs in plain Node', () => {
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:from\s+|require\(\s*|import\(\s*)'(\.{1,2}(?:\/[^']*)?)'/g)) {
        const target = path.resolve(path.dirname(file), m[1] as string);
        visit(statSync(`${target}.ts`, { throwIfNoEntry: false }) ? `${target}.ts` : path.join(target, 'index.ts'));
      }
    };
    visit(path.join(SRC, 'mcp.ts'));
    assert.ok(seen.has(path.join(SRC, 'agents', 'table.ts')), 'the MCP server serves the one tool table');
    const offenders = [...seen].filter((f) =>
      /^import\s+(?!type\b)[^;]*from\s+'vscode'/m.test(readFileSync(f, 'utf8')),
    );
    assert.deepEqual(
      offenders.map((f) => path.relative(SRC, f)),
      [],
    );
  });

  it('the analytics page imports only its protocol, its model and the page kit', () => {
    const inPage = (unit: string) => unit === 'analytics/page' || unit.startsWith('analytics/page/');
    const leaving = [...all.keys()]
      .map((key) => key.split(' -> ') as [string, string])
      .filter(([from, to]) => inPage(from) && !inPage(to));
    assert.ok(leaving.length > 0);
    assert.deepEqual([...new Set(leaving.map(([, to]) => to))].sort(), [
      'analytics/model',
      'analytics/protocol',
      'platform/webview',
    ]);
  });

  it("the data browser's page imports only its protocol and the page kit", () => {
    const fromPage = [...all.keys()].filter((key) => key.startsWith('data/browse/page -> ')).sort();
    assert.deepEqual(fromPage, ['data/browse/page -> data/browse/protocol', 'data/browse/page -> platform/webview']);
  });

  it("the data browser's store and protocol import no `vscode` at run time", () => {
    const pure = ['data/browse/store'].flatMap((dir) => files(path.join(SRC, dir)));
    assert.ok(pure.length > 0);
    const offenders = pure.filter((f) => /^import\s+(?!type\b)[^;]*from\s+'vscode'/m.test(readFileSync(f, 'utf8')));
    assert.deepEqual(
      offenders.map((f) => path.relative(SRC, f)),
      [],
    );
  });

  it('every folder of src/ is a room with a floor (no cross-feature commands/, views/, webview/ or analyticsModel/)', () => {
    const rooms = new Set(files(SRC).map(unitOf));
    for (const gone of ['commands', 'views', 'webview', 'analyticsModel', 'sandboxHost'])
      assert.equal(rooms.has(gone), false, gone);
    for (const room of rooms) floorOf(room);
  });

  it('no source file passes 300 lines', () => {
    const lines = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    const long = files(SRC)
      .map((f) => ({ f: path.relative(SRC, f).split(path.sep).join('/'), n: lines(readFileSync(f, 'utf8')) }))
      .filter((x) => x.n > 300 && !KNOWN_LONG.has(x.f))
      .map((x) => `${x.f}: ${x.n}`);
    assert.deepEqual(long, []);
  });

  it('no folder holds more than 20 source files of its own (sub-folders by job)', () => {
    const folders = new Map<string, number>();
    for (const f of files(SRC)) {
      const folder = path.relative(SRC, path.dirname(f)).split(path.sep).join('/');
      folders.set(folder, (folders.get(folder) ?? 0) + 1);
    }
    const crowded = [...folders]
      .filter(([folder, n]) => n > 20 && !KNOWN_CROWDED.has(folder))
      .map(([folder, n]) => `${folder}: ${n}`);
    assert.deepEqual(crowded, []);
    assert.equal(
      unitOf(path.join(SRC, 'account', 'sandbox', 'sandboxHost.ts')),
      'account',
      "account/sandbox/ is in the account's room",
    );
  });

  it('no files import each other in a loop, inside a folder either', () => {
    assert.deepEqual(importLoops(fileEdges()), []);
  });

  it('the loop finder sees a loop (so the check above can fail)', () => {
    const a = path.join(SRC, 'a.ts');
    const b = path.join(SRC, 'b.ts');
    const c = path.join(SRC, 'c.ts');
    assert.deepEqual(
      importLoops(
        new Map([
          [a, [b]],
          [b, [c]],
          [c, [a]],
        ]),
      ),
      [['a.ts', 'b.ts', 'c.ts']],
    );
    assert.deepEqual(
      importLoops(
        new Map([
          [a, [b]],
          [b, [c]],
          [c, []],
        ]),
      ),
      [],
    );
  });
});
