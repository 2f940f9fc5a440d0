/**
 * A real VS Code for a bench section: the packaged .vsix installed in a code-server of its own,
 * pointed at the section's sandbox, and driven headless by playwright-core with the end-to-end
 * journey's Workbench helpers. Figures measured here are where the user is: the analytics page
 * inside VS Code's webview, with VS Code carrying the messages.
 */
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

import type { BrowserContext, FrameLocator } from 'playwright-core';

import { launch, Workbench } from '../test/e2e/support';

const ROOT = path.join(__dirname, '..', '..');

export interface RunFolder {
  dir: string;
  ud: string;
  ext: string;
  ws: string;
  logs: string;
  profile: string;
}
interface Server {
  origin: string;
  logFile: string;
  stop(): Promise<void>;
}
interface CodeServerLib {
  createRunFolder(kind: string): RunFolder;
  writeSettings(run: RunFolder, extra: Record<string, unknown>): void;
  runEnv(run: RunFolder): NodeJS.ProcessEnv;
  installExtension(run: RunFolder, vsix: string, env: NodeJS.ProcessEnv): Promise<void>;
  startCodeServer(run: RunFolder, options: { env: NodeJS.ProcessEnv }): Promise<Server>;
  workbenchUrl(origin: string, folder: string): string;
}
interface ProjectLib {
  CHROMIUM: string;
  CHROMIUM_ARGS: string[];
  VSIX: string;
  packageVsix(): Promise<void>;
}

// The harness scripts are ES modules beside the project's other scripts; loaded at run time.
const load = async <T>(file: string): Promise<T> =>
  (await import(pathToFileURL(path.join(ROOT, 'scripts', 'lib', file)).href)) as T;

export interface WorkbenchSession {
  readonly wb: Workbench;
  /** The run's folders: user data (its logs), extensions, workspace. */
  readonly run: RunFolder;
  /** The analytics panel's page, two iframes deep. */
  webview(): FrameLocator;
  close(): Promise<void>;
}

/**
 * Packages the extension (the production bundle users get), starts code-server with it installed
 * and `settings` in the user settings, and opens the workbench on an empty folder.
 */
export async function openWorkbench(kind: string, settings: Record<string, unknown>): Promise<WorkbenchSession> {
  const cs = await load<CodeServerLib>('codeserver.mjs');
  const project = await load<ProjectLib>('project.mjs');
  await project.packageVsix();
  const run = cs.createRunFolder(`bench-${kind}`);
  cs.writeSettings(run, { 'workbench.colorTheme': 'Dark Modern', ...settings });
  const env = cs.runEnv(run);
  await cs.installExtension(run, project.VSIX, env);
  const server = await cs.startCodeServer(run, { env });
  const artifacts = path.join(ROOT, 'artifacts', 'bench');
  mkdirSync(artifacts, { recursive: true });
  let browser: BrowserContext | undefined;
  try {
    const launched = await launch({
      run,
      chromium: { executablePath: project.CHROMIUM, args: project.CHROMIUM_ARGS },
    });
    browser = launched.context;
    const wb = new Workbench(launched.page, artifacts);
    await wb.open(cs.workbenchUrl(server.origin, run.ws));
    const opened = browser;
    return {
      wb,
      run,
      webview: () => wb.webview(),
      close: async () => {
        await opened.close().catch(() => undefined);
        await server.stop();
      },
    };
  } catch (error) {
    await browser?.close().catch(() => undefined);
    await server.stop();
    throw error;
  }
}
