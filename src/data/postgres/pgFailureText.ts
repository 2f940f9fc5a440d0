/**
 * A PostgreSQL failure in one sentence for the user (Test Connection, a pull, an export). Pure:
 * the translator is passed in. The server's own message is the log's, never shown: it may quote
 * names of the server's that the user did not type.
 */
import type { Translate } from '../../platform/errorText';
import { failureKind } from './pgConnection';

export function pgFailureText(
  error: unknown,
  where: { host: string; schema: string; user: string },
  t: Translate,
): string {
  switch (failureKind(error)) {
    case 'refused':
      return t(
        '{0} refused the connection: check the host and port, and that PostgreSQL is running there.',
        where.host,
      );
    case 'unknown-host':
      return t('The host {0} could not be found: check its name.', where.host);
    case 'bad-password':
      return t('PostgreSQL refused the user {0}: check the user name and password.', where.user);
    case 'no-create':
      return t(
        'The user {0} may not create tables in the schema {1}: ask its owner for CREATE on it (GRANT CREATE ON SCHEMA).',
        where.user,
        where.schema,
      );
    case 'tls-required':
      return t(
        'The server accepts only encrypted connections: set the connection’s TLS mode to require or verify-full.',
      );
    case 'tls-unsupported':
      return t(
        'The server does not offer TLS: set the connection’s TLS mode to disable, or turn TLS on at the server.',
      );
    case 'no-database':
      return t('The database does not exist on {0}: check its name.', where.host);
    case 'no-schema':
      return t('The schema {0} does not exist: create it, or choose another.', where.schema);
    case 'timeout':
      return t('{0} did not answer in time: check the host, port and network.', where.host);
    case 'busy':
      return t('Another pull of this task into the schema {0} is running: try again when it is done.', where.schema);
    case 'tls-unverified':
      return t(
        'The server’s certificate could not be verified: set the TLS mode to require, or install its authority’s certificate.',
      );
    case 'other':
      return t('PostgreSQL reported an error (the log has its message).');
  }
}
