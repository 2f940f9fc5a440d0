/**
 * The VS Code door: every tool of the table as a language-model tool (`vscode.lm.registerTool`;
 * declared in package.json's `languageModelTools`). The input is parsed with the tool's zod schema
 * in `invoke` (VS Code does not validate it), the client is the signed-in account's at the moment
 * of the call, and nothing throws: bad input, a signed-out window and every failure are sentences
 * for the model. Tools that change anything always ask first (`prepareInvocation`).
 */
import * as vscode from 'vscode';
import type { Account } from '../account/clientHolder';
import { accountsMenuLabel } from '../account/accountSession';
import type { ScrapedeckClient } from '../api/client';
import type { Registrar } from '../platform/registrar';
import { AGENT_TOOLS } from './table';
import type { AgentTool, AppOutcome, ToolContext } from './tool';

const t = vscode.l10n.t;

export interface LanguageModelToolDeps {
  getClient(): ScrapedeckClient | undefined;
  account(): Account | undefined;
  /** Resolves once a sign-in or reload under way has settled (which account a call is for). */
  idle(): Promise<void>;
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>;
  onAppOutcome?(ref: string, outcome: AppOutcome, account: Account): Promise<void>;
  now?: () => number;
}

export function signedOutText(): string {
  return t(
    'Scrapedeck is not signed in, so nothing was read or changed. Ask the user to sign in: in the Scrapedeck view choose “Sign In with API Key”, “Sign In with Username and Password” or “Try the Sandbox” (or run “Scrapedeck: Sign In with API Key” from the Command Palette), then call this tool again.',
  );
}

/** The tools, by name, before registration (tests reach `prepareInvocation` through these). */
export function createLanguageModelTools(deps: LanguageModelToolDeps): Map<string, vscode.LanguageModelTool<unknown>> {
  return new Map(AGENT_TOOLS.map((tool) => [tool.name, languageModelTool(tool, deps)]));
}

export function registerLanguageModelTools(context: vscode.ExtensionContext, registrar: Pick<Registrar, 'registerTool'>, deps: LanguageModelToolDeps): Map<string, vscode.LanguageModelTool<unknown>> {
  const tools = createLanguageModelTools(deps);
  for (const [name, tool] of tools) context.subscriptions.push(registrar.registerTool(name, tool));
  return tools;
}

function languageModelTool(tool: AgentTool, deps: LanguageModelToolDeps): vscode.LanguageModelTool<unknown> {
  return {
    async prepareInvocation(options) {
      const call = tool.parse(options.input, t);
      if (tool.readOnly) return { invocationMessage: call.ok ? call.progress : t('Checking the input of {0}…', tool.name) };
      // Anything that changes something is confirmed whatever the state: a sign-in between this
      // question and the call must not let it through unasked.
      if (!call.ok) return { invocationMessage: tool.title, confirmationMessages: { title: tool.title, message: call.text } };
      await deps.idle();
      const ctx = contextFor(deps, undefined);
      if (ctx === undefined) return { invocationMessage: call.progress, confirmationMessages: { title: tool.title, message: signedOutText() } };
      try {
        const confirmation = await (call.confirm as NonNullable<typeof call.confirm>)(ctx);
        return { invocationMessage: call.progress, confirmationMessages: confirmation };
      } catch (e) {
        const reason = e instanceof Error ? e.message : String(e);
        deps.log.warn(`Agent tool ${tool.name}: could not word its confirmation: ${reason}`);
        return { invocationMessage: call.progress, confirmationMessages: { title: tool.title, message: t('{0} was asked with {1}. Scrapedeck could not look the details up ({2}).', tool.name, JSON.stringify(options.input), reason) } };
      }
    },

    async invoke(options, token) {
      const call = tool.parse(options.input, t);
      if (!call.ok) return result(call.text);
      await deps.idle();
      const abort = new AbortController();
      const cancel = token.onCancellationRequested(() => abort.abort());
      try {
        const ctx = contextFor(deps, abort.signal);
        if (ctx === undefined) return result(signedOutText());
        const reply = await call.run(ctx);
        deps.log.info(`Agent tool ${tool.name}: ${reply.ok ? 'answered' : 'refused or failed'}.`);
        return result(reply.text);
      } catch (e) {
        // A bug, not a service failure (those are replies): still a sentence, never a throw.
        deps.log.warn(`Agent tool ${tool.name} failed unexpectedly: ${e instanceof Error ? e.message : String(e)}`);
        return result(t('{0} failed unexpectedly inside Scrapedeck: {1}. The Scrapedeck log has details.', tool.name, e instanceof Error ? e.message : String(e)));
      } finally {
        cancel.dispose();
      }
    },
  };
}

function contextFor(deps: LanguageModelToolDeps, signal: AbortSignal | undefined): ToolContext | undefined {
  const client = deps.getClient();
  const account = deps.account();
  if (client === undefined || account === undefined) return undefined;
  return {
    client,
    now: deps.now ?? Date.now,
    t,
    ...(signal === undefined ? {} : { signal }),
    accountLabel: accountsMenuLabel(account, t),
    signInHint: t('The sign-in was refused or has expired: ask the user to sign in to Scrapedeck again, then call the tool again.'),
    hubProblem: () => hubProblem(account),
    onAppOutcome: deps.onAppOutcome === undefined ? undefined : (ref, outcome) => deps.onAppOutcome?.(ref, outcome, account),
  };
}

function hubProblem(account: Account): string | undefined {
  if (account.datahubUrl === undefined) {
    return t('The data-app hub address is not set, so nothing was sent. Ask the user to set it (“Scrapedeck: Set Data-App Hub URL”), then call this tool again.');
  }
  if (!account.hasHubKey) {
    return t('The data-app hub accepts only an API key, and this password sign-in has none, so nothing was sent. Ask the user to run “Scrapedeck: Set Data-App Hub API Key”, then call this tool again.');
  }
  return undefined;
}

function result(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}
