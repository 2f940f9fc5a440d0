/**
 * `POST /token`: the password grant (expires_in as a numeric string) and the refresh_token grant
 * (expires_in as an integer, the refresh token rotated). Both forms appear in the spec; clients
 * must cope with either.
 */
import { tokenRequestSchema } from '../../api/schemas/schemas';
import { errorReply, ok, type Reply } from '../http/respond';
import { parseJson, type RouteRequest, type SandboxState } from '../state/state';

const GRANTS = ['password', 'refresh_token'];

export function handleToken(req: RouteRequest, state: SandboxState): Reply {
  const json = parseJson(req.body);
  if (!json.ok) return errorReply('token', 'bad-request', 'body: not valid JSON');
  const grant =
    typeof json.value === 'object' && json.value !== null
      ? (json.value as Record<string, unknown>).grant_type
      : undefined;
  if (typeof grant !== 'string' || !GRANTS.includes(grant)) {
    return errorReply('token', 'unsupported-grant', 'grant_type: must be "password" or "refresh_token"');
  }
  const parsed = tokenRequestSchema.safeParse(json.value);
  if (!parsed.success) {
    const message = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
    return errorReply('token', 'bad-request', message);
  }
  const body = parsed.data;
  if (body.grant_type === 'password') {
    const account = state.world.byUsername.get(body.username.trim().toLowerCase());
    if (!account || account.password !== body.password) {
      return errorReply('token', 'invalid-grant', 'The username or password is incorrect.');
    }
    state.stats.passwordGrants++;
    const token = state.tokens.issue(account.username);
    return ok({ ...token, expires_in: String(token.expires_in) });
  }
  const use = state.tokens.useRefresh(body.refresh_token);
  if (!use.ok) {
    return errorReply(
      'token',
      'invalid-grant',
      use.reason === 'used'
        ? 'The refresh token has already been used; sign in again.'
        : 'The refresh token is invalid or unknown; sign in again.',
    );
  }
  state.stats.refreshGrants++;
  state.stats.refreshGrantTimes.push(state.now()); // the sandbox's clock, so a test's fake clock dates them too
  return ok(state.tokens.issue(use.username));
}

/**
 * Token requests are limited per account (the username, or the owner of the refresh token) and
 * otherwise per client address.
 */
export function tokenRateKey(req: RouteRequest, state: SandboxState, remoteAddress: string | undefined): string {
  const json = parseJson(req.body);
  if (json.ok && typeof json.value === 'object' && json.value !== null) {
    const v = json.value as Record<string, unknown>;
    if (typeof v.username === 'string') return `user:${v.username.trim().toLowerCase()}`;
    if (typeof v.refresh_token === 'string') {
      const owner = state.tokens.ownerOfRefresh(v.refresh_token);
      if (owner) return `user:${owner}`;
    }
  }
  return `ip:${remoteAddress ?? 'unknown'}`;
}
