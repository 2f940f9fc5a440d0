/**
 * Registers both doors for agents (createAgents, called once from main.ts): the language-model tools and
 * the MCP server definition provider, everything into `context.subscriptions`. The tools act for
 * whoever is signed in at the moment of each call; the Data Apps view is told what the hub said,
 * and runs of a run a tool starts or stops (the Tasks view's own way in).
 */
import * as vscode from 'vscode';

import type { Account, ClientHolder } from '../account/clientHolder';
import { hubKeyOf } from '../account/credentials';
import type { Credentials } from '../api/auth/auth';
import { errorMessage } from '../api/errors/errors';
import { headerValueProblem } from '../api/schemas/headerValues';
import { appScopeOf } from '../apps/appScope';
import type { AppStore } from '../apps/appStore';
import { recordFromResult } from '../apps/deprecation';
import type { Registrar } from '../platform/registrar';
import type { Ui } from '../platform/ui';
import { MCP_PROVIDER_ID } from './manifest';
import { ScrapedeckMcpProvider } from './mcpProvider';
import { RunNoticeFollower } from './runNoticeFollower';
import type { AppOutcome, RunHook } from './tool';
import { registerLanguageModelTools } from './vscodeTools';

const t = vscode.l10n.t;

export interface AgentsDeps {
  holder: ClientHolder;
  /** The stored credentials of the current address (the vault's read; not cached). */
  readStoredCredentials(): Promise<Credentials | undefined>;
  requestsPerSecond(): number;
  ui: Ui;
  log: vscode.LogOutputChannel;
  apps?: AppStore;
  /** The Tasks view's way into runs (runs/runWatch.ts): a run an agent starts shows and is followed as the tree's. */
  runs?: { watchFor(account: Account): RunHook | undefined };
  /** The activation shell's (platform/registrar.ts): the tools' and the MCP provider's proxies are registered at activation. */
  registrar: Pick<Registrar, 'registerTool' | 'registerMcpServerDefinitionProvider'>;
}

export interface AgentsCapability {
  /** The language-model tools by name, as registered (tests call `prepareInvocation` on them). */
  readonly tools: ReadonlyMap<string, vscode.LanguageModelTool<unknown>>;
  readonly mcp: ScrapedeckMcpProvider;
}

export function createAgents(context: vscode.ExtensionContext, deps: AgentsDeps): AgentsCapability {
  const { holder, log } = deps;
  const tools = registerLanguageModelTools(context, deps.registrar, {
    getClient: () => holder.getClient(),
    account: () => holder.account,
    idle: () => holder.idle(),
    log,
    onAppOutcome: (ref, outcome, account) => noteAppOutcome(deps, ref, outcome, account),
    runsFor: (account) => deps.runs?.watchFor(account),
  });

  // Runs the MCP server (another process) starts or stops: told through a file, followed like the tools' own.
  const notices = new RunNoticeFollower(vscode.Uri.joinPath(context.globalStorageUri, 'mcp-runs').fsPath, log);
  const followNotices = (account: Account | undefined): void =>
    notices.follow(account, account === undefined ? undefined : deps.runs?.watchFor(account));
  followNotices(holder.account);
  context.subscriptions.push(notices, holder.onDidChange(followNotices));

  const mcp = new ScrapedeckMcpProvider({
    account: () => holder.account,
    idle: () => holder.idle(),
    onDidChangeAccount: holder.onDidChange,
    readApiKey: async () => hubKeyOf(await deps.readStoredCredentials()),
    askAndStoreApiKey: () => askAndStoreApiKey(deps),
    serverPath: context.asAbsolutePath('dist/mcp.js'),
    version: String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0'),
    requestsPerSecond: deps.requestsPerSecond,
    runNoticesFile: (account) => notices.fileFor(account),
    showMessage: (message) => void deps.ui.showInformationMessage(message),
    log,
  });
  context.subscriptions.push(mcp);
  if (typeof vscode.lm.registerMcpServerDefinitionProvider === 'function') {
    context.subscriptions.push(deps.registrar.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, mcp));
  } else {
    log.warn('This VS Code has no MCP server definition providers; the Scrapedeck MCP server is not offered.');
  }
  return { tools, mcp };
}

async function askAndStoreApiKey(deps: AgentsDeps): Promise<string | undefined> {
  const key = await deps.ui.showInputBox({
    title: t('Scrapedeck MCP Server: API Key'),
    prompt: t(
      "The MCP server runs as its own process and signs in with an API key (create one in the account center); a password sign-in is never shared. The key is kept in VS Code's secret storage and is also used for the data-app hub.",
    ),
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => (v.trim() === '' ? t('Enter the API key.') : headerValueProblem(v.trim(), t('The API key'))),
  });
  if (key === undefined) return undefined;
  const trimmed = key.trim();
  return (await deps.holder.setHubApiKey(trimmed)) ? trimmed : undefined;
}

async function noteAppOutcome(deps: AgentsDeps, ref: string, outcome: AppOutcome, account: Account): Promise<void> {
  // Under the account the tool acted for: what the hub told it is shown to that account only.
  const scope = appScopeOf(account);
  if (deps.apps === undefined || scope === undefined) return;
  try {
    if (outcome.kind === 'deprecated')
      await deps.apps.recordDeprecation(scope, ref, recordFromResult(outcome.result, Date.now()));
    else
      await deps.apps.recordNotFound(scope, ref, {
        at: Date.now(),
        ...(outcome.requestId === undefined ? {} : { requestId: outcome.requestId }),
      });
  } catch (e) {
    deps.log.warn(
      `The Data Apps view could not remember what the hub said to an agent about ${ref}: ${errorMessage(e)}`,
    );
  }
}
