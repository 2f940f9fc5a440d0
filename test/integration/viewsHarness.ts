/**
 * Helpers for the views and deprecation suites: a sandbox started by the test, the settings
 * pointed at it, and sign-in through the extension's own commands. Only `ui` answers are
 * replaced (input boxes, the modal); messages are recorded and still shown for real.
 */
import * as assert from 'node:assert/strict';

import * as vscode from 'vscode';

import type { ScrapedeckTestApi } from '../../src/extension';
import type { InputOptions, Ui } from '../../src/platform/ui';
import { type RunningSandbox, startSandbox } from '../../src/sandbox/server';

const EXTENSION_ID = 'scrapedeck.scrapedeck';

export async function getApi(): Promise<ScrapedeckTestApi> {
  const ext = vscode.extensions.getExtension<ScrapedeckTestApi | undefined>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} not found`);
  const api = await ext.activate();
  assert.ok(api, 'the test seam exists only when VS Code runs the tests (ExtensionMode.Test)');
  return api;
}

export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Replaces some `ui` methods until the returned function is called. */
export function replaceUi(api: ScrapedeckTestApi, overrides: Partial<Ui>): () => void {
  const ui = api.ui as Ui;
  const saved: Partial<Ui> = {};
  for (const key of Object.keys(overrides) as (keyof Ui)[]) {
    Object.assign(saved, { [key]: ui[key] });
    Object.assign(ui, { [key]: overrides[key] });
  }
  return () => Object.assign(ui, saved);
}

export interface ShownMessage {
  level: 'info' | 'warning' | 'error';
  text: string;
  buttons: string[];
}

/** Records every non-modal message while still showing it (the real notification is not awaited by the code). */
export function recordMessages(api: ScrapedeckTestApi): { messages: ShownMessage[]; stop: () => void } {
  const ui = api.ui as Ui;
  const messages: ShownMessage[] = [];
  const original = { info: ui.showInformationMessage, warning: ui.showWarningMessage, error: ui.showErrorMessage };
  const spy =
    (level: ShownMessage['level'], real: (m: string, ...b: string[]) => Thenable<string | undefined>) =>
    (text: string, ...buttons: string[]) => {
      messages.push({ level, text, buttons });
      return real(text, ...buttons);
    };
  const stop = replaceUi(api, {
    showInformationMessage: spy('info', original.info),
    showWarningMessage: spy('warning', original.warning),
    showErrorMessage: spy('error', original.error),
  });
  return { messages, stop };
}

export interface SandboxSession {
  sandbox: RunningSandbox;
  account(name: string): RunningSandbox['info']['accounts'][number];
  dispose(): Promise<void>;
}

/** Starts a sandbox and points the Global settings (and so the account service) at it. */
/** `now`: the sandbox's clock (default the real one); a test moves a run on by moving it, not by waiting. */
export async function pointAtSandbox(
  api: ScrapedeckTestApi,
  options: { now?: () => number } = {},
): Promise<SandboxSession> {
  const sandbox = await startSandbox({ port: 0, ...(options.now === undefined ? {} : { now: options.now }) });
  const config = vscode.workspace.getConfiguration('scrapedeck');
  await config.update('baseUrl', sandbox.info.baseUrl, vscode.ConfigurationTarget.Global);
  await config.update('datahubUrl', sandbox.info.datahubUrl, vscode.ConfigurationTarget.Global);
  await waitFor(
    'the account service to follow the settings',
    () =>
      api.account.endpoints.baseUrl === sandbox.info.baseUrl &&
      api.account.endpoints.datahubUrl === sandbox.info.datahubUrl,
  );
  return {
    sandbox,
    account(name) {
      const a = sandbox.info.accounts.find((x) => x.username === name);
      assert.ok(a, `seeded account ${name}`);
      return a;
    },
    async dispose() {
      if (api.account.account !== undefined) await vscode.commands.executeCommand('scrapedeck.signOut');
      await config.update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
      await config.update('datahubUrl', undefined, vscode.ConfigurationTarget.Global);
      await config.update('trackedApps', undefined, vscode.ConfigurationTarget.Global);
      await sandbox.close();
    },
  };
}

/** An answer to an input box: the text, undefined (Escape), or a function of the box (e.g. `KEEP_VALUE`). */
export type InputAnswer = string | undefined | ((options: InputOptions) => string | undefined);

/** Accepts what the box suggests (its `value`), as pressing Enter would. */
export const KEEP_VALUE: InputAnswer = (options) => options.value ?? '';

/** Answers input boxes in order; fails the test if more are asked than answered. */
export function answerInputs(
  api: ScrapedeckTestApi,
  answers: InputAnswer[],
): { asked: InputOptions[]; restore: () => void } {
  const asked: InputOptions[] = [];
  const queue = [...answers];
  const restore = replaceUi(api, {
    showInputBox: (options) => {
      asked.push(options);
      if (queue.length === 0)
        return Promise.reject(new Error(`unexpected input box: ${options.title ?? options.prompt ?? ''}`));
      const answer = queue.shift();
      return Promise.resolve(typeof answer === 'function' ? answer(options) : answer);
    },
  });
  return { asked, restore };
}

/** Answers quick picks in order by the start of an item's label (codicons aside); undefined = Escape. */
export function answerPicks(
  api: ScrapedeckTestApi,
  answers: (string | undefined)[],
): { asked: string[]; restore: () => void } {
  const asked: string[] = [];
  const queue = [...answers];
  const restore = replaceUi(api, {
    showQuickPick: async <T extends vscode.QuickPickItem>(
      items: readonly T[] | Thenable<readonly T[]>,
      options: vscode.QuickPickOptions,
    ) => {
      asked.push(options.title ?? '');
      if (queue.length === 0) throw new Error(`unexpected quick pick: ${options.title ?? ''}`);
      const wanted = queue.shift();
      if (wanted === undefined) return undefined;
      const found = (await items).find((i) => i.label.replace(/^\$\([\w-]+\)\s*/, '').startsWith(wanted));
      if (found === undefined) throw new Error(`no item "${wanted}" in ${options.title ?? 'the quick pick'}`);
      return found;
    },
  });
  return { asked, restore };
}

/** Signs in with an API key, accepting the suggested name unless `label` is given. */
export async function signInWithApiKey(
  api: ScrapedeckTestApi,
  apiKey: string,
  label: InputAnswer = KEEP_VALUE,
): Promise<void> {
  const { restore } = answerInputs(api, [apiKey, label]);
  try {
    await vscode.commands.executeCommand('scrapedeck.signInWithApiKey');
  } finally {
    restore();
  }
  assert.ok(api.account.account, 'signed in');
}

/** Starts a sandbox, points the extension at it and signs in there as `ada` (signing out whoever was signed in). */
export async function signInToSandbox(
  api: ScrapedeckTestApi,
  options: { now?: () => number } = {},
): Promise<SandboxSession> {
  const session = await pointAtSandbox(api, options);
  if (api.account.account !== undefined) await vscode.commands.executeCommand('scrapedeck.signOut');
  await signInWithApiKey(api, session.account('ada').apiKey);
  return session;
}

/** The test window's workspace folder (the suite runs with one). */
export function workspaceFolder(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test window has a workspace folder');
  return folder.uri;
}

export async function signInWithPassword(api: ScrapedeckTestApi, username: string, password: string): Promise<void> {
  const { restore } = answerInputs(api, [username, password]);
  try {
    await vscode.commands.executeCommand('scrapedeck.signInWithPassword');
  } finally {
    restore();
  }
  assert.equal(api.account.account?.method, 'password');
}

export function labelOf(item: vscode.TreeItem): string {
  return typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
}

export function tooltipText(item: vscode.TreeItem): string {
  const t = item.tooltip;
  // MarkdownString.appendText turns spaces into &nbsp; and escapes punctuation; undo both to compare text.
  const raw = t === undefined ? '' : typeof t === 'string' ? t : t.value;
  return raw.replace(/&nbsp;/g, ' ').replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1');
}

/** Calls a language-model tool as Copilot Chat does, and returns its reply's text. */
export async function invokeTool(name: string, input: object): Promise<string> {
  const source = new vscode.CancellationTokenSource();
  try {
    const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, source.token);
    return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
  } finally {
    source.dispose();
  }
}
