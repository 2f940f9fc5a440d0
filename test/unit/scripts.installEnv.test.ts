/**
 * The nested `npm install code-server` must not inherit the outer npm's run-script variables:
 * under `npm start`/`npm test`, npm_config_user_agent names Node 20 and code-server refuses it.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const SCRUB = path.join(ROOT, 'scripts', 'lib', 'clean-npm-env.sh');

function envAfterScrub(extra: Record<string, string>): Record<string, string> {
  const result = spawnSync('bash', ['-c', `source "${SCRUB}" && env -0`], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', ...extra },
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
  const env: Record<string, string> = {};
  for (const pair of result.stdout.split('\0').filter(Boolean)) {
    const i = pair.indexOf('=');
    env[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return env;
}

describe('install-vscode.sh: the nested install starts from a clean npm environment', () => {
  it('drops every variable the outer npm exported, whatever its case, and keeps the rest', () => {
    const env = envAfterScrub({
      npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
      npm_lifecycle_event: 'test',
      npm_package_name: 'scrapedeck',
      npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
      NPM_CONFIG_USERCONFIG: '/root/.npmrc',
      NODE: '/usr/bin/node',
      INIT_CWD: '/home/you/scrapedeck',
      NODE_OPTIONS: '--max-old-space-size=64',
      LANG: 'C.UTF-8',
      SCRAPEDECK_CACHE: '/tmp/cache',
    });
    const leaked = Object.keys(env).filter((k) => /^(npm_|node$|init_cwd$|node_options$)/i.test(k));
    assert.deepEqual(leaked, []);
    assert.equal(env.LANG, 'C.UTF-8');
    assert.equal(env.SCRAPEDECK_CACHE, '/tmp/cache');
  });

  it('is what install-vscode.sh sources right before its npm install', async () => {
    const { readFileSync } = await import('node:fs');
    const script = readFileSync(path.join(ROOT, 'scripts', 'install-vscode.sh'), 'utf8');
    const sourced = script.indexOf('lib/clean-npm-env.sh');
    const install = script.indexOf('npm install --no-audit');
    assert.ok(sourced > 0 && install > sourced, 'the scrub runs before the nested npm install, in the same subshell');
  });
});
