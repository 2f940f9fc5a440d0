/**
 * How the MCP server gets the user's agreement before a tool changes something. The protocol's own
 * way first: when the client declared form elicitation, the server asks the user through it (the
 * confirmation a VS Code user would see, as plain text) and acts only on "accept". A client that
 * cannot ask is allowed to change things only when the user started the server with
 * `--allow-changes`. With neither, the call says what it would have done and how to allow it, and
 * nothing at all is sent to the service (not even the reads that would word a confirmation).
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

import { errorMessage } from '../api/errors/errors';
import { plainText } from '../platform/plainText';
import { ALLOW_CHANGES_FLAG } from './mcpEnv';
import type { Confirmation } from './tool';

export { ALLOW_CHANGES_FLAG };

/** A user may take their time; the SDK's default (60 s) would decline for them. */
const ASK_TIMEOUT_MS = 10 * 60_000;

export type ConsentRoute = 'ask' | 'opted-in' | 'refuse';

/** Elicitation when the client can ask (even when started with the flag: asking is better), else the flag, else nothing. */
export function consentRoute(server: Pick<Server, 'getClientCapabilities'>, allowChanges: boolean): ConsentRoute {
  if (server.getClientCapabilities()?.elicitation?.form !== undefined) return 'ask';
  return allowChanges ? 'opted-in' : 'refuse';
}

/** What a call would have done, and the two ways to allow it; said instead of acting. */
export function notAllowedText(toolName: string, intent: string, accountLabel: string): string {
  return (
    `${toolName} would ${intent} for ${plainText(accountLabel)}. It was not run, and nothing was sent to the service: ` +
    'changes need the user’s agreement, and this MCP client cannot ask for it (it does not support MCP elicitation), ' +
    `and the Scrapedeck MCP server was not started with ${ALLOW_CHANGES_FLAG}. ` +
    `To allow it, the user can connect from an MCP client that supports elicitation (each change is then confirmed there), ` +
    `or restart the server with the ${ALLOW_CHANGES_FLAG} argument (every change is then made without asking).`
  );
}

export type Answer = { agreed: true } | { agreed: false; text: string };

/** Asks the user through the client; only "accept" agrees. A failure to ask is a "no". */
export async function askUser(
  server: Pick<Server, 'elicitInput'>,
  toolName: string,
  confirmation: Confirmation,
  signal: AbortSignal,
): Promise<Answer> {
  const message = `${plainText(confirmation.title, 200)}\n\n${confirmation.message}`;
  try {
    const result = await server.elicitInput(
      { mode: 'form', message, requestedSchema: { type: 'object', properties: {} } },
      { signal, timeout: ASK_TIMEOUT_MS },
    );
    if (result.action === 'accept') return { agreed: true };
    const how = result.action === 'decline' ? 'declined' : 'dismissed';
    return {
      agreed: false,
      text: `The user ${how} ${toolName} (“${plainText(confirmation.title)}”), so nothing was changed and nothing was sent. Do not call it again unless the user asks for it.`,
    };
  } catch (e) {
    const reason = plainText(errorMessage(e), 200);
    return {
      agreed: false,
      text: `${toolName} needs the user’s agreement, and asking the user through the MCP client failed (${reason}), so nothing was changed and nothing was sent.`,
    };
  }
}
