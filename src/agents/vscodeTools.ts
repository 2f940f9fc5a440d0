/**
 * The VS Code door: every tool of the table as a language-model tool (`vscode.lm.registerTool`;
 * declared in package.json's `languageModelTools`). The input is parsed with the tool's zod schema
 * in `invoke` (VS Code does not validate it), the client is the signed-in account's at the moment
 * of the call, and nothing throws: bad input, a signed-out window and every failure are sentences
 * for the model. Tools that change anything always ask first (`prepareInvocation`), and `invoke`
 * runs only what was confirmed there (`confirmedCalls.ts`): the same account, the same target.
 */
import * as vscode from 'vscode';

import { accountKey, accountsMenuLabel } from '../account/accountSession';
import type { Account } from '../account/clientHolder';
import type { ScrapedeckClient } from '../api/client';
import { errorMessage } from '../api/errors/errors';
import { markdownOfPlainText, plainText } from '../platform/plainText';
import type { Registrar } from '../platform/registrar';
import { type Confirmed, ConfirmedCalls } from './confirmedCalls';
import { AGENT_TOOLS } from './table';
import type { AgentTool, AppOutcome, ChangeCall, Confirmation, RunHook, ToolContext, ToolReply } from './tool';

const t = vscode.l10n.t;

export interface LanguageModelToolDeps {
  getClient(): ScrapedeckClient | undefined;
  account(): Account | undefined;
  /** Resolves once a sign-in or reload under way has settled (which account a call is for). */
  idle(): Promise<void>;
  log: Pick<vscode.LogOutputChannel, 'info' | 'warn'>;
  onAppOutcome?(ref: string, outcome: AppOutcome, account: Account): Promise<void>;
  /** The Tasks view's way into runs for this account (undefined for another account). */
  runsFor?(account: Account): RunHook | undefined;
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

export function registerLanguageModelTools(
  context: vscode.ExtensionContext,
  registrar: Pick<Registrar, 'registerTool'>,
  deps: LanguageModelToolDeps,
): Map<string, vscode.LanguageModelTool<unknown>> {
  const tools = createLanguageModelTools(deps);
  for (const [name, tool] of tools) context.subscriptions.push(registrar.registerTool(name, tool));
  return tools;
}

function languageModelTool(tool: AgentTool, deps: LanguageModelToolDeps): vscode.LanguageModelTool<unknown> {
  const confirmed = new ConfirmedCalls();
  return {
    async prepareInvocation(options) {
      const call = tool.parse(options.input, t);
      if (call.ok && call.readOnly) return { invocationMessage: call.progress };
      if (tool.readOnly) return { invocationMessage: t('Checking the input of {0}…', tool.name) };
      // Anything that changes something is confirmed whatever the state: a sign-in between this
      // question and the call must not let it through unasked (invoke then refuses).
      if (!call.ok)
        return {
          invocationMessage: tool.title,
          confirmationMessages: shown({ title: tool.title, message: plainText(call.text, 600) }),
        };
      await deps.idle();
      const ctx = contextFor(deps, undefined);
      if (ctx === undefined) {
        confirmed.remember(options.input, { identity: undefined, target: undefined, title: tool.title });
        return {
          invocationMessage: call.progress,
          confirmationMessages: shown({ title: tool.title, message: signedOutText() }),
        };
      }
      const identity = identityOf(deps);
      try {
        const plan = await call.plan(ctx);
        confirmed.remember(options.input, {
          identity,
          target: plan.target,
          title: plan.confirmation.title,
          account: ctx.accountLabel,
        });
        return { invocationMessage: call.progress, confirmationMessages: shown(plan.confirmation) };
      } catch (e) {
        const reason = errorMessage(e);
        deps.log.warn(`Agent tool ${tool.name}: could not word its confirmation: ${reason}`);
        confirmed.remember(options.input, {
          identity,
          target: undefined,
          title: tool.title,
          account: ctx.accountLabel,
        });
        const message = t(
          '{0} was asked with {1}. Scrapedeck could not look the details up ({2}).',
          tool.name,
          plainText(JSON.stringify(options.input) ?? '', 300),
          plainText(reason, 300),
        );
        return { invocationMessage: call.progress, confirmationMessages: shown({ title: tool.title, message }) };
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
        const asked = call.readOnly ? undefined : confirmed.take(options.input);
        if (ctx === undefined) return result(signedOutText());
        const reply = call.readOnly ? await call.run(ctx) : await runConfirmed(tool, call, ctx, asked, deps);
        deps.log.info(`Agent tool ${tool.name}: ${reply.ok ? 'answered' : 'refused or failed'}.`);
        return result(reply.text);
      } catch (e) {
        // A bug, not a service failure (those are replies): still a sentence, never a throw.
        deps.log.warn(`Agent tool ${tool.name} failed unexpectedly: ${errorMessage(e)}`);
        return result(
          t(
            '{0} failed unexpectedly inside Scrapedeck: {1}. The Scrapedeck log has details.',
            tool.name,
            errorMessage(e),
          ),
        );
      } finally {
        cancel.dispose();
      }
    },
  };
}

/**
 * Runs a change only if it is what the person confirmed: the account (and its addresses) then and
 * now, and the target the call resolves to now, must be the same. Anything else is a sentence, and
 * nothing is sent (only the reads that resolve the target again).
 */
async function runConfirmed(
  tool: AgentTool,
  call: ChangeCall,
  ctx: ToolContext,
  asked: Confirmed | undefined,
  deps: LanguageModelToolDeps,
): Promise<ToolReply> {
  if (asked === undefined) {
    return {
      ok: false,
      text: t(
        '{0} was not confirmed by the user (VS Code did not ask first), so nothing was changed or sent. Call it again so that the user is asked.',
        tool.name,
      ),
    };
  }
  if (asked.identity === undefined || asked.identity !== identityOf(deps)) {
    const then =
      asked.account === undefined
        ? t('while Scrapedeck was signed out')
        : t('for the account {0}', plainText(asked.account));
    return {
      ok: false,
      text: t(
        'The user confirmed “{0}” {1}, but the account signed in now is {2}, so nothing was changed or sent. Call {3} again so that the user can confirm it for this account.',
        plainText(asked.title),
        then,
        plainText(ctx.accountLabel),
        tool.name,
      ),
    };
  }
  const plan = await call.plan(ctx);
  if (plan.target !== asked.target) {
    return {
      ok: false,
      text: t(
        'The user confirmed “{0}”, but the call now resolves to something else (“{1}”), so nothing was changed or sent. Call {2} again so that the user can confirm what it would do now.',
        plainText(asked.title),
        plainText(plan.confirmation.title),
        tool.name,
      ),
    };
  }
  return plan.execute(ctx);
}

/** Who the tools act for, and where: a change confirmed for one is never run for another. */
function identityOf(deps: LanguageModelToolDeps): string | undefined {
  const account = deps.account();
  if (account === undefined || deps.getClient() === undefined) return undefined;
  return JSON.stringify([accountKey(account), account.baseUrl, account.datahubUrl ?? null]);
}

/** A confirmation as VS Code shows it: a one-line title, and a message whose markdown renders to the plain text. */
function shown(c: Confirmation): vscode.LanguageModelToolConfirmationMessages {
  return { title: plainText(c.title, 200), message: new vscode.MarkdownString(markdownOfPlainText(c.message)) };
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
    signInHint: t(
      'The sign-in was refused or has expired: ask the user to sign in to Scrapedeck again, then call the tool again.',
    ),
    hubProblem: () => hubProblem(account),
    onAppOutcome:
      deps.onAppOutcome === undefined ? undefined : (ref, outcome) => deps.onAppOutcome?.(ref, outcome, account),
    runs: deps.runsFor?.(account),
  };
}

function hubProblem(account: Account): string | undefined {
  if (account.datahubUrl === undefined) {
    return t(
      'The data-app hub address is not set, so nothing was sent. Ask the user to set it (“Scrapedeck: Set Data-App Hub URL”), then call this tool again.',
    );
  }
  if (!account.hasHubKey) {
    return t(
      'The data-app hub accepts only an API key, and this password sign-in has none, so nothing was sent. Ask the user to run “Scrapedeck: Set Data-App Hub API Key”, then call this tool again.',
    );
  }
  return undefined;
}

function result(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}
