/**
 * The suite fails closed: in every tier (unit, page, integration in VS Code, end to end) mocha
 * refuses a stray `.only` and a pending test, a stage with no passing test fails, and a stage that
 * cannot run is never a pass. Each tier's own configuration is run on fixture specs
 * (test/fixtures/mocha/) in a child process, so what is checked is what the tier does.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { importScriptLib } from './helpers/scriptLib';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const MOCHA = path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'mocha');
const fixture = (name: string): string => path.join(FIXTURES, `${name}.spec.cjs`);

interface Run {
  status: number | null;
  output: string;
}

/** `node args` in a child process; resolves with its exit code and everything it printed. */
function node(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '' } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
  });
}

describe('suite: every tier fails closed on .only and pending tests', function () {
  this.timeout(120_000);
  let dir: string;
  /** Every tier's run on every fixture, started together (each is a mocha of its own). */
  const runs = new Map<string, Run>();
  const result = (key: string): Run => {
    const r = runs.get(key);
    assert.ok(r, `no run ${key}`);
    return r;
  };

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'scrapedeck-failclosed-'));
    const jobs: [string, string[]][] = [];
    for (const rc of ['.mocharc.unit.json', '.mocharc.page.json']) {
      // mocha with the tier's own configuration, its spec replaced by one fixture.
      const config = JSON.parse(readFileSync(path.join(ROOT, rc), 'utf8')) as Record<string, unknown>;
      for (const name of ['only', 'pending']) {
        const file = path.join(dir, `${rc.slice(1, -5)}-${name}.json`);
        writeFileSync(file, JSON.stringify({ ...config, spec: [fixture(name)] }));
        jobs.push([`${rc} ${name}`, [MOCHA, '--config', file]]);
      }
    }
    // The integration runner VS Code loads (out/test/integration/index.js), on fixture files.
    const runner = path.join(ROOT, 'out', 'test', 'integration', 'index.js');
    for (const name of ['only', 'pending', 'empty']) {
      jobs.push([
        `integration ${name}`,
        [
          '-e',
          `require(${JSON.stringify(runner)}).runFiles([${JSON.stringify(fixture(name))}]).then(() => process.exit(0), (e) => { console.error(String(e)); process.exit(1); })`,
        ],
      ]);
    }
    // The end-to-end harness's own mocha command line.
    const { e2eMochaArgs } = await importScriptLib<{ e2eMochaArgs(root: string, o: { specs: string[] }): string[] }>(
      'mocha.mjs',
    );
    for (const name of ['only', 'pending']) jobs.push([`e2e ${name}`, e2eMochaArgs(ROOT, { specs: [fixture(name)] })]);
    // Two at a time: the machine has two cores. (That each configuration passes a passing spec is
    // shown by its tier running the real tests.)
    const queue = [...jobs];
    const worker = async (): Promise<void> => {
      for (let job = queue.shift(); job !== undefined; job = queue.shift()) runs.set(job[0], await node(job[1]));
    };
    await Promise.all([worker(), worker()]);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const tier of ['.mocharc.unit.json', '.mocharc.page.json', 'integration', 'e2e']) {
    it(`${tier}: a stray .only fails the run`, () => {
      const r = result(`${tier} only`);
      assert.notEqual(r.status, 0, r.output);
      // A serial mocha says ".only forbidden"; a parallel one (the unit tier) refuses `.only` outright.
      assert.match(r.output, /\.only`? (forbidden|is not supported in parallel mode)/);
    });
    it(`${tier}: a pending test fails the run`, () => {
      const r = result(`${tier} pending`);
      assert.notEqual(r.status, 0, r.output);
      assert.match(r.output, /[Pp]ending test forbidden/);
    });
  }

  it('integration (in VS Code): a run in which no test passed fails (an empty spec, a --grep that matches nothing)', () => {
    const r = result('integration empty');
    assert.notEqual(r.status, 0, r.output);
    assert.match(r.output, /no test passed/);
  });
});

describe('suite: npm test judges a stage fail closed', () => {
  interface Row {
    status: string;
    passed: number;
    failed: number;
    pending: number;
    note: string;
  }
  interface Stages {
    judgeStage(o: { code?: number; output?: string; cannotRun?: string }): Row;
    totalLine(rows: Row[]): string;
    exitCode(rows: Row[]): number;
  }
  const stages = () => importScriptLib<Stages>('stages.mjs');

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
    assert.equal(
      judgeStage({ code: 1, output: '  3 passing (1s)\n' }).status,
      'failed',
      'a non-zero exit fails whatever mocha said',
    );
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
