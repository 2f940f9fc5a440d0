/**
 * A PostgreSQL connection for the data writers: what the user added once (host, port, database,
 * user, schema, TLS mode; never the password, which the caller reads from SecretStorage), opened
 * with `pg` (pure JavaScript, bundled), and why it failed, as one kind the flows word for the
 * user. No `vscode`.
 */
import { Client, type ClientConfig } from 'pg';
import * as z from 'zod';

export const TLS_MODES = ['disable', 'require', 'verify-full'] as const;
export type TlsMode = (typeof TLS_MODES)[number];

/** PostgreSQL's identifiers: at most 63 bytes; a role or database name need not be plain ASCII. */
const identifier = z.string().trim().min(1).max(63);

export const pgConnectionSchema = z.object({
  host: z
    .string()
    .trim()
    .min(1)
    .max(253)
    .regex(/^[^\s/\\]+$/, 'a host name or address'),
  port: z.number().int().min(1).max(65535),
  database: identifier,
  user: identifier,
  schema: identifier,
  tls: z.enum(TLS_MODES),
});
export type PgConnection = z.infer<typeof pgConnectionSchema>;

/** How long a connection may take to open, and a statement to run, before the pull stops with a clear message. */
const CONNECT_MS = 15_000;
const STATEMENT_MS = 300_000;

function tlsOptions(mode: TlsMode): ClientConfig['ssl'] {
  if (mode === 'disable') return false;
  // require: encrypted, the certificate not checked (libpq's sslmode=require); verify-full: the
  // chain and the host name checked against the system's certificate authorities.
  return mode === 'require' ? { rejectUnauthorized: false } : { rejectUnauthorized: true };
}

/** A connected client; the caller ends it. */
export async function connect(c: PgConnection, password: string): Promise<Client> {
  const client = new Client({
    host: c.host,
    port: c.port,
    database: c.database,
    user: c.user,
    password,
    ssl: tlsOptions(c.tls),
    connectionTimeoutMillis: CONNECT_MS,
    statement_timeout: STATEMENT_MS,
    // Names and errors in the logs say which program it was.
    application_name: 'Scrapedeck',
    keepAlive: true,
  });
  // An error on an idle connection (the server restarted) must not crash the host: the next query rejects.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return client;
}

/** What went wrong, for one sentence to the user (see describeFailure in the flows). */
export type PgFailureKind =
  | 'refused'
  | 'unknown-host'
  | 'bad-password'
  | 'no-create'
  | 'tls-required'
  | 'tls-unsupported'
  | 'tls-unverified'
  | 'no-database'
  | 'no-schema'
  | 'timeout'
  | 'busy'
  | 'other';

/** SQLSTATEs and socket codes to kinds. */
export function failureKind(error: unknown): PgFailureKind {
  const e = error as { code?: unknown; message?: unknown } | undefined;
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : '';
  if (code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === '57P01' || code === '57P03') return 'refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'unknown-host';
  if (code === '28P01') return 'bad-password';
  // pg_hba.conf refuses a connection without TLS ("no encryption").
  if (code === '28000' && /no encryption|SSL off/i.test(message)) return 'tls-required';
  if (code === '28000') return 'bad-password';
  if (code === '42501') return 'no-create';
  if (code === '3D000') return 'no-database';
  if (code === '3F000') return 'no-schema';
  if (/^(SELF_SIGNED|DEPTH_ZERO|UNABLE_TO_VERIFY|CERT_|ERR_TLS_CERT)/.test(code)) return 'tls-unverified';
  if (code === '55P03') return 'busy';
  if (/does not support SSL/i.test(message)) return 'tls-unsupported';
  if (code === 'ETIMEDOUT' || /timeout/i.test(message)) return 'timeout';
  return 'other';
}

/** The server's own message, when there is one to log (never carries the password: `pg` does not echo it). */
export function serverMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A double-quoted identifier: any text is a safe name. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Test Connection: connects, and creates a table in the schema inside a transaction that is
 * rolled back (so a user without CREATE, or a missing schema, is found now rather than by the
 * first pull). Rejects with the first failure; leaves nothing behind.
 */
export async function probeConnection(c: PgConnection, password: string): Promise<void> {
  const client = await connect(c, password);
  try {
    await client.query('BEGIN');
    await client.query(`CREATE TABLE ${quoteIdent(c.schema)}."_scrapedeck_probe" (x integer)`);
    await client.query('ROLLBACK');
  } finally {
    await client.end().catch(() => undefined);
  }
}
