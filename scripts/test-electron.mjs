#!/usr/bin/env node
// `npm run test:electron`: the same integration suite (out/test/integration) under
// @vscode/test-electron, i.e. in VS Code desktop. Not part of `npm test`: it needs VS Code desktop,
// which test-electron downloads — impossible offline. Set VSCODE_EXECUTABLE to an installed VS Code
// (e.g. /usr/share/code/code) to use that instead. On Linux it needs a display (xvfb-run).
import { mkdirSync } from 'node:fs';
import path from 'node:path';

import { runTests } from '@vscode/test-electron';

import { createRunFolder, TEST_SETTINGS, writeSettings } from './lib/codeserver.mjs';
import { exitAfterOutput } from './lib/proc.mjs';
import { build, compileTests, ensureDeps, ROOT } from './lib/project.mjs';

const log = (m) => process.stderr.write(`[test:electron] ${m}\n`);

async function canDownload() {
  try {
    const res = await fetch('https://update.code.visualstudio.com/api/releases/stable', {
      signal: AbortSignal.timeout(5000),
    });
    return res.ok;
  } catch {
    return false;
  }
}

async function main() {
  await ensureDeps('test:electron');
  const executable = process.env.VSCODE_EXECUTABLE;
  if (!executable && !(await canDownload())) {
    log('VS Code desktop is not installed and cannot be downloaded (no network to update.code.visualstudio.com).');
    log('Set VSCODE_EXECUTABLE=/path/to/code to use an installed VS Code, or run `npm run test:vscode`,');
    log('which runs the same suite offline inside code-server.');
    return 1;
  }
  if (!process.argv.includes('--no-build')) {
    await build();
    await compileTests();
  }
  const run = createRunFolder('electron');
  const artifacts = path.join(ROOT, 'artifacts', 'electron');
  mkdirSync(artifacts, { recursive: true });
  writeSettings(run, TEST_SETTINGS);
  log(`run folder ${path.relative(ROOT, run.dir)}`);
  try {
    await runTests({
      ...(executable ? { vscodeExecutablePath: executable } : {}),
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: path.join(ROOT, 'out', 'test', 'integration'),
      extensionTestsEnv: {
        SCRAPEDECK_TEST_ARTIFACTS: artifacts,
        SCRAPEDECK_TEST_RUN_DIR: run.dir,
        SCRAPEDECK_TEST_ROOT: ROOT,
      },
      launchArgs: [
        run.ws,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--user-data-dir',
        run.ud,
        '--extensions-dir',
        run.ext,
        '--skip-welcome',
        '--skip-release-notes',
      ],
    });
    return 0;
  } catch (err) {
    log(`the suite failed: ${err instanceof Error ? err.message : err}`);
    return 1;
  }
}

main().then(
  (code) => exitAfterOutput(code),
  (err) => {
    log(err instanceof Error ? err.stack : String(err));
    exitAfterOutput(1);
  },
);
