/**
 * scrapedeck_deprecate_app: deprecates a data app the user authors, after the user confirms with
 * the same explanation the Data Apps view's modal gives (`apps/deprecation.ts`). The reference is
 * the model's, so it is checked (namespace/name, at most APP_REF_MAX characters) and shown as plain
 * text; the plan acts on exactly that reference.
 */
import * as z from 'zod';

import { isApiError } from '../../api/errors/errors';
import { appRefSchema } from '../../api/schemas/schemas';
import {
  confirmationText,
  deprecationDescription,
  missingSecretsWarning,
  recordFromResult,
} from '../../apps/deprecation';
import { plainText } from '../../platform/plainText';
import { failure } from '../failure';
import { type AppOutcome, defineTool, refusal, reply, type ToolContext, type ToolReply } from '../tool';

const input = z
  .object({
    app: appRefSchema.describe('The data app as namespace/name, e.g. ada/lead-finder.'),
  })
  .strict();

export const deprecateAppTool = defineTool({
  name: 'scrapedeck_deprecate_app',
  title: 'Deprecate a Data App',
  userDescription: 'Deprecate a data app you author (asks first).',
  reference: 'scrapedeckDeprecateApp',
  modelDescription:
    'Deprecates a data app in the data-app hub (namespace/name), after the user confirms. Deprecation marks the app as no longer maintained: it leaves market search and new releases are rejected; runs still work. ' +
    'Only the app’s author can deprecate it (anyone else gets "not found"). Scrapedeck cannot undo it. Deprecating an app twice is harmless. Returns the app’s status, version and any missing secrets.',
  readOnly: false,
  idempotent: true,
  input,
  progress: (i, t) => t('Deprecating {0}…', plainText(i.app)),
  intent: (i, t) => t('deprecate the data app {0}', plainText(i.app)),
  plan: (i, ctx) => {
    const { message, detail } = confirmationText(plainText(i.app), ctx.t);
    return Promise.resolve({
      confirmation: { title: message, message: `${ctx.t('Account {0}.', plainText(ctx.accountLabel))}\n\n${detail}` },
      target: `app ${i.app}`,
      execute: (c: ToolContext) => deprecate(i.app, c),
    });
  },
});

async function deprecate(app: string, ctx: ToolContext): Promise<ToolReply> {
  const { t } = ctx;
  const problem = ctx.hubProblem?.();
  if (problem !== undefined) return refusal(problem);
  try {
    const result = await ctx.client.deprecateApp(app, { signal: ctx.signal });
    await tell(ctx, app, { kind: 'deprecated', result: result.data });
    const record = recordFromResult(result.data, ctx.now());
    const warning = missingSecretsWarning(app, record, t);
    const summary = `${t('{0} is deprecated ({1}).', plainText(app), deprecationDescription(record, t))}${warning === undefined ? '' : ` ${warning}.`}`;
    return reply(summary, {
      app,
      status: result.data.status,
      version: record.version ?? null,
      missingSecrets: record.missingSecrets,
    });
  } catch (e) {
    if (isApiError(e) && (e.kind === 'not-found' || e.status === 404))
      await tell(ctx, app, { kind: 'not-found', requestId: e.requestId });
    const auth = isApiError(e) && e.kind === 'auth';
    return failure(
      e,
      {
        failed: auth
          ? t('The data-app hub refused the API key for {0}', plainText(app))
          : t('Could not deprecate {0}', plainText(app)),
      },
      ctx,
    );
  }
}

/** The view's note of the outcome is a courtesy: failing to keep it does not change what the hub did. */
async function tell(ctx: ToolContext, ref: string, outcome: AppOutcome): Promise<void> {
  try {
    await ctx.onAppOutcome?.(ref, outcome);
  } catch {
    // the hub's answer stands; the adapter logs its own storage failures
  }
}
