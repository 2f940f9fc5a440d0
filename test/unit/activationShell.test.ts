/**
 * The activation shell (src/extension.ts, src/shell/): its bundle holds none of the heavy code,
 * activating it reads nothing but the shell, it registers everything VS Code needs at once, the
 * first call into a proxy loads main and is served by it, and a main that fails to load gives a
 * message and empty answers instead of a hang. The shell runs in a child process against the
 * bench's stand-in `vscode` module (test/fixtures/shell-probe.cjs).
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import * as esbuild from 'esbuild';

import { COMMAND_IDS } from '../../src/platform/commandIds';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** Every .ts file under src/, as paths relative to the repository. */
function sources(dir = path.join(ROOT, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [path.relative(ROOT, full).split(path.sep).join('/')] : [];
  });
}

function probe(scenario: string): Record<string, unknown> {
  const out = execFileSync(process.execPath, [path.join(ROOT, 'test', 'fixtures', 'shell-probe.cjs'), scenario], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const result = JSON.parse(out.trim().split('\n').pop() as string) as Record<string, unknown>;
  assert.equal(result['error'], undefined, String(result['error']));
  return result;
}

describe('activation shell', () => {
  it('bundles only the shell: no zod, no undici, no client, no views (esbuild metafile)', async () => {
    // The same rule as esbuild.mjs's lazy chunks: require('./main') stays a require of dist/main.js.
    const result = await esbuild.build({
      entryPoints: [path.join(ROOT, 'src', 'extension.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      external: ['vscode'],
      minify: true,
      write: false,
      metafile: true,
      logLevel: 'silent',
      plugins: [
        {
          name: 'main-is-lazy',
          setup(build) {
            build.onResolve({ filter: /^\.\/main$/ }, (args) =>
              args.kind === 'require-call' ? { path: './main.js', external: true } : undefined,
            );
          },
        },
      ],
    });
    const inputs = Object.keys(result.metafile.inputs).sort();
    const allowed = /^src\/(extension\.ts|shell\/[a-zA-Z]+\.ts|platform\/(commandIds|registrar)\.ts)$/;
    assert.deepEqual(
      inputs.filter((f) => !allowed.test(f)),
      [],
      'only the shell and the command id table',
    );
    const bytes = result.outputFiles?.[0]?.contents.byteLength ?? Infinity;
    assert.ok(bytes < 20_000, `the shell bundle is ${bytes} bytes`);
  });

  it('activating reads the shell only, registers every command, view, the serializer and the Accounts menu; the first call loads main', () => {
    const r = probe('activate');
    const atActivation = r['atActivation'] as string[];
    assert.ok(atActivation.includes('out/src/extension.js'));
    const heavy = atActivation.filter((f) => !/^out\/src\/(extension|shell\/\w+|platform\/commandIds)\.js$/.test(f));
    assert.deepEqual(heavy, [], 'nothing but the shell is read at activation');
    assert.equal(r['returned'], 'undefined', 'no test seam outside the Test mode');
    assert.deepEqual([...(r['commands'] as string[])].sort(), [...COMMAND_IDS].sort());
    const mime = 'application/vnd.code.tree.scrapedeck.tasks';
    assert.deepEqual(r['views'], {
      'scrapedeck.tasks': {
        showCollapseAll: true,
        canSelectMany: true,
        dragMimeTypes: [mime],
        dropMimeTypes: [mime],
        handles: true,
      },
      'scrapedeck.apps': { showCollapseAll: false, canSelectMany: false },
    });
    assert.deepEqual(r['fileSystems'], { scrapedeck: { isCaseSensitive: true } });
    assert.deepEqual(r['serializers'], ['scrapedeck.analytics']);
    assert.deepEqual(r['auth'], { scrapedeck: { label: 'Scrapedeck', options: { supportsMultipleAccounts: false } } });
    const after = r['afterFirstCall'] as string[];
    assert.ok(after.includes('out/src/main.js'), 'the first tree call loaded main');
    assert.ok(
      after.some((f) => f.includes('node_modules/zod/')),
      'and with it zod',
    );
    assert.equal(r['children'], 0, 'signed out, the real provider answers an empty tree');
    assert.equal(r['sessions'], 0);
    assert.deepEqual(r['errors'], []);
  });

  it('in production activate() neither loads main nor returns what main would hand out (its own guard: main stubbed to return a seam in any mode)', () => {
    const production = probe('production');
    assert.equal(production['returned'], 'undefined', 'nothing for other extensions');
    assert.equal(production['starts'], 0, 'main is not loaded at activation');
    // The same stub under the Test mode: the probe can see a seam when one is handed out.
    const test = probe('test-mode');
    assert.equal(test['returned'], 'seam');
    assert.equal(test['starts'], 1);
  });

  it('testSeam() builds the seam under ExtensionMode.Test only, whatever activate() does (its own guard)', () => {
    assert.deepEqual(probe('seam')['modes'], { Production: 'undefined', Development: 'undefined', Test: 'seam' });
  });

  it('delegates to what main registered: commands with their arguments, tree calls, drops, file reads and events; main loads once', () => {
    const r = probe('delegates');
    assert.equal(r['stateBefore'], 'idle', 'nothing loads before the first call');
    assert.equal(r['state'], 'loaded');
    assert.equal(r['starts'], 1);
    const timings = r['timings'] as { activateMs: number; firstCall: string; idleMs: number };
    assert.equal(
      timings.firstCall,
      'command:scrapedeck.tasks.refresh',
      'main is told which proxy loaded it (it logs that)',
    );
    assert.ok(timings.activateMs >= 0 && timings.idleMs >= 0);
    assert.equal(r['result'], 'done', 'the command returns what the real handler returned');
    assert.deepEqual(r['children'], ['a', 'b']);
    assert.equal(r['fired'], 1, 'onDidChangeTreeData is forwarded');
    assert.deepEqual(r['read'], [1], 'the file system proxy returns what the real one read');
    assert.deepEqual(r['calls'], [
      ['refresh', 'x', 2],
      ['getChildren', null],
      ['drop', 'group'],
      ['readFile', 'list.txt'],
    ]);
    const problems = r['problems'] as string[];
    assert.equal(problems.length, 3);
    assert.match(problems[0] as string, /provided twice/);
    assert.match(problems[1] as string, /other options/);
    assert.match(problems[2] as string, /no proxy for content:nowhere.*src\/shell\/registrations\.ts/);
  });

  it('MCP definitions asked at start-up: an empty list without loading main, then main loads once and the change event brings the real ones', () => {
    const r = probe('mcp');
    assert.deepEqual(r['first'], []);
    assert.deepEqual(r['second'], []);
    assert.equal(r['stateAfterAsking'], 'idle', 'asking did not load main');
    assert.equal(r['state'], 'loaded');
    assert.equal(r['changes'], 1, 'one change event, after main loaded');
    assert.deepEqual(r['then'], [{ label: 'Scrapedeck' }]);
    assert.deepEqual(r['resolved'], { label: 'Scrapedeck', resolved: true });
  });

  it('a main that fails to load: one clear message per user action, empty views and sessions, a restored panel closed, nothing pending', () => {
    const r = probe('fails');
    assert.equal(r['state'], 'failed');
    assert.equal(r['children'], 0);
    assert.equal(r['sessions'], 0);
    assert.equal(r['panelDisposed'], true);
    const errors = r['errors'] as string[];
    // Once when loading failed (the view's call), once more for the command.
    assert.equal(errors.length, 2);
    assert.match(errors[0] as string, /Scrapedeck could not start: dist\/main\.js is missing/);
  });

  it('nothing outside src/shell registers with VS Code directly: every registration goes through the registrar', () => {
    // A direct call would be registered only once main loads, i.e. after VS Code first asked for it.
    const direct = /\bvscode\.(\w+)\.(register\w*|createTreeView)\s*\(/g;
    const found: string[] = [];
    const importsOtherwise: string[] = [];
    for (const file of sources().filter((f) => !f.startsWith('src/shell/'))) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const match of text.matchAll(direct))
        found.push(
          `${file}: vscode.${match[1]}.${match[2]} (use registrar.${match[2]}, and add its line to src/shell/registrations.ts)`,
        );
      // Named imports (`import { commands } from 'vscode'`) would slip past the check above.
      if (/import\s+(type\s+)?\{[^}]*\}\s+from\s+'vscode'/.test(text)) importsOtherwise.push(file);
    }
    assert.deepEqual(found, []);
    assert.deepEqual(importsOtherwise, [], "import vscode only as 'import * as vscode'");
  });
});
