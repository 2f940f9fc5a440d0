/** The data-app hub: deprecate an app (idempotent, so retried like a read). */
import type { SessionKeeper } from '../auth/sessionKeeper';
import { ApiError } from '../errors/errors';
import type { SecretSet } from '../errors/redact';
import type { ApiResult, CallOptions } from '../http/mainCaller';
import { parseReply, type ReplyContext } from '../http/replies';
import type { Transport } from '../http/transport';
import { appRefPath } from '../http/urls';
import { type DeprecatedApp, deprecateResponseSchema } from '../schemas/schemas';

export class HubOps {
  constructor(
    private readonly datahubUrl: string | undefined,
    private readonly transport: Transport,
    private readonly auth: SessionKeeper,
    private readonly secrets: SecretSet,
    private readonly assertOpen: () => void,
  ) {}

  async deprecateApp(appRef: string, o: CallOptions = {}): Promise<ApiResult<DeprecatedApp>> {
    this.assertOpen();
    const ref = appRefPath(appRef);
    if (this.datahubUrl === undefined) {
      throw new ApiError({
        kind: 'invalid-request',
        field: 'datahubUrl',
        message: 'The data-app hub URL is not configured (datahubUrl).',
      });
    }
    const path = `/v1/data-apps/${ref}/deprecate`;
    const ctx: ReplyContext = {
      surface: 'hub',
      operation: `deprecate ${appRef.trim()}`,
      secrets: this.secrets,
      notFound: `App ${appRef.trim()} was not found, or you are not its author`,
    };
    const reply = await this.transport.send({
      method: 'POST',
      url: `${this.datahubUrl}${path}`,
      logPath: `{datahub}${path}`,
      headers: async () => ({ accept: 'application/json', ...(await this.auth.hubHeaders()).headers }),
      retry: 'safe', // deprecation is idempotent
      signal: o.signal,
    });
    const parsed = parseReply(reply, deprecateResponseSchema, ctx);
    return { data: parsed.data, requestId: reply.requestId };
  }
}
