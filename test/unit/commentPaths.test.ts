/**
 * Every `src/…` path a comment names exists: a comment that points at a moved or deleted file sends
 * the next reader to nothing. Comments only (code that builds paths is tested where it runs); a path
 * counts as found when it is a file or folder, or names a `.ts` file without its ending.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SCANNED = ['src', 'test', 'bench', 'scripts'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'fixtures' || name === 'node_modules' ? [] : sources(full);
    return /\.(ts|mts|mjs|cjs)$/.test(name) ? [full] : [];
  });
}

/** The text of every comment: line comments (not `://` inside a URL) and block comments. */
export function commentsOf(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/g)) found.push(m[0]);
  return found;
}

/** `src/…` paths in a comment, without trailing punctuation; a path inside `out/` is a build output. */
export function pathsIn(comment: string): string[] {
  return [...comment.matchAll(/(?<![\w./-])src\/[\w./-]*[\w]/g)].map((m) => m[0]);
}

const exists = (p: string): boolean => existsSync(path.join(ROOT, p)) || existsSync(path.join(ROOT, `${p}.ts`));

describe('comments name only paths that exist', () => {
  it('finds paths in comments and only there (so the check below can fail)', () => {
    // Built from pieces, so that this file's own source holds no comment naming a missing path.
    const slashes = '/'.repeat(2);
    const text = `const a = 'src/not/a/comment.ts'; ${slashes} see src/runs/${'gone'}.ts.\n/** and src/data/pull/ */ x('http:${slashes}h/src/y');`;
    assert.deepEqual(commentsOf(text).flatMap(pathsIn), ['src/runs/gone.ts', 'src/data/pull']);
    assert.equal(exists('src/runs/gone.ts'), false);
    assert.equal(exists('src/data/pull'), true);
    assert.equal(exists('src/data/pull/pullFlow'), true);
  });

  it('every `src/…` path named in a comment of src/, test/, bench/ or scripts/ exists', () => {
    const missing = SCANNED.flatMap((dir) => sources(path.join(ROOT, dir))).flatMap((file) =>
      commentsOf(readFileSync(file, 'utf8'))
        .flatMap(pathsIn)
        .filter((p) => !exists(p))
        .map((p) => `${path.relative(ROOT, file)}: ${p}`),
    );
    assert.deepEqual(missing, []);
  });
});
