/**
 * `POST {datahub}/v1/data-apps/{app_id}/deprecate`. app_id is `namespace/name`, sent either with the
 * literal slash or encoded as %2F. Author only: anyone else gets the same 404 as for a missing app,
 * so the hub does not reveal which apps exist. Idempotent.
 */
import { appRefSchema } from '../../api/schemas/schemas';
import { errorReply, ok, type Reply } from '../http/respond';
import { authenticateHub } from '../state/auth';
import type { RouteRequest, SandboxState } from '../state/state';

export const DEPRECATED_STATUS = 'deprecated';

export function handleDeprecate(req: RouteRequest, state: SandboxState): Reply {
  const auth = authenticateHub(req.headers, state.world);
  if (!auth.ok) return auth.reply;
  let decoded: string;
  try {
    decoded = decodeURIComponent(req.params.appId ?? '');
  } catch {
    decoded = '';
  }
  const ref = appRefSchema.safeParse(decoded);
  if (!ref.success) {
    return errorReply('hub', 'bad-request', 'app_id: an app reference is namespace/name, e.g. acme/price-tracker');
  }
  const app = state.world.apps.get(ref.data);
  if (!app || app.author !== auth.account.username) {
    return errorReply('hub', 'not-found', `app_id: no app "${ref.data}" that you author`);
  }
  state.deprecated.add(app.ref);
  return ok({
    app_name: app.name,
    namespace: app.namespace,
    version: app.releases[app.releases.length - 1] ?? '',
    status: DEPRECATED_STATUS,
    missing_secrets: [...app.missingSecrets],
  });
}
