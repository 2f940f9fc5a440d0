/**
 * The suite fails closed: in every tier (unit, page, integration in VS Code, end to end) mocha
 * refuses a stray `.only` and a pending test, a stage with no passing test fails, and a stage that
 * cannot run is never a pass. Each tier's own configuration is run on fixture specs
 * (test/fixtures/mocha/) in a child process, so what is checked is what the tier does.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const MOCHA = path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'mocha');
const fixture = (name: string): string => path.join(FIXTURES, `${name}.spec.cjs`);

interface Run { status: number | null; output: string }

function node(args: string[]): Run {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** The scripts' ES modules (compiled tests are CommonJS: a real import(), not tsc's require). */
const importEsm = new Function('url', 'return import(url)') as (url: string) => Promise<unknown>;
const script = async <T>(file: string): Promise<T> => (await importEsm(pathToFileURL(path.join(ROOT, 'scripts', 'lib', file)).href)) as T;

describe('suite: every tier fails closed on .only and pending tests', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-failclosed-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const rc of ['.mocharc.unit.json', '.mocharc.page.json']) {
    /** mocha with the tier's own configuration, its spec replaced by one fixture. */
    const withConfig = (name: string): Run => {
      const config = JSON.parse(readFileSync(path.join(ROOT, rc), 'utf8')) as Record<string, unknown>;
      const file = path.join(dir, `${rc.slice(1, -5)}-${name}.json`);
      writeFileSync(file, JSON.stringify({ ...config, spec: [fixture(name)] }));
      return node([MOCHA, '--config', file]);
    };
    it(`${rc}: a stray .only fails the run`, () => {
      const r = withConfig('only');
      assert.notEqual(r.status, 0, r.output);
      assert.match(r.output, /\.only`? forbidden/);
    });
    it(`${rc}: a pending test fails the run`, () => {
      const r = withConfig('pending');
      assert.notEqual(r.status, 0, r.output);
      assert.match(r.output, /[Pp]ending test forbidden/);
    });
    it(`${rc}: a passing spec passes (the control)`, () => {
      const r = withConfig('passing');
      assert.equal(r.status, 0, r.output);
    });
  }

  /** The integration runner VS Code loads (out/test/integration/index.js), on fixture files. */
  const integration = (...names: string[]): Run => {
    const runner = path.join(ROOT, 'out', 'test', 'integration', 'index.js');
    const files = JSON.stringify(names.map(fixture));
    return node(['-e', `require(${JSON.stringify(runner)}).runFiles(${files}).then(() => process.exit(0), (e) => { console.error(String(e)); process.exit(1); })`]);
  };
  it('integration (in VS Code): a stray .only fails the run', () => {
    const r = integration('only');
    assert.notEqual(r.status, 0, r.output);
    assert.match(r.output, /\.only`? forbidden/);
  });
  it('integration (in VS Code): a pending test fails the run', () => {
    const r = integration('pending');
    assert.notEqual(r.status, 0, r.output);
    assert.match(r.output, /[Pp]ending test forbidden/);
  });
  it('integration (in VS Code): a run with no passing test fails (a --grep that matches nothing, an empty spec)', () => {
    const r = integration('empty');
    assert.notEqual(r.status, 0, r.output);
    assert.match(r.output, /no test passed/);
    assert.equal(integration('passing').status, 0, 'the control passes');
  });

  it('end to end: the harness\'s mocha command line fails on .only and on a pending test', async () => {
    const { e2eMochaArgs } = await script<{ e2eMochaArgs(root: string, o: { specs: string[] }): string[] }>('mocha.mjs');
    const only = node(e2eMochaArgs(ROOT, { specs: [fixture('only')] }));
    assert.notEqual(only.status, 0, only.output);
    assert.match(only.output, /\.only`? forbidden/);
    const pending = node(e2eMochaArgs(ROOT, { specs: [fixture('pending')] }));
    assert.notEqual(pending.status, 0, pending.output);
    assert.equal(node(e2eMochaArgs(ROOT, { specs: [fixture('passing')] })).status, 0, 'the control passes');
  });
});

describe('suite: npm test judges a stage fail closed', () => {
  interface Row { status: string; passed: number; failed: number; pending: number; note: string }
  interface Stages {
    judgeStage(o: { code?: number; output?: string; cannotRun?: string }): Row;
    totalLine(rows: Row[]): string;
    exitCode(rows: Row[]): number;
  }
  const stages = () => script<Stages>('stages.mjs');

  it('a test stage with no passing test fails, even when it exited 0', async () => {
    const { judgeStage } = await stages();
    assert.equal(judgeStage({ code: 0, output: '\n  0 passing (2ms)\n' }).status, 'failed');
    assert.equal(judgeStage({ code: 0, output: 'no summary at all' }).status, 'failed');
  });

  it('a pending test fails its stage; passing with none pending passes', async () => {
    const { judgeStage } = await stages();
    const pending = judgeStage({ code: 0, output: '  3 passing (1s)\n  1 pending\n\n  - a skipped title\n' });
    assert.equal(pending.status, 'failed');
    assert.match(pending.note, /a skipped title/);
    assert.equal(judgeStage({ code: 0, output: '  3 passing (1s)\n' }).status, 'passed');
    assert.equal(judgeStage({ code: 1, output: '  3 passing (1s)\n' }).status, 'failed', 'a non-zero exit fails whatever mocha said');
  });

  it('a stage that cannot run here is "not run", and npm test does not pass', async () => {
    const { judgeStage, exitCode, totalLine } = await stages();
    const rows = [judgeStage({ code: 0, output: '  5 passing\n' }), judgeStage({ cannotRun: 'no chromium' })];
    assert.equal(rows[1]?.status, 'not run');
    assert.equal(exitCode(rows), 1);
    assert.equal(totalLine(rows), 'Total: 5 passed, 0 failed, 1 skipped');
    assert.equal(exitCode([rows[0] as Row]), 0);
    assert.equal(exitCode([]), 1, 'no stage at all is not a pass');
  });
});
