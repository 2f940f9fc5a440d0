/**
 * The token grants (`POST /token`). They carry no credentials. The password grant is never
 * retried (a wrong password repeated looks like guessing); the refresh grant only when the server
 * surely did not see it, since it rotates the refresh token (see retry.ts).
 */
import { ApiError } from '../errors/errors';
import type { SecretSet } from '../errors/redact';
import type { ApiResult, CallOptions } from '../http/mainCaller';
import { parseReply } from '../http/replies';
import type { RetryMode } from '../http/retry';
import type { Transport } from '../http/transport';
import {
  passwordGrantRequestSchema,
  refreshGrantRequestSchema,
  type TokenData,
  tokenResponseSchema,
} from '../schemas/schemas';

export type GrantBody =
  | { grant_type: 'password'; username: string; password: string }
  | { grant_type: 'refresh_token'; refresh_token: string };

export class TokenOps {
  constructor(
    private readonly baseUrl: string,
    private readonly transport: Transport,
    private readonly secrets: SecretSet,
    private readonly assertOpen: () => void,
  ) {}

  obtainToken(username: string, password: string, o: CallOptions = {}): Promise<ApiResult<TokenData>> {
    this.secrets.add(password);
    return this.grant({ username, password, grant_type: 'password' }, 'never', o);
  }

  refreshToken(refreshToken: string, o: CallOptions = {}, priority = false): Promise<ApiResult<TokenData>> {
    this.secrets.add(refreshToken);
    return this.grant({ refresh_token: refreshToken, grant_type: 'refresh_token' }, 'unsent', o, priority);
  }

  private async grant(
    body: GrantBody,
    retry: RetryMode,
    o: CallOptions,
    priority = false,
  ): Promise<ApiResult<TokenData>> {
    this.assertOpen();
    const schema = body.grant_type === 'password' ? passwordGrantRequestSchema : refreshGrantRequestSchema;
    const check = schema.safeParse(body);
    if (!check.success) {
      const issue = check.error.issues[0];
      throw new ApiError({
        kind: 'invalid-request',
        field: issue?.path.map(String).join('.'),
        message: `Invalid token request: ${issue?.message ?? 'bad body'}`,
      });
    }
    const operation = body.grant_type === 'password' ? 'obtain a token' : 'refresh the token';
    const reply = await this.transport.send({
      method: 'POST',
      url: `${this.baseUrl}/token`,
      logPath: `/token (${body.grant_type})`,
      headers: () => ({ accept: 'application/json', 'content-type': 'application/json' }), // token calls carry no credentials
      body: JSON.stringify(body),
      retry,
      signal: o.signal,
      priority,
    });
    const parsed = parseReply(reply, tokenResponseSchema, { surface: 'token', operation, secrets: this.secrets });
    this.secrets.add(parsed.data.access_token, parsed.data.refresh_token);
    return { data: parsed.data, requestId: reply.requestId ?? parsed.requestId };
  }
}
