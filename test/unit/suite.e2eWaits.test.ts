/**
 * Issue 31: every end-to-end step waits for what it needs through one helper (test/e2e/waits.ts),
 * and a pause is only ever that helper's poll interval. A sleep anywhere else in the specs or
 * their support fails here, named by file and line.
 */
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const E2E = path.resolve(__dirname, '..', '..', '..', 'test', 'e2e');
const SLEEPS = /\bwaitForTimeout\s*\(|\bsetTimeout\s*\(|\bsetInterval\s*\(|timers\/promises/;

describe('suite: end-to-end steps never sleep', () => {
  it('no waitForTimeout, setTimeout or setInterval outside the one wait (waits.ts)', () => {
    const files = readdirSync(E2E).filter((f) => f.endsWith('.ts') && f !== 'waits.ts');
    assert.ok(files.length >= 5, `e2e sources found: ${files.join(', ')}`);
    const found: string[] = [];
    for (const file of files) {
      readFileSync(path.join(E2E, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (SLEEPS.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    assert.deepEqual(found, []);
  });

  it('the one wait does poll (it is the only place a pause may be)', () => {
    assert.match(readFileSync(path.join(E2E, 'waits.ts'), 'utf8'), /setTimeout\(resolve, intervalMs\)/);
  });
});
